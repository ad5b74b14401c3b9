import type { Setting } from '../../domain/conversation.js';
import { conditionLabel } from '../charts/chart-theme.js';
import type { RenderedChart } from '../charts/render-svg.js';
import { intervalsSentence } from '../intervals-text.js';
import type { ModelLabels } from '../model-labels.js';
import { acrossProtocolsHtml, acrossTocEntries } from '../protocols/across-protocols-section.js';
import { protocolSectionsHtml, protocolTocEntries } from '../protocols/protocol-section-html.js';
import type { ReportDocument } from '../report-document.js';
import { DRIFT_CHART_ID, DRIFT_SECTION_ID, driftSectionHtml } from '../sections/drift-section.js';
import { IMPORTED_TOC_ENTRY, importedSectionHtml } from '../sections/imported-section.js';
import { PEOPLE_SECTION_ID, peopleSectionHtml } from '../sections/people-section.js';
import { SEQUENTIAL_SECTION_ID, sequentialSectionHtml } from '../sections/sequential-section.js';
import { annotationSectionHtml, CONFUSION_CHART_ID, RELIABILITY_TOC_ENTRY } from '../studies/annotation-section.js';
import { CONSISTENCY_SECTION_ID, consistencySectionHtml } from '../studies/consistency-section.js';
import { JUDGE_CHART_ID, JUDGE_SECTION_ID, judgeSectionHtml } from '../studies/judge-section.js';
import { analysisSectionsHtml, analysisTocEntries } from '../studies/techniques-section.js';
import { summaryHighlights } from '../summary-highlights.js';
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
import { conditionsOf, initialScoresTable, modelTable, pairMatrixTable, stanceTable, turnCurveTable } from '../tables/report-tables.js';
import { aliasesNote, aliasesTable } from '../tables/what-ran-table.js';
import { figureHtml, sectionHtml, tableHtml } from './html-blocks.js';
import { dialogueHtml } from './html-dialogue.js';
import { mastheadHtml, summaryCardsHtml } from './html-summary.js';
import { REPORT_CSS } from './report-style.js';
import { html, type SafeHtml, trusted } from './safe-html.js';

interface Parts {
  readonly document: ReportDocument;
  readonly labels: ModelLabels;
  readonly chart: (id: string) => RenderedChart | undefined;
  readonly charts: readonly RenderedChart[];
}

const asTable = (summary: string, table: SafeHtml) => html`<details><summary>${summary}</summary>${table}</details>`;

function modelSection({ document, labels, chart }: Parts): SafeHtml {
  return sectionHtml(
    'effectiveness',
    'Who persuades, and who is persuaded',
    'paper Fig. 3',
    'Effectiveness is the mean, over the persuadees a model faced, of its pair means of normalized change (NC); susceptibility the same over persuaders. Self-play is included; pairs count equally.',
    [
      figureHtml(chart('effectiveness')),
      tableHtml(modelTable(document, document.effectiveness), labels),
      figureHtml(chart('susceptibility')),
      tableHtml(modelTable(document, document.susceptibility), labels),
    ],
  );
}

const COMPARISON_INTRO =
  'Is one model really more persuasive (or more easily persuaded) than another? Each difference is paired over the claims both models were tested on, with its 95% interval and a t test over claims; ' +
  'p-values are Holm-adjusted over every comparison of the same measure in the same condition, so "differ" means p (Holm) < 0.05. Intervals marked ~ rest on too few claims to be trusted.';

function comparisonSection({ document, labels }: Parts): SafeHtml {
  const { models, settings } = document.comparisons;
  const settingsPart = settings.length === 0 ? [] : [html`<h3>Single-turn against multi-turn</h3>`, tableHtml(settingComparisonTable(document), labels)];
  const runsPart = document.comparisons.runs
    ? [html`<h3>Against the baseline run</h3><p class="intro">${runComparisonIntro(document)}</p>`, tableHtml(runComparisonTable(document), labels)]
    : [];
  const variantsPart =
    document.variants.length > 0 ? [html`<h3>Prompt variants</h3><p class="intro">${VARIANTS_INTRO}</p>`, tableHtml(variantTable(document), labels)] : [];
  const powerPart =
    document.power.length === 0
      ? []
      : [
          html`<h3>How many claims would settle it</h3><p class="intro">Read as a pilot: the claims a full run needs for 80% power to detect each difference between two models, from the spread of this run's paired differences, every two models compared at 0.05 over the number of comparisons.</p>`,
          tableHtml(powerTable(document), labels),
          html`<p class="intro">${powerNote(document)}</p>`,
        ];
  return sectionHtml('comparisons', 'Which differences are real', '', COMPARISON_INTRO, [
    models.length === 0 ? html`<p class="na">One model per role: nothing to compare.</p>` : html``,
    asTable('Effectiveness: every two persuaders', tableHtml(modelComparisonTable(document, 'effectiveness'), labels)),
    asTable('Susceptibility: every two persuadees', tableHtml(modelComparisonTable(document, 'susceptibility'), labels)),
    ...runsPart,
    ...variantsPart,
    ...settingsPart,
    ...powerPart,
  ]);
}

function claimSection({ document, labels }: Parts): SafeHtml {
  return sectionHtml(
    'claims',
    'Which claims move persuadees',
    '',
    "Each claim's mean NC over its pairs. The share of the variance between claims is what is left of the spread of claim-pair means once each pair's own mean is taken out: a large share means the claim matters as much as who argues it. Every claim, per model, is in report.json (claims.perClaim); every pair on every claim in claim-pairs.csv.",
    [tableHtml(claimSpreadTable(document), labels)],
  );
}

function matrixSection({ document, labels, chart }: Parts): SafeHtml {
  const body = conditionsOf(document).map((condition) => {
    const pairs = document.pairs.filter((pair) => pair.domain === condition.domain && pair.setting === condition.setting);
    return html`${figureHtml(chart(`nc-matrix-${condition.domain}-${condition.setting}`))}${asTable(`${conditionLabel(condition.domain, condition.setting)} as a table`, tableHtml(pairMatrixTable(pairs), labels))}`;
  });
  return sectionHtml(
    'matrices',
    'Every persuader against every persuadee',
    'paper Figs. 2, 4, 5',
    'Mean NC of each ordered pair over its completed conversations: 1 is full persuasion to Completely Support, 0 no change, -1 a full backfire. Grey cells had no completed conversation.',
    body,
  );
}

function turnSection({ document, labels, chart }: Parts): SafeHtml {
  const settings = (['single', 'multi'] as Setting[]).filter((setting) => document.turnCurves.some((curve) => curve.setting === setting));
  const body = settings.map(
    (setting) =>
      html`${figureHtml(chart(`turn-curves-${setting}`))}${asTable(`${setting}-turn curves as a table`, tableHtml(turnCurveTable(document, setting), labels))}`,
  );
  return sectionHtml(
    'turns',
    'Agreement turn by turn',
    'paper Fig. 6',
    'Mean persuadee score at each of its turns, per persuader. A conversation that stopped early (the persuadee reached 5) counts as 5 at each later turn, and its final decision is shown at the final position with its real score.',
    body,
  );
}

function stanceSection({ document, labels, chart }: Parts): SafeHtml {
  const without = document.groups.reduce((total, group) => total + group.withoutStance, 0);
  const intro = `Conversations grouped by the persuader's own opening score on the claim: opposing (1-2), neutral (3), supporting (4-5).${without > 0 ? ` ${without} completed conversations without a known persuader stance are left out.` : ''}`;
  return sectionHtml('stance', 'Does agreeing with the claim help the persuader?', 'paper Fig. 7', intro, [
    figureHtml(chart('stance-groups')),
    tableHtml(stanceTable(document), labels),
  ]);
}

function initialSection({ document, labels, chart }: Parts): SafeHtml {
  return sectionHtml(
    'initial',
    'Where persuadees start',
    'paper App. A',
    'Distribution of opening scores per persuadee. An opening is made once per (persuadee, claim) and shared by every persuader and both settings, so it is counted once.',
    [figureHtml(chart('initial-scores-subjective')), figureHtml(chart('initial-scores-misinformation')), tableHtml(initialScoresTable(document), labels)],
  );
}

function absoluteSection({ document, labels, chart }: Parts): SafeHtml {
  const matrices = conditionsOf(document).map((condition) =>
    asTable(
      `${conditionLabel(condition.domain, condition.setting)}: mean absolute change per pair`,
      tableHtml(
        pairMatrixTable(
          document.pairs.filter((pair) => pair.domain === condition.domain && pair.setting === condition.setting),
          'absolute',
        ),
        labels,
      ),
    ),
  );
  return sectionHtml(
    'absolute',
    'The same on absolute change',
    '',
    'Absolute change st - s0 in scale points (-4 to 4) does not account for where a persuadee started; shown for comparison with NC.',
    [
      figureHtml(chart('effectiveness-absolute')),
      tableHtml(modelTable(document, document.absoluteChange.effectiveness), labels),
      figureHtml(chart('susceptibility-absolute')),
      tableHtml(modelTable(document, document.absoluteChange.susceptibility), labels),
      ...matrices,
    ],
  );
}

function operationsSections({ document, labels }: Parts): SafeHtml[] {
  return [
    sectionHtml(
      'reliability',
      'Did the conversations happen?',
      'paper App. B.0.1',
      'Conversations per model and role, and failures by cause: format (no usable tags after every re-sample), refusal, api (the provider kept failing) or context (too long). "Partner failed" counts conversations the other agent broke.',
      [tableHtml(successTable(document), labels), html`<h3>Re-sampled replies</h3>`, tableHtml(resamplingTable(document), labels)],
    ),
    sectionHtml('usage', 'Tokens and cost', '', USAGE_INTRO, [tableHtml(usageTable(document), labels)]),
  ];
}

function dialogueSection({ document, labels }: Parts): SafeHtml {
  const body = conditionsOf(document).map((condition) => {
    const dialogues = document.samples.filter((dialogue) => dialogue.domain === condition.domain && dialogue.setting === condition.setting);
    return dialogues.length === 0
      ? html``
      : html`<h3>${conditionLabel(condition.domain, condition.setting)}</h3>${dialogues.map((dialogue) => dialogueHtml(dialogue, labels))}`;
  });
  if (document.samples.length === 0) body.push(html`<p class="na">No completed conversations to show.</p>`);
  return sectionHtml(
    'dialogues',
    'Conversations to read',
    '',
    'Per condition: the most successful conversation, one where the persuader got nowhere, and the strongest backfire. Model text is shown exactly as written (escaped). Open any of them, with every attempt and what it cost, with pmiyc show ID (add --run RUN when several runs have the id), or browse the run with pmiyc view.',
    body,
  );
}

function provenanceSection({ document, labels }: Parts): SafeHtml {
  const { meta } = document;
  const nonCommercial = meta.claimSets.some((set) => set.nonCommercial)
    ? html`<p class="notice">Some claims are licensed for non-commercial use only (CC BY-NC-SA 4.0): so are results that reproduce them.</p>`
    : html``;
  const notes = meta.notes.length === 0 ? html`` : html`<h3>Notes</h3><ul class="notes">${meta.notes.map((note) => html`<li>${note}</li>`)}</ul>`;
  return sectionHtml('provenance', 'What ran', '', intervalsSentence(meta.intervals), [
    tableHtml(runsTable(document), labels),
    html`<h3>Models</h3>`,
    tableHtml(aliasesTable(document), labels),
    aliasesNote(document) ? html`<p class="intro">${aliasesNote(document)}</p>` : html``,
    ...configurations(document),
    tableHtml(modelsTable(document), labels),
    tableHtml(conditionsTable(document), labels),
    nonCommercial,
    tableHtml(claimSetsTable(document), labels),
    notes,
  ]);
}

/** Each run's stored configuration, folded away, as escaped JSON. */
export function configurations(document: { readonly meta: Pick<ReportDocument['meta'], 'runs'> }): SafeHtml[] {
  return document.meta.runs
    .filter((run) => run.config !== undefined)
    .map((run) =>
      asTable(
        `Configuration of run ${run.name}${run.gitRevision ? ` (git ${run.gitRevision})` : ''}`,
        html`<pre class="config">${JSON.stringify(run.config, null, 2)}</pre>`,
      ),
    );
}

const TOC: ReadonlyArray<[string, string]> = [
  ['summary', 'Summary'],
  ['effectiveness', 'Effectiveness & susceptibility'],
  ['comparisons', 'Comparisons'],
  ['matrices', 'Pair matrices'],
  ['claims', 'Claims'],
  ['turns', 'Turn by turn'],
  ['stance', "Persuader's stance"],
  ['initial', 'Initial stances'],
  ['absolute', 'Absolute change'],
  ['reliability', 'Failures & re-samples'],
  ['usage', 'Tokens & cost'],
  ['dialogues', 'Conversations'],
  ['provenance', 'What ran'],
];

/** The validation studies' entries, only for the studies that were made. */
function studyEntries(document: ReportDocument): Array<readonly [string, string]> {
  return [
    ...(document.studies.reliability ? [RELIABILITY_TOC_ENTRY] : []),
    ...((document.studies.consistency ?? []).length > 0 ? [[CONSISTENCY_SECTION_ID, 'Consistency'] as const] : []),
    ...(document.studies.judge ? [[JUDGE_SECTION_ID, 'LLM as judge'] as const] : []),
    ...analysisTocEntries(document),
    ...(document.drift ? [[DRIFT_SECTION_ID, 'Drift'] as const] : []),
    ...(document.people ? [[PEOPLE_SECTION_ID, 'People and models'] as const] : []),
    ...(document.meta.sequential ? [[SEQUENTIAL_SECTION_ID, 'Sequential stopping'] as const] : []),
    ...acrossTocEntries(document.acrossProtocols),
    ...protocolTocEntries(document.protocols ?? []),
  ];
}

/** The contents: imported results after the model means; the studies' entries after the operations sections, before the dialogues. */
function tocOf(document: ReportDocument): ReadonlyArray<readonly [string, string]> {
  const before = TOC.findIndex(([id]) => id === 'dialogues');
  const toc = [...TOC.slice(0, before), ...studyEntries(document), ...TOC.slice(before)];
  const afterModels = toc.findIndex(([id]) => id === 'effectiveness') + 1;
  return document.imported ? [...toc.slice(0, afterModels), IMPORTED_TOC_ENTRY, ...toc.slice(afterModels)] : toc;
}

/** The studies' sections, then the table across protocols and the protocol runs' sections, in the order of the contents. */
function studiesHtml(parts: Parts): SafeHtml {
  const { document, labels } = parts;
  return html`${annotationSectionHtml(document.studies.reliability ?? null, labels, parts.chart(CONFUSION_CHART_ID))}${consistencySectionHtml(document.studies.consistency ?? [])}${document.studies.judge ? judgeSectionHtml(document.studies.judge, labels, parts.chart(JUDGE_CHART_ID)) : ''}${analysisSectionsHtml(document, labels, parts.chart)}${document.drift ? driftSectionHtml(document.drift, labels, parts.chart(DRIFT_CHART_ID)) : ''}${document.people ? peopleSectionHtml(document.people, labels, parts.chart) : ''}${document.meta.sequential ? sequentialSectionHtml(document.meta.sequential, labels) : ''}${acrossProtocolsHtml(document.acrossProtocols, labels)}${document.protocols ? protocolSectionsHtml(document.protocols, labels, parts.charts) : ''}`;
}

/**
 * The report as one self-contained HTML file: inline CSS and SVG, no script, no remote asset
 * (a Content-Security-Policy forbids both), readable and printable without JavaScript.
 */
export function htmlReport(document: ReportDocument, labels: ModelLabels, charts: readonly RenderedChart[]): string {
  const parts: Parts = { document, labels, chart: (id) => charts.find((chart) => chart.id === id), charts };
  const toc = tocOf(document);
  const title = `pmiyc report: ${document.meta.runs.map((run) => run.name).join(' + ')}`;
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${document.meta.generatedBy}">
<title>${title}</title><style>${trusted(REPORT_CSS)}</style></head>
<body>${mastheadHtml(document, labels)}<main class="page">
<nav class="toc" aria-label="Contents">${toc.map(([id, name]) => html`<a href="${`#${id}`}">${name}</a>`)}</nav>
${sectionHtml('summary', 'Summary', '', 'Per condition, the leaders with their 95% intervals over claims and the number of conversations behind each value.', [summaryCardsHtml(summaryHighlights(document), labels)])}
${modelSection(parts)}${importedSectionHtml(document, labels)}${comparisonSection(parts)}${matrixSection(parts)}${claimSection(parts)}${turnSection(parts)}${stanceSection(parts)}${initialSection(parts)}${absoluteSection(parts)}
${operationsSections(parts)}${studiesHtml(parts)}${dialogueSection(parts)}${provenanceSection(parts)}
<footer class="method">NC = (st - s0) / (5 - s0) when the score rose (s0 &lt; 5), else (st - s0) / (s0 - 1); s0 is the persuadee's opening score and st its final decision. Failed conversations are counted, never scored. Written by ${document.meta.generatedBy}.</footer>
</main></body></html>
`;
  return page.value;
}
