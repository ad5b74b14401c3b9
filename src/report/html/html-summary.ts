import { formatCount } from '../../domain/text-labels.js';
import type { ModelResult } from '../../metrics/group-tally.js';
import { conditionLabel } from '../charts/chart-theme.js';
import type { ModelLabels } from '../model-labels.js';
import { formatNumber, formatTimestamp } from '../number-format.js';
import type { ReportDocument } from '../report-document.js';
import { runSeedText } from '../sections/imported-notes.js';
import { type ConditionHighlights, type Leader, leaderTitle, onlyTitle, type RoleHighlights, withoutDataText } from '../summary-highlights.js';
import { duplicatesSentence } from '../texts/duplicates-text.js';
import { estimateHtml, modelName, thinMarkHtml } from './html-blocks.js';
import { html, type SafeHtml } from './safe-html.js';

/** The dark band at the top: what this report is about, and warnings when agents are simulated or combined runs shared conversations. */
export function mastheadHtml(document: ReportDocument, _labels: ModelLabels): SafeHtml {
  const { meta } = document;
  const runNames = meta.runs.map((run) => run.name).join(' + ');
  const claims = meta.claimSets.reduce((total, set) => total + set.claims, 0);
  const seeds = [...new Set(meta.runs.map(runSeedText))].join(', ');
  const simulated = meta.models.filter((entry) => entry.simulated);
  const notice =
    simulated.length === 0
      ? ''
      : simulated.length === meta.models.length
        ? html`<p class="notice"><strong>Simulated agents.</strong> Every model in this report is a simulated agent with planted traits: the numbers show that the pipeline works, not how any real model behaves.</p>`
        : html`<p class="notice"><strong>Simulated agents.</strong> ${simulated.length} of ${meta.models.length} models are simulated agents with planted traits (${simulated.map((entry) => entry.model).join(', ')}): their numbers say nothing about real models.</p>`;
  const duplicates =
    meta.duplicates.length === 0
      ? ''
      : html`<p class="notice" id="duplicates"><strong>Conversations counted once.</strong> ${duplicatesSentence(meta.duplicates)}. A conversation id found in more than one combined run is counted only from the first run listed, so the numbers below rest on ${formatCount(meta.conversations)} conversations, not ${formatCount(meta.conversations + meta.duplicatesSkipped)}.</p>`;
  return html`<header class="masthead"><div class="page">
<p class="eyebrow">pmiyc · Persuade Me If You Can</p>
<h1>Persuasion tournament: ${runNames}</h1>
<p class="lede"><span>${meta.models.length} models</span><span>${formatCount(meta.conversations)} conversations</span><span>${claims} claims</span><span>seed ${seeds}</span><span>${meta.generatedBy}, ${formatTimestamp(meta.generatedAt)}</span></p>
${notice}${duplicates}</div></header>`;
}

function leaderHtml(title: string, leader: Leader | undefined, labels: ModelLabels): SafeHtml {
  if (!leader) return html`<dt>${title}</dt><dd class="na">n/a</dd>`;
  const { result, runnerUp, overlaps } = leader;
  const caveat = runnerUp
    ? html`<dd class="caveat">next: ${labels.text(runnerUp.model)} ${thinMarkHtml(runnerUp.thin)}${formatNumber(runnerUp.value)} · ${overlaps ? 'intervals overlap: order not established' : 'intervals apart'}</dd>`
    : '';
  return html`<dt>${title}</dt><dd><span class="who">${modelName(result.model, labels)}</span></dd><dd>${estimateHtml(result.value, result.ciLow, result.ciHigh, result.n, result.thin, 'conversations')}</dd>${caveat}`;
}

/** The one model of a role with data: named with its value, never as "most" anything. */
function onlyHtml(title: string, result: ModelResult, labels: ModelLabels): SafeHtml {
  return html`<dt>${title}</dt><dd><span class="who">${modelName(result.model, labels)}</span></dd><dd>${estimateHtml(result.value, result.ciLow, result.ciHigh, result.n, result.thin, 'conversations')}</dd>`;
}

/** One role's leaders (or its only model with data), then the models it has no data for, and why. */
function roleHtml(role: RoleHighlights, noun: 'persuader' | 'persuadee', leaders: ReadonlyArray<[string, Leader | undefined]>, labels: ModelLabels): SafeHtml {
  const withoutData = role.withoutData.length > 0 ? html`<dd class="no-data">${withoutDataText(role, labels.text)}</dd>` : '';
  if (role.only) return html`${onlyHtml(onlyTitle(noun), role.only, labels)}${withoutData}`;
  return html`${leaders.map(([title, leader]) => leaderHtml(leaderTitle(title, role), leader, labels))}${withoutData}`;
}

function cardHtml(highlights: ConditionHighlights, labels: ModelLabels): SafeHtml {
  const { condition, conversations, completed, claims, persuaders, persuadees } = highlights;
  const share = conversations === 0 ? 'n/a' : `${((completed / conversations) * 100).toFixed(1)}%`;
  return html`<div class="card"><h3>${conditionLabel(condition.domain, condition.setting)}</h3><dl>
${roleHtml(persuaders, 'persuader', [['Most effective persuader', persuaders.highest]], labels)}
${roleHtml(
  persuadees,
  'persuadee',
  [
    ['Most susceptible persuadee', persuadees.highest],
    ['Most resistant persuadee', persuadees.lowest],
  ],
  labels,
)}
</dl><p class="counts">${formatCount(conversations)} conversations, ${formatCount(completed)} completed (${share}), ${claims} claims resampled</p></div>`;
}

/** The top summary: one card per condition with the leaders and their intervals. */
export function summaryCardsHtml(highlights: readonly ConditionHighlights[], labels: ModelLabels): SafeHtml {
  if (highlights.length === 0) return html`<p class="na">The run has no conversations yet.</p>`;
  return html`<div class="cards">${highlights.map((entry) => cardHtml(entry, labels))}</div>`;
}
