import { formatP } from '../../../domain/text-labels.js';
import type { ProtocolEstimateCell, ProtocolTable } from '../../../studies/protocol-outputs.js';
import type { SyconDefenceComparison, SyconEstimate, SyconMetrics, SyconScope } from '../sycon-metrics.js';

/**
 * The tables of SYCON's report section, from its metrics: Turn of Flip and Number of Flip per model, defence and
 * setting; the flip rate of each pressure turn; each defence against the baseline. Every figure is an estimate cell
 * whose n is the questions it rests on; the report renders the cells (and labels simulated models).
 */

export const cellOf = (estimate: SyconEstimate): ProtocolEstimateCell => ({
  estimate: estimate.value,
  ciLow: estimate.ciLow,
  ciHigh: estimate.ciHigh,
  n: estimate.questions,
  thin: estimate.thin,
});

const SCOPE_WORDS: Readonly<Record<SyconScope, string>> = { all: 'every question', debate: 'debate', 'false-presupposition': 'false presupposition' };

/** The cells a table shows: every scope of a run with both settings, only `all` otherwise (it is the one setting). */
function shownCells(metrics: SyconMetrics) {
  const settings = new Set(metrics.cells.filter((cell) => cell.scope !== 'all' && cell.conversations > 0).map((cell) => cell.scope));
  return metrics.cells.filter((cell) => (settings.size > 1 ? cell.conversations > 0 : cell.scope === 'all'));
}

export function flipTable(metrics: SyconMetrics): ProtocolTable {
  const replies = metrics.options.pressureTurns + 1;
  return {
    id: 'turn-of-flip',
    title: 'Turn of Flip and Number of Flip',
    note: `Turn of Flip: the replies that held the stance before the first that did not (0 to ${replies}; higher is steadier). Number of Flip: how often the replies changed between holding it and not (lower is steadier). Held throughout: every reply held it; stance taken: the first answer did. Means and shares over the conversations, n = questions; a conversation an unread label leaves a figure unknown for is in no mean.`,
    header: ['model', 'defence', 'questions', 'conversations', 'Turn of Flip', 'Number of Flip', 'held throughout', 'stance taken', 'Turn of Flip unknown'],
    rows: shownCells(metrics).map((cell) => [
      { model: cell.persuadee },
      cell.defence,
      SCOPE_WORDS[cell.scope],
      cell.conversations,
      cellOf(cell.turnOfFlip),
      cellOf(cell.numberOfFlip),
      cellOf(cell.heldThroughout),
      cellOf(cell.stanceTaken),
      cell.unknown.turnOfFlip,
    ]),
  };
}

export function flipRateTable(metrics: SyconMetrics): ProtocolTable {
  return {
    id: 'flip-rate-by-turn',
    title: 'Flip rate by pressure turn',
    note: 'Of the conversations whose replies had all held the stance before a pressure turn, the share whose reply on that turn gave it up; n = questions.',
    header: ['model', 'defence', 'questions', 'pressure turn', 'flip rate', 'flips', 'holding before'],
    rows: shownCells(metrics).flatMap((cell) =>
      cell.flipRateByTurn.map((rate) => [{ model: cell.persuadee }, cell.defence, SCOPE_WORDS[cell.scope], rate.turn, cellOf(rate), rate.flips, rate.count]),
    ),
  };
}

const MEASURE_WORDS = { turnOfFlip: 'Turn of Flip', numberOfFlip: 'Number of Flip' } as const;

export function defenceTable(comparisons: readonly SyconDefenceComparison[]): ProtocolTable {
  return {
    id: 'defences',
    title: 'Defences against the baseline, paired by question',
    note: "The defence's mean minus the baseline's, over the questions both were asked (n = those questions), with a t test over questions; p (Holm) is adjusted over the defences of one model, measure and set of questions. A positive Turn of Flip difference, or a negative Number of Flip one, is a steadier model under the defence.",
    header: ['model', 'questions', 'measure', 'defence', 'difference', 'p', 'p (Holm)'],
    rows: comparisons.map((comparison) => [
      { model: comparison.persuadee },
      SCOPE_WORDS[comparison.scope],
      MEASURE_WORDS[comparison.measure],
      comparison.defence,
      { estimate: comparison.difference, ciLow: comparison.ciLow, ciHigh: comparison.ciHigh, n: comparison.questions, thin: comparison.thin },
      formatP(comparison.p),
      formatP(comparison.pHolm),
    ]),
  };
}
