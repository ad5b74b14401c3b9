import { agreementLabel } from '../../domain/agreement-score.js';
import { conditionLabel } from '../charts/chart-theme.js';
import type { ModelLabels } from '../model-labels.js';
import { formatNumber } from '../number-format.js';
import type { SampleDialogue } from '../report-document.js';
import { modelName } from './html-blocks.js';
import { html, type SafeHtml } from './safe-html.js';

const KIND_TITLES = { best: 'Best', worst: 'Got nowhere', backfire: 'Backfired' } as const;

function turnHtml(turn: SampleDialogue['turns'][number], labels: ModelLabels, dialogue: SampleDialogue): SafeHtml {
  const model = turn.role === 'persuader' ? dialogue.persuader : dialogue.persuadee;
  const label = `${agreementLabel(turn.score)} (${turn.score})`;
  const score =
    turn.role === 'persuadee'
      ? html`<span class="score s${turn.score}">${label}</span>`
      : html`<span class="score own" title="the persuader's own rating, never shown to the persuadee">own rating: ${label}</span>`;
  const retries = turn.attempts > 1 ? html` · ${turn.attempts} attempts` : '';
  const dispute = turn.dispute === undefined ? '' : html`<p class="dispute"><strong>disputed:</strong> ${turn.dispute}</p>`;
  return html`<li class="${`turn ${turn.role} ${turn.kind}`}"><div class="who-said">Turn ${turn.index} · <span class="role">${turn.role}</span> (${modelName(model, labels)}) · ${turn.kind}${retries} ${score}</div><div class="bubble">${turn.message}</div>${dispute}</li>`;
}

function outcomeHtml(dialogue: SampleDialogue): SafeHtml {
  if (dialogue.initialScore === null || dialogue.finalScore === null || dialogue.normalizedChange === null) return html`not completed`;
  const nc = dialogue.normalizedChange;
  const ncText =
    nc > 0
      ? html`<span class="nc-up">+${formatNumber(nc)}</span>`
      : nc < 0
        ? html`<span class="nc-down">${formatNumber(nc)}</span>`
        : html`${formatNumber(nc)}`;
  const stop = dialogue.earlyStopped ? ' · stopped early at Completely Support' : '';
  return html`${agreementLabel(dialogue.initialScore)} (${dialogue.initialScore}) → ${agreementLabel(dialogue.finalScore)} (${dialogue.finalScore}) · NC ${ncText}${stop}`;
}

/** One sampled conversation as a readable dialogue: persuadee on the left, persuader on the right. */
export function dialogueHtml(dialogue: SampleDialogue, labels: ModelLabels): SafeHtml {
  const heading =
    dialogue.question === null
      ? html`<h3>${dialogue.claim}</h3>`
      : html`<p class="question">Question: ${dialogue.question}</p><h3>Argued answer: ${dialogue.claim}</h3>`;
  return html`<article class="dialogue" id="${`conversation-${dialogue.conversationId}`}">
<header><span class="${`kind ${dialogue.kind}`}">${KIND_TITLES[dialogue.kind]}</span> ${heading}
<p class="facts">${conditionLabel(dialogue.domain, dialogue.setting)} · persuader ${modelName(dialogue.persuader, labels)} · persuadee ${modelName(dialogue.persuadee, labels)}</p>
<p class="facts">${outcomeHtml(dialogue)} · run ${dialogue.run ?? 'n/a'} · id <code>${dialogue.conversationId}</code></p></header>
<ol class="turns">${dialogue.turns.map((turn) => turnHtml(turn, labels, dialogue))}</ol></article>`;
}
