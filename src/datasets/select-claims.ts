import type { Claim } from '../domain/claim.js';
import { createRandom, deriveSeed, randomIndex } from '../domain/random.js';

export interface ClaimSelection {
  /** The first N claims. */
  readonly limit?: number;
  /** A seeded sample of N claims, stratified by origin (each origin keeps its share). */
  readonly sample?: number;
  readonly seed?: number;
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
 * Pilot selections: `limit` keeps the first N; `sample` draws N with a seed, stratified by origin,
 * keeping the set's order. Claims keep their index in the full set, so results stay comparable.
 */
export function selectClaims(claims: readonly Claim[], selection: ClaimSelection): Claim[] {
  let selected = [...claims];
  if (selection.sample !== undefined && selection.sample < selected.length) {
    const origins = [...new Set(selected.map((claim) => claim.origin))];
    const groups = origins.map((origin) => selected.filter((claim) => claim.origin === origin));
    const shares = proportionalShares(
      groups.map((group) => group.length),
      selection.sample,
    );
    // Each origin draws from its own seed, derived from what it is (never seed + position: two origins
    // of one run must not share the draws that seeds 3 and 4 of two runs would).
    const chosen = new Set(
      groups.flatMap((group, index) => seededChoice(group, shares[index]!, deriveSeed(selection.seed ?? 0, ['claim-sample', origins[index]!]))),
    );
    selected = selected.filter((claim) => chosen.has(claim));
  }
  if (selection.limit !== undefined) selected = selected.slice(0, selection.limit);
  return selected;
}
