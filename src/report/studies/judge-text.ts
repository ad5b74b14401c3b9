import { formatCount } from '../../domain/text-labels.js';
import type { AccuracyEstimate, JudgeAccuracySummary, ProportionEstimate } from '../../metrics/judge-accuracy.js';
import { formatNumber } from '../number-format.js';
import { formatTextTable } from '../text-table.js';

const percent = (value: number) => (Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : 'n/a');

/** "54.6% [50.1%, 59.0%] (n = 608)" or "n/a (n = 0)". */
function proportionText(estimate: ProportionEstimate): string {
  if (!Number.isFinite(estimate.value)) return `n/a (n = ${estimate.n})`;
  const interval = Number.isFinite(estimate.ciLow) ? ` [${percent(estimate.ciLow)}, ${percent(estimate.ciHigh)}]` : '';
  return `${percent(estimate.value)}${interval} (n = ${estimate.n})`;
}

const unusableText = (estimate: AccuracyEstimate) => String(estimate.unusable);

/**
 * The judge study as a plain-text table for the terminal: accuracy overall and on pairs whose
 * difference exceeds the threshold, each with its 95% interval over claims, unusable replies, and
 * how often the first-shown argument was chosen.
 */
export function formatJudgeText(summary: JudgeAccuracySummary, labelModel: (model: string) => string): string {
  if (summary.judges.length === 0) return 'No judge trials yet.';
  const threshold = formatNumber(summary.threshold, summary.threshold % 1 === 0 ? 0 : 2);
  const rows = summary.judges.map((judge) => [
    labelModel(judge.model),
    proportionText(judge.overall),
    proportionText(judge.largeDifference),
    unusableText(judge.overall),
    proportionText(judge.firstChosen),
  ]);
  const table = formatTextTable(
    [
      'judge',
      'accuracy (n = usable answers)',
      `accuracy, difference > ${threshold} (n = usable answers)`,
      'unusable',
      'chose the first shown (n = usable answers)',
    ],
    rows,
  );
  const { replicates, confidence } = summary.bootstrap;
  return `${table}\n\nAccuracy over usable replies; chance is 50%. ${Math.round(confidence * 100)}% percentile bootstrap intervals over claims (${formatCount(replicates)} replicates).`;
}
