import { type CellStatistic, estimateOverClaims } from '../intervals/claim-estimates.js';
import { type GroupArms, sharedSlices } from './arm-cells.js';

/** One ordered pair in both arms: its mean NC over the claims both hold (over its own claims where it is in one arm only). */
export interface ArmPairComparison {
  readonly group: string;
  readonly persuader: string;
  readonly persuadee: string;
  readonly first: number | null;
  readonly second: number | null;
  readonly difference: number | null;
  /** Claims both arms hold for the pair. */
  readonly claims: number;
  /** The pair's conversations in each arm, on every claim. */
  readonly firstCount: number;
  readonly secondCount: number;
}

/** Each pair of a group in both arms: its mean NC over the claims both hold, or its own mean where it has no partner cell. */
export function comparePairs(group: string, entry: GroupArms): ArmPairComparison[] {
  const matches = entry.matches();
  const { shared, sharedSlots } = sharedSlices(entry);
  const paired = matches.filter(([first]) => sharedSlots[first]! > 0);
  const estimates = estimateOverClaims(
    shared,
    paired.flatMap(([first, second]): CellStatistic[] => [[{ cells: [first], weight: 1 }], [{ cells: [second], weight: 1 }]]),
    { method: 't', replicates: 0, confidence: 0.95, seed: 0 },
  );
  const onShared = new Map(paired.map(([first], position) => [first, { first: estimates[2 * position]!, second: estimates[2 * position + 1]! }]));
  const counterpart = new Map(matches);
  const matchedSecond = new Set(matches.map(([, second]) => second));
  const means = entry.table.cellMeans();
  return entry.cells.flatMap((cell, index): ArmPairComparison[] => {
    if (cell.arm === 1 && matchedSecond.has(index)) return [];
    const other = counterpart.get(index);
    const counts =
      cell.arm === 1
        ? { firstCount: 0, secondCount: means[index]!.n }
        : { firstCount: means[index]!.n, secondCount: other === undefined ? 0 : means[other]!.n };
    const where = { group, persuader: cell.persuader, persuadee: cell.persuadee, ...counts };
    const both = onShared.get(index);
    if (both)
      return [{ ...where, first: both.first.value, second: both.second.value, difference: both.second.value - both.first.value, claims: both.first.claims }];
    const value = means[index]!.mean;
    if (cell.arm === 1) return [{ ...where, first: null, second: value, difference: null, claims: 0 }];
    return [{ ...where, first: value, second: other === undefined ? null : means[other]!.mean, difference: null, claims: 0 }];
  });
}
