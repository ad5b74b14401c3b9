import { agreementLabel } from '../../domain/agreement-score.js';
import type { Setting } from '../../domain/conversation.js';
import { conditionLabel } from '../charts/chart-theme.js';
import type { RenderedChart } from '../charts/render-svg.js';
import { intervalsSentence } from '../intervals-text.js';
import type { ModelLabels } from '../model-labels.js';
import { formatNumber, formatTimestamp } from '../number-format.js';
import { acrossProtocolsMarkdown } from '../protocols/across-protocols-section.js';
import { protocolSectionsMarkdown } from '../protocols/protocol-section-markdown.js';
import type { ReportDocument, SampleDialogue } from '../report-document.js';
import { driftSectionMarkdown } from '../sections/drift-section.js';
import { importedSectionMarkdown } from '../sections/imported-section.js';
import { peopleSectionMarkdown } from '../sections/people-section.js';
import { sequentialSectionMarkdown } from '../sections/sequential-section.js';
import { annotationSectionMarkdown } from '../studies/annotation-section.js';
import { consistencySectionMarkdown } from '../studies/consistency-section.js';
import { judgeSectionMarkdown } from '../studies/judge-section.js';
import { analysisSectionsMarkdown } from '../studies/techniques-section.js';
import { AMONG_MODELS_WITH_DATA, type Leader, onlyTitle, type RoleHighlights, summaryHighlights, withoutDataText } from '../summary-highlights.js';
import {
  claimSpreadTable,
  modelComparisonTable,
  runComparisonIntro,
  runComparisonTable,
  settingComparisonTable,
  VARIANTS_INTRO,
  variantTable,
} from '../tables/comparison-tables.js';
import { claimSetsTable, conditionsTable, modelsTable, resamplingTable, runsTable, successTable, USAGE_INTRO, usageTable } from '../tables/operation-tables.js';
import { powerNote, powerTable } from '../tables/power-table.js';
import { conditionsOf, initialScoresTable, modelTable, pairMatrixTable, type ReportTable, stanceTable, turnCurveTable } from '../tables/report-tables.js';
import { aliasesNote, aliasesTable } from '../tables/what-ran-table.js';
import { duplicatesSentence } from '../texts/duplicates-text.js';
import { escapeCell, escapeMarkdown, estimateText, markdownTable, quote } from './markdown-text.js';

function leaderText(leader: Leader | undefined, labels: ModelLabels): string {
  if (!leader) return 'n/a';
  const { result, overlaps, runnerUp } = leader;
  const caveat = runnerUp && overlaps ? ' (overlaps the next)' : '';
  return `${escapeCell(labels.text(result.model))}: ${estimateText(result.value, result.ciLow, result.ciHigh, result.n, result.thin, 'conversations')}${caveat}`;
}

/**
 * A summary cell: the leader among the models with data (said so when some have none), the only
 * model with data (named as that, not as "most" anything), and the models without data with why.
 */
function roleCell(role: RoleHighlights, leader: Leader | undefined, noun: 'persuader' | 'persuadee', labels: ModelLabels): string {
  const named = role.only
    ? `none to rank; ${onlyTitle(noun).toLowerCase()}: ${leaderText({ result: role.only, overlaps: false }, labels)}`
    : role.withoutData.length > 0 && leader
      ? `${AMONG_MODELS_WITH_DATA}: ${leaderText(leader, labels)}`
      : leaderText(leader, labels);
  return role.withoutData.length > 0 ? `${named}; ${escapeCell(withoutDataText(role, labels.text))}` : named;
}

function summaryTable(document: ReportDocument, labels: ModelLabels): string {
  const rows = summaryHighlights(document).map(({ condition, persuaders, persuadees }) =>
    [
      conditionLabel(condition.domain, condition.setting),
      roleCell(persuaders, persuaders.highest, 'persuader', labels),
      roleCell(persuadees, persuadees.highest, 'persuadee', labels),
      roleCell(persuadees, persuadees.lowest, 'persuadee', labels),
    ].join(' | '),
  );
  if (rows.length === 0) return '_No conversations yet._';
  return ['| condition | most effective persuader | most susceptible | most resistant |', '| --- | --- | --- | --- |', ...rows.map((row) => `| ${row} |`)].join(
    '\n',
  );
}

function turnLine(turn: SampleDialogue['turns'][number], dialogue: SampleDialogue, labels: ModelLabels): string {
  const model = labels.text(turn.role === 'persuader' ? dialogue.persuader : dialogue.persuadee);
  const score = `${agreementLabel(turn.score)} (${turn.score})`;
  const scoreText = turn.role === 'persuader' ? `own rating ${score}, not shown to the persuadee` : `**${score}**`;
  const dispute = turn.dispute === undefined ? '' : `\n\n*Disputed:* ${escapeMarkdown(turn.dispute)}`;
  return `**Turn ${turn.index} · ${turn.role}** (${escapeMarkdown(model)}) · ${turn.kind} · ${scoreText}\n\n${quote(turn.message)}${dispute}`;
}

function dialogueMarkdown(dialogue: SampleDialogue, labels: ModelLabels): string {
  const claim =
    dialogue.question === null ? escapeMarkdown(dialogue.claim) : `${escapeMarkdown(dialogue.question)} Argued answer: ${escapeMarkdown(dialogue.claim)}`;
  const outcome =
    dialogue.initialScore === null || dialogue.finalScore === null
      ? 'not completed'
      : `${dialogue.initialScore} → ${dialogue.finalScore}, NC ${formatNumber(dialogue.normalizedChange)}${dialogue.earlyStopped ? ', stopped early' : ''}`;
  return [
    `### ${dialogue.kind} · ${conditionLabel(dialogue.domain, dialogue.setting)}: ${claim.replace(/\n/g, ' ')}`,
    `Persuader ${escapeMarkdown(labels.text(dialogue.persuader))}, persuadee ${escapeMarkdown(labels.text(dialogue.persuadee))}; ${outcome}; id \`${dialogue.conversationId}\`.`,
    ...dialogue.turns.map((turn) => turnLine(turn, dialogue, labels)),
  ].join('\n\n');
}

/** The report as Markdown; charts are SVG files beside it (`charts/<id>.svg`). */
export function markdownReport(document: ReportDocument, labels: ModelLabels, charts: readonly RenderedChart[]): string {
  const image = (id: string) => {
    const chart = charts.find((candidate) => candidate.id === id);
    return chart ? `![${escapeMarkdown(chart.title)}](charts/${chart.id}.svg)` : '';
  };
  const table = (value: ReportTable) => markdownTable(value, labels);
  const { meta } = document;
  const simulated = meta.simulatedAgents
    ? '> **Simulated agents** take part (labelled [simulated]): their numbers show that the pipeline works, not how real models behave.\n'
    : '';
  const duplicates =
    meta.duplicates.length > 0
      ? `${simulated ? '\n' : ''}> **Conversations counted once.** ${escapeCell(duplicatesSentence(meta.duplicates))}. The numbers rest on ${meta.conversations} conversations, not ${meta.conversations + meta.duplicatesSkipped}.\n`
      : '';
  const settings = (['single', 'multi'] as Setting[]).filter((setting) => document.turnCurves.some((curve) => curve.setting === setting));
  const sections = [
    `# pmiyc report: ${escapeMarkdown(meta.runs.map((run) => run.name).join(' + '))}\n\n${simulated}${duplicates}\n${meta.conversations} conversations; ${escapeMarkdown(meta.generatedBy)}, ${formatTimestamp(meta.generatedAt)}. Estimates are mean [95% interval over claims] (n), where each table's header says what n counts (conversations or claims); ~ marks an interval that rests on too few claims to be trusted.`,
    `## Summary\n\n${summaryTable(document, labels)}`,
    meta.sequential ? sequentialSectionMarkdown(meta.sequential, labels) : '',
    `## Effectiveness and susceptibility (paper Fig. 3)\n\n${image('effectiveness')}\n\n${table(modelTable(document, document.effectiveness))}\n\n${image('susceptibility')}\n\n${table(modelTable(document, document.susceptibility))}`,
    importedSectionMarkdown(document, labels),
    `## Which differences are real\n\nEach difference is paired over the claims both models share; p-values are Holm-adjusted per measure and condition.\n\n### Effectiveness\n\n${table(modelComparisonTable(document, 'effectiveness'))}\n\n### Susceptibility\n\n${table(modelComparisonTable(document, 'susceptibility'))}${document.comparisons.runs ? `\n\n### Against the baseline run\n\n${escapeMarkdown(runComparisonIntro(document))}\n\n${table(runComparisonTable(document))}` : ''}${document.variants.length > 0 ? `\n\n### Prompt variants\n\n${escapeMarkdown(VARIANTS_INTRO)}\n\n${table(variantTable(document))}` : ''}${document.comparisons.settings.length > 0 ? `\n\n### Single-turn against multi-turn\n\n${table(settingComparisonTable(document))}` : ''}${document.power.length > 0 ? `\n\n### How many claims would settle it\n\nRead as a pilot: the claims a full run needs for 80% power to detect each difference between two models, from the spread of this run's paired differences, every two models compared at 0.05 over the number of comparisons.\n\n${table(powerTable(document))}\n\n${escapeMarkdown(powerNote(document))}` : ''}`,
    `## Pair matrices (paper Figs. 2, 4, 5)\n\n${conditionsOf(document)
      .map(
        (condition) =>
          `### ${conditionLabel(condition.domain, condition.setting)}\n\n${image(`nc-matrix-${condition.domain}-${condition.setting}`)}\n\n${table(pairMatrixTable(document.pairs.filter((pair) => pair.domain === condition.domain && pair.setting === condition.setting)))}`,
      )
      .join('\n\n')}`,
    `## Which claims move persuadees\n\nEvery claim per model is in report.json (claims.perClaim); every pair on every claim in claim-pairs.csv.\n\n${table(claimSpreadTable(document))}`,
    `## Agreement turn by turn (paper Fig. 6)\n\nEarly-stopped conversations count as 5 until the final decision.\n\n${settings.map((setting) => `${image(`turn-curves-${setting}`)}\n\n${table(turnCurveTable(document, setting))}`).join('\n\n')}`,
    `## By the persuader's own stance (paper Fig. 7)\n\n${image('stance-groups')}\n\n${table(stanceTable(document))}`,
    `## Initial stances (paper App. A)\n\n${image('initial-scores-subjective')}\n\n${image('initial-scores-misinformation')}\n\n${table(initialScoresTable(document))}`,
    `## Absolute change\n\n${image('effectiveness-absolute')}\n\n${table(modelTable(document, document.absoluteChange.effectiveness))}\n\n${image('susceptibility-absolute')}\n\n${table(modelTable(document, document.absoluteChange.susceptibility))}`,
    `## Failures and re-samples (paper App. B.0.1)\n\n${table(successTable(document))}\n\n${table(resamplingTable(document))}`,
    `## Tokens and cost\n\n${escapeMarkdown(USAGE_INTRO)}\n\n${table(usageTable(document))}`,
    annotationSectionMarkdown(document.studies.reliability ?? null, labels, image),
    consistencySectionMarkdown(document.studies.consistency ?? []),
    document.studies.judge ? judgeSectionMarkdown(document.studies.judge, labels, image) : '',
    analysisSectionsMarkdown(document, labels, image),
    document.drift ? driftSectionMarkdown(document.drift, labels, image) : '',
    document.people ? peopleSectionMarkdown(document.people, labels, image) : '',
    acrossProtocolsMarkdown(document.acrossProtocols, labels),
    protocolSectionsMarkdown(document.protocols ?? [], labels, charts),
    `## Conversations to read\n\nOpen any of them, with every attempt and what it cost, with \`pmiyc show ID\` (add \`--run RUN\` when several runs have the id), or browse the run with \`pmiyc view\`.\n\n${document.samples.map((dialogue) => dialogueMarkdown(dialogue, labels)).join('\n\n---\n\n') || '_None._'}`,
    `## What ran\n\n${table(runsTable(document))}\n\n### Models\n\n${table(aliasesTable(document))}${aliasesNote(document) ? `\n\n${escapeMarkdown(aliasesNote(document))}` : ''}\n\n${table(modelsTable(document))}\n\n${table(conditionsTable(document))}\n\n${table(claimSetsTable(document))}\n\n${escapeMarkdown(intervalsSentence(meta.intervals))}${meta.notes.length > 0 ? `\n\n${meta.notes.map((note) => `- ${escapeMarkdown(note)}`).join('\n')}` : ''}`,
  ];
  return `${sections.filter((section) => section !== '').join('\n\n')}\n`;
}
