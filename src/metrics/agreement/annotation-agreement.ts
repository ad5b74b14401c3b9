import type { AgreementScore } from '../../domain/agreement-score.js';
import type { Domain } from '../../domain/claim.js';
import type { BootstrapOptions, WithInterval } from '../intervals/claim-cell-table.js';
import { bootstrapGroups } from '../intervals/group-bootstrap.js';
import type { AnnotationRow } from './annotation-row.js';
import { annotatorAgreement, type InterAnnotatorAgreement } from './annotator-agreement.js';

export type { AnnotationRow } from './annotation-row.js';
export type { InterAnnotatorAgreement } from './annotator-agreement.js';

/** A rate or mean with its percentile bootstrap interval and n (labels or turns). */
export interface AgreementEstimate extends WithInterval {
  readonly value: number;
  readonly n: number;
}

/** How model self-reports and human labels compare over some labels; NaN when there are none. */
export interface DifferenceSummary {
  readonly labels: number;
  /** Share of labels equal to the model's score (0..1). */
  readonly exactMatch: number;
  /** Mean |model - annotator| in scale points. */
  readonly meanAbsoluteDifference: number;
  /** Mean (model - annotator): above 0 the models report more agreement than annotators read. */
  readonly meanSignedDifference: number;
  /** Share of labels at most one point from the model's score. */
  readonly withinOne: number;
}

/** Model self-reports against the majority label and the mean label of the annotators of each turn. */
export interface ConsensusComparison {
  readonly turns: number;
  /** Turns with a single most frequent label (a one-annotator turn counts: its label is the majority). */
  readonly majorityTurns: number;
  /** Turns whose annotators tie for the most frequent label: left out of the majority match. */
  readonly ties: number;
  readonly majorityExactMatch: number;
  /** Mean over turns of |model - mean of the turn's labels|. */
  readonly meanAbsoluteDifferenceFromMean: number;
}

/** Self-report reliability (paper Sec. 5.2, App. C): `studies.reliability` of report.json. */
export interface ReliabilityAnalysis {
  readonly labels: number;
  readonly turns: number;
  readonly conversations: number;
  /** Per label; interval from a bootstrap over conversations. */
  readonly exactMatch: AgreementEstimate;
  readonly meanAbsoluteDifference: AgreementEstimate;
  readonly meanSignedDifference: number;
  readonly withinOne: number;
  readonly consensus: ConsensusComparison;
  /** Figure 8: `confusion[model - 1][annotator - 1]` counts labels. */
  readonly confusion: number[][];
  readonly interAnnotator: InterAnnotatorAgreement;
  readonly annotators: ReadonlyArray<{ readonly annotator: string } & DifferenceSummary>;
  readonly byPersuadee: ReadonlyArray<{ readonly model: string } & DifferenceSummary>;
  readonly byDomain: ReadonlyArray<{ readonly domain: Domain } & DifferenceSummary>;
  readonly bootstrap: BootstrapOptions & { readonly unit: 'conversation' };
}

/** Compares labels with model scores; NaN fields when `rows` is empty. */
export function summarizeDifferences(rows: readonly AnnotationRow[]): DifferenceSummary {
  let matches = 0;
  let absolute = 0;
  let signed = 0;
  let withinOne = 0;
  for (const row of rows) {
    const difference = row.modelScore - row.score;
    if (difference === 0) matches += 1;
    if (Math.abs(difference) <= 1) withinOne += 1;
    absolute += Math.abs(difference);
    signed += difference;
  }
  const n = rows.length;
  return { labels: n, exactMatch: matches / n, meanAbsoluteDifference: absolute / n, meanSignedDifference: signed / n, withinOne: withinOne / n };
}

/** The 5 x 5 counts of (model score, annotator label). */
export function confusionMatrix(rows: readonly AnnotationRow[]): number[][] {
  const matrix = Array.from({ length: 5 }, () => [0, 0, 0, 0, 0]);
  for (const row of rows) matrix[row.modelScore - 1]![row.score - 1]! += 1;
  return matrix;
}

/** Rows grouped by a key, groups in order of first appearance. */
function groupRows<K>(rows: readonly AnnotationRow[], key: (row: AnnotationRow) => K): Map<K, AnnotationRow[]> {
  const groups = new Map<K, AnnotationRow[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/** The unit of agreement: one persuadee turn. */
const turnKey = (row: AnnotationRow) => `${row.conversationId}\u0000${row.turnIndex}`;

/** The most frequent label of a turn, or undefined on a tie. */
function majorityLabel(labels: readonly AgreementScore[]): AgreementScore | undefined {
  const counts = [0, 0, 0, 0, 0, 0];
  for (const label of labels) counts[label]! += 1;
  const most = Math.max(...counts);
  const winners = counts.flatMap((count, score) => (count === most ? [score as AgreementScore] : []));
  return winners.length === 1 ? winners[0] : undefined;
}

function compareWithConsensus(turns: ReadonlyMap<string, AnnotationRow[]>): ConsensusComparison {
  let majorityTurns = 0;
  let majorityMatches = 0;
  let fromMean = 0;
  for (const rows of turns.values()) {
    const modelScore = rows[0]!.modelScore;
    const majority = majorityLabel(rows.map((row) => row.score));
    if (majority !== undefined) {
      majorityTurns += 1;
      if (majority === modelScore) majorityMatches += 1;
    }
    fromMean += Math.abs(modelScore - rows.reduce((sum, row) => sum + row.score, 0) / rows.length);
  }
  return {
    turns: turns.size,
    majorityTurns,
    ties: turns.size - majorityTurns,
    majorityExactMatch: majorityMatches / majorityTurns,
    meanAbsoluteDifferenceFromMean: fromMean / turns.size,
  };
}

/** Exact-match rate and mean absolute difference per label, with intervals from resampling conversations. */
function perLabelEstimates(
  conversations: readonly AnnotationRow[][],
  options: BootstrapOptions,
): { exactMatch: AgreementEstimate; meanAbsoluteDifference: AgreementEstimate } {
  const labels = Float64Array.from(conversations, (rows) => rows.length);
  const matches = Float64Array.from(conversations, (rows) => rows.filter((row) => row.score === row.modelScore).length);
  const absolute = Float64Array.from(conversations, (rows) => rows.reduce((sum, row) => sum + Math.abs(row.modelScore - row.score), 0));
  const ratio = (numerator: Float64Array) => (draw: Int32Array) => {
    let top = 0;
    let bottom = 0;
    for (const group of draw) {
      top += numerator[group]!;
      bottom += labels[group]!;
    }
    return top / bottom;
  };
  const [matchInterval, absoluteInterval] = bootstrapGroups(conversations.length, [ratio(matches), ratio(absolute)], options);
  const all = conversations.flat();
  const point = summarizeDifferences(all);
  return {
    exactMatch: { value: point.exactMatch, n: all.length, ...matchInterval! },
    meanAbsoluteDifference: { value: point.meanAbsoluteDifference, n: all.length, ...absoluteInterval! },
  };
}

function summariesBy<K>(rows: readonly AnnotationRow[], key: (row: AnnotationRow) => K): Array<[K, DifferenceSummary]> {
  return [...groupRows(rows, key)].sort(([a], [b]) => String(a).localeCompare(String(b))).map(([name, group]) => [name, summarizeDifferences(group)]);
}

/**
 * Self-report reliability from human labels: per label (exact match, mean absolute and signed
 * difference, within one point, the 5 x 5 confusion matrix), per turn against the annotators'
 * majority and mean, agreement among annotators (Krippendorff's alpha), and breakdowns by
 * annotator, persuadee model and domain. Intervals resample conversations, the unit the labels
 * cluster in. Pure; rows in any order give the same result.
 */
export function analyzeReliability(rows: readonly AnnotationRow[], options: BootstrapOptions): ReliabilityAnalysis {
  const ordered = [...rows].sort(
    (a, b) => a.conversationId.localeCompare(b.conversationId) || a.turnIndex - b.turnIndex || a.annotator.localeCompare(b.annotator),
  );
  const conversations = [...groupRows(ordered, (row) => row.conversationId).values()];
  const turns = groupRows(ordered, turnKey);
  const whole = summarizeDifferences(ordered);
  return {
    labels: ordered.length,
    turns: turns.size,
    conversations: conversations.length,
    ...perLabelEstimates(conversations, options),
    meanSignedDifference: whole.meanSignedDifference,
    withinOne: whole.withinOne,
    consensus: compareWithConsensus(turns),
    confusion: confusionMatrix(ordered),
    interAnnotator: annotatorAgreement(conversations, options),
    annotators: summariesBy(ordered, (row) => row.annotator).map(([annotator, summary]) => ({ annotator, ...summary })),
    byPersuadee: summariesBy(ordered, (row) => row.persuadee).map(([model, summary]) => ({ model, ...summary })),
    byDomain: summariesBy(ordered, (row) => row.domain).map(([domain, summary]) => ({ domain, ...summary })),
    bootstrap: { ...options, unit: 'conversation' },
  };
}
