import { compareNames } from '../../metrics/arms/arm-cells.js';
import { ClaimCellTable } from '../../metrics/intervals/claim-cell-table.js';
import { type IntervalOptions, isThin } from '../../metrics/intervals/claim-estimates.js';
import { holmAdjust } from '../../metrics/intervals/holm.js';
import { pairedDifferences } from '../../metrics/pair-estimates.js';
import type { LpbEstimate, LpbShiftCell } from './lpb-shift-estimates.js';

/**
 * What the benchmark's leaderboards do not give (docs/design/llm-persuasion-benchmark.md, "Comparisons"): every two
 * models of a role compared on the cells both faced, paired by proposition, with Holm's adjustment over the pairs
 * of the role; and which adjacent ranks of a leaderboard those tests separate.
 */

/** The two leaderboards: persuaders by the shift they cause, targets by the shift they undergo. */
export type LpbRole = 'persuader' | 'target';

/** Two models of a role on the cells both faced: the same proposition, side and counterpart (neither of the two). */
export interface LpbComparison {
  readonly role: LpbRole;
  readonly first: string;
  readonly second: string;
  /** first's mean shift minus second's over the matched cells. */
  readonly difference: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  readonly se: number;
  /** Matched pairs of cells. */
  readonly cells: number;
  /** Propositions the matched cells are on: the clusters of the test. */
  readonly propositions: number;
  readonly thin: boolean;
  readonly p: number;
  /** Holm-adjusted over every pair of the role. */
  readonly pHolm: number;
}

/** One step of a leaderboard: rank `rank` against rank `rank + 1`, by their paired comparison. */
export interface LpbRankStep {
  readonly role: LpbRole;
  readonly rank: number;
  readonly higher: string;
  readonly lower: string;
  readonly comparison: LpbComparison;
  /** Holm-adjusted p below 1 - confidence. */
  readonly separable: boolean;
}

const counterpartOf = (cell: LpbShiftCell, role: LpbRole) => (role === 'persuader' ? cell.target : cell.persuader);
const modelOf = (cell: LpbShiftCell, role: LpbRole) => (role === 'persuader' ? cell.persuader : cell.target);

/** Each model's shifts by what a cell is apart from the model: proposition, side and counterpart. */
function shiftsByPlace(cells: readonly LpbShiftCell[], role: LpbRole): Map<string, Map<string, { shift: number; counterpart: string; proposition: string }>> {
  const byModel = new Map<string, Map<string, { shift: number; counterpart: string; proposition: string }>>();
  for (const cell of cells) {
    const model = modelOf(cell, role);
    const places = byModel.get(model) ?? new Map();
    byModel.set(model, places);
    const counterpart = counterpartOf(cell, role);
    places.set(`${cell.proposition}\u0000${cell.side}\u0000${counterpart}`, { shift: cell.shift, counterpart, proposition: cell.proposition });
  }
  return byModel;
}

/** Every two models of the role (in name order), compared over the cells both faced, with Holm over the pairs. */
export function compareLpbModels(cells: readonly LpbShiftCell[], role: LpbRole, options: IntervalOptions): LpbComparison[] {
  const byModel = shiftsByPlace(cells, role);
  const models = [...byModel.keys()].sort(compareNames);
  const pairs = models.flatMap((first, at) => models.slice(at + 1).map((second) => [first, second] as const));
  const table = new ClaimCellTable();
  const matched = pairs.map(([first, second]) => {
    const theirs = byModel.get(second)!;
    let count = 0;
    for (const [place, mine] of byModel.get(first)!) {
      const other = theirs.get(place);
      if (other === undefined || mine.counterpart === second) continue;
      table.add(`${first}\u0000${second}\u00001`, mine.proposition, mine.shift);
      table.add(`${first}\u0000${second}\u00002`, mine.proposition, other.shift);
      count += 1;
    }
    return count;
  });
  const cellOf = (first: string, second: string, side: 1 | 2) => table.cellIndex(`${first}\u0000${second}\u0000${side}`);
  const present = pairs.flatMap(([first, second], at) => {
    const [one, two] = [cellOf(first, second, 1), cellOf(first, second, 2)];
    return one === undefined || two === undefined ? [] : [{ first, second, cells: [one, two] as const, matched: matched[at]! }];
  });
  const paired = pairedDifferences(
    table.slices(),
    present.map(({ cells: [one, two] }) => [[one], [two]] as const),
    options,
  );
  const adjusted = holmAdjust(paired.map(({ estimate }) => estimate.p));
  return present.map(({ first, second, matched: count }, at) => {
    const { estimate } = paired[at]!;
    return {
      role,
      first,
      second,
      difference: estimate.value,
      ciLow: estimate.ciLow,
      ciHigh: estimate.ciHigh,
      se: estimate.se,
      cells: count,
      propositions: estimate.claims,
      thin: isThin(estimate),
      p: estimate.p,
      pHolm: adjusted[at]!,
    };
  });
}

/** A leaderboard's order: mean shift from highest, then name. */
export function rankedModels(means: ReadonlyMap<string, LpbEstimate>): string[] {
  return [...means.entries()].sort(([a, left], [b, right]) => right.mean - left.mean || compareNames(a, b)).map(([model]) => model);
}

/** The comparison of two models, signed as `higher` minus `lower`. */
function orientedComparison(comparisons: readonly LpbComparison[], higher: string, lower: string): LpbComparison | undefined {
  const found = comparisons.find((entry) => (entry.first === higher && entry.second === lower) || (entry.first === lower && entry.second === higher));
  if (found === undefined || found.first === higher) return found;
  return { ...found, first: higher, second: lower, difference: -found.difference, ciLow: -found.ciHigh, ciHigh: -found.ciLow };
}

/** Each adjacent step of a leaderboard with its paired test, and whether the test separates the two ranks. */
export function rankSteps(ranked: readonly string[], comparisons: readonly LpbComparison[], role: LpbRole, confidence: number): LpbRankStep[] {
  return ranked.slice(0, -1).flatMap((higher, at) => {
    const lower = ranked[at + 1]!;
    const comparison = orientedComparison(comparisons, higher, lower);
    return comparison === undefined ? [] : [{ role, rank: at + 1, higher, lower, comparison, separable: comparison.pHolm < 1 - confidence }];
  });
}

/** The leaderboard cut into tiers at its separable steps: the ranks within a tier cannot be told apart. */
export function rankTiers(ranked: readonly string[], steps: readonly LpbRankStep[]): string[][] {
  const tiers: string[][] = [];
  let current: string[] = [];
  for (const [at, model] of ranked.entries()) {
    current.push(model);
    if (steps.find((step) => step.rank === at + 1)?.separable !== false) {
      tiers.push(current);
      current = [];
    }
  }
  if (current.length > 0) tiers.push(current);
  return tiers;
}
