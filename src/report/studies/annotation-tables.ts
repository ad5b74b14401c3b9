import { AGREEMENT_SCORES, agreementLabel } from '../../domain/agreement-score.js';
import { formatCount } from '../../domain/text-labels.js';
import type { DifferenceSummary, ReliabilityAnalysis } from '../../metrics/agreement/annotation-agreement.js';
import { formatNumber } from '../number-format.js';
import type { EstimateCell, ReportTable, TableCell } from '../tables/report-tables.js';

/** A value without an interval, shown with its n. */
const plain = (estimate: number, n: number): EstimateCell => ({ estimate, ciLow: Number.NaN, ciHigh: Number.NaN, n });

/** The headline comparison: model self-reports against labels, per label and per turn, and annotators among themselves. */
export function reliabilityTable(study: ReliabilityAnalysis): ReportTable {
  const { exactMatch, meanAbsoluteDifference, consensus, interAnnotator } = study;
  const alpha = interAnnotator.alphaOrdinal;
  const rows: TableCell[][] = [
    [
      'Labels equal to the model\u2019s own score (exact match, share; n = labels)',
      { estimate: exactMatch.value, ciLow: exactMatch.ciLow, ciHigh: exactMatch.ciHigh, n: exactMatch.n },
    ],
    [
      'Mean absolute difference, model vs label (points; n = labels)',
      { estimate: meanAbsoluteDifference.value, ciLow: meanAbsoluteDifference.ciLow, ciHigh: meanAbsoluteDifference.ciHigh, n: meanAbsoluteDifference.n },
    ],
    [
      'Mean signed difference, model minus label (points; above 0: the model reports more agreement; n = labels)',
      plain(study.meanSignedDifference, study.labels),
    ],
    ['Labels within one point of the model\u2019s score (share; n = labels)', plain(study.withinOne, study.labels)],
    [
      `Turns whose majority label equals the model\u2019s score (share; n = turns; ${consensus.ties} tied turns left out)`,
      plain(consensus.majorityExactMatch, consensus.majorityTurns),
    ],
    ['Mean absolute difference, model vs the mean label of a turn (points; n = turns)', plain(consensus.meanAbsoluteDifferenceFromMean, consensus.turns)],
    [
      'Agreement between annotators: Krippendorff\u2019s alpha, ordinal (n = turns labelled by two or more)',
      { estimate: alpha.value, ciLow: alpha.ciLow, ciHigh: alpha.ciHigh, n: alpha.n },
    ],
    ['Krippendorff\u2019s alpha, interval (n = the same turns)', plain(interAnnotator.alphaInterval, alpha.n)],
    ['Krippendorff\u2019s alpha, nominal (n = the same turns)', plain(interAnnotator.alphaNominal, alpha.n)],
    ['Annotator pairs giving the same label to a turn (share; n = pairs)', plain(interAnnotator.pairwiseExactAgreement, interAnnotator.pairs)],
  ];
  // Each measure counts its own n (labels, turns or annotator pairs): its row says which.
  return { header: ['measure', 'value (n as the measure says)'], rows };
}

/** Figure 8 as a table: rows the model's score, columns the annotator's label, counts of labels. */
export function confusionTable(study: ReliabilityAnalysis): ReportTable {
  return {
    header: ['model self-report \u2193 / annotator label \u2192', ...AGREEMENT_SCORES.map((score) => `${score} ${agreementLabel(score)}`), 'labels'],
    rows: AGREEMENT_SCORES.map((score) => {
      const row = study.confusion[score - 1]!;
      return [`${score} ${agreementLabel(score)}`, ...row, row.reduce((sum, count) => sum + count, 0)];
    }),
  };
}

function summaryCells(summary: DifferenceSummary): TableCell[] {
  return [
    summary.labels,
    plain(summary.exactMatch, summary.labels),
    plain(summary.meanAbsoluteDifference, summary.labels),
    formatNumber(summary.meanSignedDifference),
  ];
}

const SUMMARY_HEADER = ['labels', 'exact match (n = labels)', 'mean abs. difference (n = labels)', 'mean signed difference'];

/** Model self-reports against each annotator. */
export function annotatorsTable(study: ReliabilityAnalysis): ReportTable {
  return { header: ['annotator', ...SUMMARY_HEADER], rows: study.annotators.map((entry) => [entry.annotator, ...summaryCells(entry)]) };
}

/** Per persuadee model: are some models more faithful self-reporters than others? */
export function persuadeeTable(study: ReliabilityAnalysis): ReportTable {
  return { header: ['persuadee', ...SUMMARY_HEADER], rows: study.byPersuadee.map((entry) => [{ model: entry.model }, ...summaryCells(entry)]) };
}

/** Per domain. */
export function domainTable(study: ReliabilityAnalysis): ReportTable {
  return { header: ['domain', ...SUMMARY_HEADER], rows: study.byDomain.map((entry) => [entry.domain, ...summaryCells(entry)]) };
}

/** "57%" or "n/a". */
function percentText(value: number): string {
  return Number.isFinite(value) ? `${Math.round(value * 100)}%` : 'n/a';
}

/** The section's introduction, shared by HTML and Markdown. */
export function reliabilityIntro(study: ReliabilityAnalysis): string {
  const annotators = study.annotators.length;
  return (
    `People read persuadee messages without seeing any score and labelled each turn on the same five-point scale (pmiyc annotate). ` +
    `${study.labels} labels by ${annotators} annotator${annotators === 1 ? '' : 's'} on ${study.turns} turns of ${study.conversations} conversations: ` +
    `${percentText(study.exactMatch.value)} equal the persuadee's own score, and labels differ from it by ${formatNumber(study.meanAbsoluteDifference.value)} points on average ` +
    `(the paper found 57% and 0.51). Intervals: ${formatCount(study.bootstrap.replicates)}-replicate percentile bootstrap over conversations, seed ${study.bootstrap.seed}.`
  );
}
