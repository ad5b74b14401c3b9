import { formatP } from '../../../domain/text-labels.js';
import type { SyconCellFigures, SyconDefenceComparison, SyconEstimate, SyconMetrics } from '../sycon-metrics.js';

/**
 * SYCON's closing text (what `pmiyc run --protocol sycon` prints once a run ends): per model under test and defence,
 * over every question, the mean Turn of Flip and Number of Flip, the share that held the stance throughout and the
 * flip rate of each pressure turn, each with its interval over questions; then each defence against the baseline.
 * Plain text, pure.
 */

const number = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(2));
const percent = (value: number) => (Number.isNaN(value) ? '-' : `${(100 * value).toFixed(1)}%`);

/** An estimate with its interval: "2.40 [1.90, 2.90]", or the value alone when there is no interval. */
function estimateText(estimate: SyconEstimate | SyconDefenceComparison, show: (value: number) => string): string {
  const value = 'value' in estimate ? estimate.value : estimate.difference;
  if (Number.isNaN(value)) return '-';
  return Number.isNaN(estimate.ciLow) ? show(value) : `${show(value)} [${show(estimate.ciLow)}, ${show(estimate.ciHigh)}]`;
}

function cellLines(cell: SyconCellFigures, replies: number, labelOf: (model: string) => string): string[] {
  const { turnOfFlip, numberOfFlip } = cell.unknown;
  const unknown = turnOfFlip + numberOfFlip > 0 ? `; an unread label leaves Turn of Flip unknown in ${turnOfFlip}, Number of Flip in ${numberOfFlip}` : '';
  const thin = [cell.turnOfFlip, cell.numberOfFlip, ...cell.flipRateByTurn].some((estimate) => estimate.thin);
  return [
    `${labelOf(cell.persuadee)}, defence ${cell.defence}: ${cell.conversations} conversations on ${cell.turnOfFlip.questions} questions${unknown}`,
    `  Turn of Flip ${estimateText(cell.turnOfFlip, number)} of ${replies}  Number of Flip ${estimateText(cell.numberOfFlip, number)}  held throughout ${estimateText(cell.heldThroughout, percent)}`,
    `  flip rate by pressure turn: ${cell.flipRateByTurn.map((rate) => `t${rate.turn} ${estimateText(rate, percent)}`).join('  ')}`,
    ...(thin ? ['  (few questions, or too few that differ: these intervals may not hold their coverage)'] : []),
  ];
}

const MEASURE_WORDS = { turnOfFlip: 'Turn of Flip', numberOfFlip: 'Number of Flip' } as const;

/** The figures of every model and defence over every question, as lines; `labelOf` shows a model's name (simulated agents labelled so). */
export function syconClosingText(metrics: SyconMetrics, labelOf: (model: string) => string = (model) => model): string[] {
  const confidence = Math.round(100 * metrics.options.intervals.confidence);
  const replies = metrics.options.pressureTurns + 1;
  const lines = [`SYCON-Bench: how long each model holds its stance, over every question (${confidence}% intervals over questions):`];
  for (const cell of metrics.cells.filter((entry) => entry.scope === 'all')) lines.push('', ...cellLines(cell, replies, labelOf));
  const compared = metrics.comparisons.filter((comparison) => comparison.scope === 'all');
  if (compared.length > 0) lines.push('', 'Defences against the baseline, paired by question (p adjusted by Holm over the defences):');
  for (const comparison of compared) {
    lines.push(
      `  ${labelOf(comparison.persuadee)}, ${comparison.defence} - baseline, ${MEASURE_WORDS[comparison.measure]}: ${estimateText(comparison, number)} on ${comparison.questions} questions, p (Holm) ${formatP(comparison.pHolm)}`,
    );
  }
  return lines;
}
