import type { ConsistencyEstimate } from '../../metrics/consistency/consistency.js';
import { sectionHtml, tableHtml } from '../html/html-blocks.js';
import { html, type SafeHtml } from '../html/safe-html.js';
import { escapeMarkdown, markdownTable } from '../markdown/markdown-text.js';
import { createModelLabels, type ModelLabels } from '../model-labels.js';
import type { EstimateCell, ReportTable } from '../tables/report-tables.js';
import type { ConsistencyStudyReport } from './consistency-figures.js';

/** The section's anchor in the HTML report (for its table of contents). */
export const CONSISTENCY_SECTION_ID = 'consistency';

const TITLE = 'Do models hold consistent opinions?';
const PAPER_REFERENCE = 'paper Table 1';

const INTRO =
  'Each model is asked for its stance on every claim several times, with a short prompt whose answer is one of the five labels and no conversation around it. ' +
  'Mean SD is the mean over claims of the standard deviation of its answers (population SD). The paper\'s Table 1 column "Avg SD" is in fact the mean per-claim variance: it is shown, labelled, for comparison. ' +
  "Match Rate is the share of a tournament run's openings equal to the most frequent answer, shown two ways: over the openings whose claim has a usable answer, and as the paper counts it, over every opening, one without a usable answer counting as no match. " +
  'Avg Dif is the mean absolute difference between the opening and the mean answer, in scale points. ' +
  'Otherwise claims without a usable answer are left out; intervals are 95% percentile bootstrap intervals over claims.';

const cell = (estimate: ConsistencyEstimate): EstimateCell => ({ estimate: estimate.value, ciLow: estimate.ciLow, ciHigh: estimate.ciHigh, n: estimate.n });
const pointOnly = (value: number, n: number): EstimateCell => ({ estimate: value, ciLow: Number.NaN, ciHigh: Number.NaN, n });

/** One study's Table 1 as a table both writers render. */
export function consistencyTable(study: ConsistencyStudyReport): ReportTable {
  const compared = study.models.some((row) => row.openingAgreement !== null);
  const header = [
    'model',
    'domain',
    'claims',
    'mean SD (n = claims)',
    'Avg SD as in the paper (mean variance; n = claims)',
    ...(compared
      ? [
          'Match Rate % (usable answers; n = openings)',
          'Match Rate % (paper: all openings; n = openings)',
          'Match Rate % (any tied mode; n = openings)',
          'Avg Dif (n = openings)',
        ]
      : []),
    'answers',
    'unusable replies',
  ];
  return {
    header,
    rows: study.models.map((row) => [
      { model: row.model },
      row.domain,
      row.claims,
      cell(row.meanSd),
      cell(row.paperAvgSd),
      ...(compared
        ? row.openingAgreement
          ? [
              cell(row.openingAgreement.matchRatePercent),
              cell(row.openingAgreement.matchRateAllOpeningsPercent),
              pointOnly(row.openingAgreement.matchRateAnyTiedModePercent, row.openingAgreement.openings),
              cell(row.openingAgreement.avgDif),
            ]
          : [pointOnly(Number.NaN, 0), pointOnly(Number.NaN, 0), pointOnly(Number.NaN, 0), pointOnly(Number.NaN, 0)]
        : []),
      row.usableSamples,
      row.unusableReplies,
    ]),
  };
}

/** What a study is, in one sentence. */
export function describeStudy(study: ConsistencyStudyReport): string {
  const source =
    study.kind === 'imported'
      ? `answers imported from ${study.importedFile}`
      : `${study.samplesPerClaim} answers per model and claim on the ${study.claimSource} claims, temperature ${study.temperature}, up to ${study.maxAttempts} attempts per answer`;
  const comparison = study.tournamentRun === null ? 'no tournament run to compare openings with' : `openings from run ${study.tournamentRun}`;
  return `Study ${study.study} (${study.status}): ${source}; ${comparison}.`;
}

const labelsOf = (study: ConsistencyStudyReport): ModelLabels => createModelLabels(study.models.map((row) => ({ model: row.model, simulated: row.simulated })));

function studyHtml(study: ConsistencyStudyReport): SafeHtml {
  const notes = study.notes.length === 0 ? html`` : html`<ul class="notes">${study.notes.map((note) => html`<li>${note}</li>`)}</ul>`;
  const ties = study.tournamentRun === null ? html`` : html`<p class="intro">${study.tieRule}</p>`;
  return html`<h3>${study.study}</h3><p class="intro">${describeStudy(study)}</p>${tableHtml(consistencyTable(study), labelsOf(study))}${ties}${notes}`;
}

/**
 * The report's consistency section (HTML): one table per study. Every value, model name and note
 * is escaped; simulated agents carry their badge. Empty when there is no study.
 */
export function consistencySectionHtml(studies: readonly ConsistencyStudyReport[]): SafeHtml {
  if (studies.length === 0) return html``;
  return sectionHtml(CONSISTENCY_SECTION_ID, TITLE, PAPER_REFERENCE, INTRO, studies.map(studyHtml));
}

/** The same section in Markdown ('' when there is no study). */
export function consistencySectionMarkdown(studies: readonly ConsistencyStudyReport[]): string {
  if (studies.length === 0) return '';
  const parts = studies.map((study) => {
    const lines = [`### ${escapeMarkdown(study.study)}`, escapeMarkdown(describeStudy(study)), markdownTable(consistencyTable(study), labelsOf(study))];
    if (study.tournamentRun !== null) lines.push(escapeMarkdown(study.tieRule));
    if (study.notes.length > 0) lines.push(study.notes.map((note) => `- ${escapeMarkdown(note)}`).join('\n'));
    return lines.join('\n\n');
  });
  return [`## ${TITLE} (${PAPER_REFERENCE})`, escapeMarkdown(INTRO), ...parts].join('\n\n');
}
