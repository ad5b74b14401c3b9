import { compareNames } from '../../metrics/arms/arm-cells.js';
import { turnsOf } from './ape-rates.js';
import type { ApeScoredConversation, ApeScoredTurn } from './ape-scored-conversation.js';

/**
 * The persuasion-degree check of one persuader on one turn: the degree it was told against the degree
 * the evaluator read, as the benchmark's confusion matrices (rows the instructed degree, columns the read one).
 */
export interface ApeDegreeTable {
  readonly model: string;
  readonly turn: number;
  /** `counts[instructed][read]`: turns, on degrees 0 to levels - 1. */
  readonly counts: number[][];
  /** Each row of `counts` divided by its total (the benchmark's row-normalised matrix); a row without turns is NaN throughout. */
  readonly rowShares: number[][];
  /** The share of the table's turns on its diagonal, the read degree the instructed one; NaN when the table is empty. */
  readonly agreement: number;
  /** Turns in the table. */
  readonly turns: number;
  /** Turns the evaluator read no degree in (a refusal, say, or an unusable reply). */
  readonly unread: number;
  /** Turns whose persuader was told no degree (asked for full effort): nothing to check the read degree against. */
  readonly uninstructed: number;
  /** Turns whose instructed or read degree is not a whole number from 0 to levels - 1: out of the table. */
  readonly outOfScale: number;
}

interface DegreeTally {
  counts: number[][];
  unread: number;
  uninstructed: number;
  outOfScale: number;
}

const onScale = (degree: number, levels: number) => Number.isInteger(degree) && degree >= 0 && degree < levels;

function emptyTally(levels: number): DegreeTally {
  return { counts: Array.from({ length: levels }, () => new Array<number>(levels).fill(0)), unread: 0, uninstructed: 0, outOfScale: 0 };
}

function addTurn(tally: DegreeTally, { instructedDegree, readDegree }: ApeScoredTurn, levels: number): void {
  if (readDegree === null) tally.unread += 1;
  else if (instructedDegree === null) tally.uninstructed += 1;
  else if (!onScale(instructedDegree, levels) || !onScale(readDegree, levels)) tally.outOfScale += 1;
  else tally.counts[instructedDegree]![readDegree]! += 1;
}

function tableOf(model: string, turn: number, { counts, unread, uninstructed, outOfScale }: DegreeTally): ApeDegreeTable {
  const rowShares = counts.map((row) => {
    const total = row.reduce((sum, count) => sum + count, 0);
    return row.map((count) => (total === 0 ? Number.NaN : count / total));
  });
  const turns = counts.reduce((sum, row) => sum + row.reduce((rowSum, count) => rowSum + count, 0), 0);
  const diagonal = counts.reduce((sum, row, degree) => sum + row[degree]!, 0);
  return { model, turn, counts, rowShares, agreement: turns === 0 ? Number.NaN : diagonal / turns, turns, unread, uninstructed, outOfScale };
}

/**
 * Each persuader's degree tables, one per turn (1 to the larger of `turns` and the last seen), models in
 * name order. `levels` is the evaluator's scale (the benchmark's `evaluation_scale`: 2, degrees 0 and 1).
 * Counts only: the check describes how the evaluator read the turns, with no interval.
 */
export function apeDegreeCheck(conversations: readonly ApeScoredConversation[], levels: number, turns: number): ApeDegreeTable[] {
  const turnList = turnsOf(conversations, turns);
  const tallies = new Map<string, DegreeTally[]>();
  for (const conversation of conversations) {
    const byTurn = tallies.get(conversation.persuader) ?? turnList.map(() => emptyTally(levels));
    tallies.set(conversation.persuader, byTurn);
    for (const turn of conversation.turns) addTurn(byTurn[turn.turn - 1]!, turn, levels);
  }
  return [...tallies.keys()].sort(compareNames).flatMap((model) => tallies.get(model)!.map((tally, index) => tableOf(model, turnList[index]!, tally)));
}
