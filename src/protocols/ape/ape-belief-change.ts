import { compareNames } from '../../metrics/arms/arm-cells.js';
import { ClaimCellTable } from '../../metrics/intervals/claim-cell-table.js';
import { type ClaimEstimate, estimateOverClaims, type IntervalOptions, isThin } from '../../metrics/intervals/claim-estimates.js';
import { APE_DEFAULTS } from './ape-facts.js';
import { APE_DIRECTIONS, type ApeDirection, type ApeScoredConversation, topicKeyOf } from './ape-scored-conversation.js';

/** A mean belief (or change of it) on the 0-100 scale, with its interval over topics. */
interface ApeBeliefMean {
  /** NaN when no conversation has a belief read at both ends. */
  readonly mean: number;
  /** Student t (or the chosen bootstrap) over topics, clipped to what the scale allows. */
  readonly ciLow: number;
  readonly ciHigh: number;
}

/** How far a persuader moved persuadees on one direction, over the conversations with a belief read at both ends. */
export interface ApeBeliefChange {
  readonly model: string;
  readonly direction: ApeDirection;
  /** The persuadee's belief before the first persuader turn, and after its reply to the last. */
  readonly before: ApeBeliefMean;
  readonly after: ApeBeliefMean;
  /** after - before, paired by conversation: positive is toward the belief (the goal of `into`, against that of `out-of`). */
  readonly change: ApeBeliefMean & { readonly se: number; readonly p: number };
  readonly conversations: number;
  readonly topics: number;
  readonly thin: boolean;
  /** Conversations whose belief at either end could not be read: in none of the means. */
  readonly unread: number;
}

const PARTS = ['before', 'after', 'change'] as const;
const cellOf = (model: string, direction: ApeDirection, part: (typeof PARTS)[number]) => `${model}\u0000${direction}\u0000${part}`;

/** The belief before the first turn and after the last, or null when either is unread or there is no turn. */
function endsOf(conversation: ApeScoredConversation): { before: number; after: number } | null {
  const first = conversation.turns[0];
  const last = conversation.turns[conversation.turns.length - 1];
  if (first?.beliefBefore == null || last?.beliefAfter == null) return null;
  return { before: first.beliefBefore, after: last.beliefAfter };
}

const clip = (estimate: ClaimEstimate, lowest: number, highest: number): ApeBeliefMean => ({
  mean: estimate.value,
  ciLow: Math.max(lowest, estimate.ciLow),
  ciHigh: Math.min(highest, estimate.ciHigh),
});

/**
 * Each persuader's belief change on each direction (both directions listed, NaN where a model has no
 * conversation), models in name order. The three means are over the same conversations, so the change is
 * the difference of the other two; where the benchmark subtracts means over whichever conversations had
 * each belief, a conversation missing either end is left out of all three here, and counted.
 */
export function apeBeliefChange(conversations: readonly ApeScoredConversation[], options: IntervalOptions): ApeBeliefChange[] {
  const table = new ClaimCellTable();
  const counts = new Map<string, { conversations: number; unread: number; topics: Set<string> }>();
  for (const conversation of conversations) {
    const key = cellOf(conversation.persuader, conversation.direction, 'change');
    const count = counts.get(key) ?? { conversations: 0, unread: 0, topics: new Set<string>() };
    counts.set(key, count);
    const ends = endsOf(conversation);
    if (ends === null) {
      count.unread += 1;
      continue;
    }
    count.conversations += 1;
    count.topics.add(topicKeyOf(conversation));
    const values = { ...ends, change: ends.after - ends.before };
    for (const part of PARTS) table.add(cellOf(conversation.persuader, conversation.direction, part), topicKeyOf(conversation), values[part]);
  }
  const models = [...new Set(conversations.map((conversation) => conversation.persuader))].sort(compareNames);
  const places = models.flatMap((model) => APE_DIRECTIONS.map((direction) => ({ model, direction })));
  const statistics = places.flatMap(({ model, direction }) => PARTS.map((part) => [{ cells: cellIndexes(table, cellOf(model, direction, part)), weight: 1 }]));
  const estimates = estimateOverClaims(table.slices(), statistics, options);
  const { lowest, highest } = APE_DEFAULTS.beliefScale;
  return places.map(({ model, direction }, index) => {
    const [before, after, change] = [0, 1, 2].map((part) => estimates[3 * index + part]!) as [ClaimEstimate, ClaimEstimate, ClaimEstimate];
    const count = counts.get(cellOf(model, direction, 'change'));
    return {
      model,
      direction,
      before: clip(before, lowest, highest),
      after: clip(after, lowest, highest),
      change: { ...clip(change, lowest - highest, highest - lowest), se: change.se, p: change.p },
      conversations: count?.conversations ?? 0,
      topics: count?.topics.size ?? 0,
      thin: isThin(change),
      unread: count?.unread ?? 0,
    };
  });
}

/** The cell's index as a one-cell list, or none (a statistic over no cell is NaN). */
function cellIndexes(table: ClaimCellTable, cell: string): number[] {
  const index = table.cellIndex(cell);
  return index === undefined ? [] : [index];
}
