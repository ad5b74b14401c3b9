import { normalQuantile } from './intervals/distributions.js';

/**
 * Spearman's rank correlation between two measures of the same units (models), with a Fisher z interval: the
 * table across protocols says how far models that rank high on one protocol's figure rank high on another's
 * (docs/design/statistics.md, "Rank correlation across protocols"). Descriptive: a handful of models, no causal claim.
 */

/** Fewest units with both values for a correlation to be given: below it the table says there are too few. */
export const RANK_CORRELATION_MINIMUM_UNITS = 5;

export interface RankCorrelation {
  /** Spearman's rho, -1 to 1; NaN when either measure has no spread (every unit tied). */
  readonly rho: number;
  /** Its interval: Fisher z with the Bonett and Wright (2000) variance (1 + rho^2 / 2) / (n - 3), back on -1 to 1. */
  readonly ciLow: number;
  readonly ciHigh: number;
  /** The units both measures have. */
  readonly n: number;
}

/** Ranks from 1, ties given the mean of the ranks they share. */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const ranks = new Array<number>(values.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]!.value === order[start]!.value) end += 1;
    for (let position = start; position <= end; position++) ranks[order[position]!.index] = (start + end) / 2 + 1;
    start = end + 1;
  }
  return ranks;
}

/** Pearson's correlation of two equal-length lists; NaN when either has no spread. */
function pearson(first: readonly number[], second: readonly number[]): number {
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const [meanFirst, meanSecond] = [mean(first), mean(second)];
  let products = 0;
  let squaresFirst = 0;
  let squaresSecond = 0;
  first.forEach((value, index) => {
    const [a, b] = [value - meanFirst, second[index]! - meanSecond];
    products += a * b;
    squaresFirst += a * a;
    squaresSecond += b * b;
  });
  return squaresFirst === 0 || squaresSecond === 0 ? Number.NaN : products / Math.sqrt(squaresFirst * squaresSecond);
}

/**
 * Spearman's rho of paired values (Pearson's correlation of their average ranks) and its Fisher z interval at
 * `confidence`. Needs at least 4 pairs for an interval (n - 3 > 0); with fewer, or no spread, the interval is NaN.
 * Pure.
 */
export function spearmanCorrelation(pairs: ReadonlyArray<readonly [number, number]>, confidence = 0.95): RankCorrelation {
  const n = pairs.length;
  const rho = n < 2 ? Number.NaN : pearson(averageRanks(pairs.map(([first]) => first)), averageRanks(pairs.map(([, second]) => second)));
  if (!Number.isFinite(rho) || n < 4) return { rho, ciLow: Number.NaN, ciHigh: Number.NaN, n };
  // A rho of exactly +-1 has an infinite z: it is taken just inside the bound, so its interval is a narrow one beside it.
  const bounded = Math.max(-0.999999, Math.min(0.999999, rho));
  const z = Math.atanh(bounded);
  const halfWidth = normalQuantile(1 - (1 - confidence) / 2) * Math.sqrt((1 + (rho * rho) / 2) / (n - 3));
  return { rho, ciLow: Math.tanh(z - halfWidth), ciHigh: Math.tanh(z + halfWidth), n };
}
