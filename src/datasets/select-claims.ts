import type { Claim } from '../domain/claim.js';
import { createRandom, deriveSeed, randomIndex } from '../domain/random.js';

/** A pilot selection of a set's items (claims, a benchmark's topics). */
export interface ItemSelection {
  /** The first N items. */
  readonly limit?: number;
  /** A seeded sample of N items, stratified (each stratum keeps its share). */
  readonly sample?: number;
  readonly seed?: number;
}

/** What a sample is stratified by: each item's stratum, and the name its strata's seeds derive from. */
export interface Strata<Item> {
  readonly of: (item: Item) => string;
  readonly seedName: string;
}

/** Shares of `total` proportional to `sizes`, rounded by largest remainder so they sum to `total`. */
function proportionalShares(sizes: readonly number[], total: number): number[] {
  const all = sizes.reduce((sum, size) => sum + size, 0);
  const exact = sizes.map((size) => (size * total) / all);
  const shares = exact.map(Math.floor);
  const order = exact.map((value, index) => ({ index, remainder: value - Math.floor(value) })).sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (let left = total - shares.reduce((sum, share) => sum + share, 0), k = 0; left > 0; left--, k++) shares[order[k]!.index]! += 1;
  return shares;
}

/** k items of `items` chosen by a seeded partial Fisher-Yates shuffle, returned in their original order. */
function seededChoice<T>(items: readonly T[], k: number, seed: number): T[] {
  const random = createRandom(seed);
  const positions = items.map((_, index) => index);
  for (let i = 0; i < k; i++) {
    const j = i + randomIndex(random, positions.length - i);
    [positions[i], positions[j]] = [positions[j]!, positions[i]!];
  }
  return positions
    .slice(0, k)
    .sort((a, b) => a - b)
    .map((index) => items[index]!);
}

/**
 * Pilot selections of any set: `limit` keeps the first N; `sample` draws N with a seed, stratified by
 * `strata`, keeping the set's order. Items keep their index in the full set, so results stay comparable.
 */
export function selectStratified<Item>(items: readonly Item[], selection: ItemSelection, strata: Strata<Item>): Item[] {
  let selected = [...items];
  if (selection.sample !== undefined && selection.sample < selected.length) {
    const names = [...new Set(selected.map(strata.of))];
    const groups = names.map((name) => selected.filter((item) => strata.of(item) === name));
    const shares = proportionalShares(
      groups.map((group) => group.length),
      selection.sample,
    );
    // Each stratum draws from its own seed, derived from what it is (never seed + position: two strata
    // of one run must not share the draws that seeds 3 and 4 of two runs would).
    const chosen = new Set(
      groups.flatMap((group, index) => seededChoice(group, shares[index]!, deriveSeed(selection.seed ?? 0, [strata.seedName, names[index]!]))),
    );
    selected = selected.filter((item) => chosen.has(item));
  }
  if (selection.limit !== undefined) selected = selected.slice(0, selection.limit);
  return selected;
}

/** The pilot selection of a claim set: a sample is stratified by origin. */
export function selectClaims(claims: readonly Claim[], selection: ItemSelection): Claim[] {
  return selectStratified(claims, selection, { of: (claim) => claim.origin, seedName: 'claim-sample' });
}
