/**
 * Krippendorff's alpha: agreement among any number of annotators, with missing labels, on values
 * 1..K (the agreement scale has K = 5). alpha = 1 - D_o / D_e, observed over expected
 * disagreement, both read off the coincidence matrix. 1 is perfect agreement, 0 what chance
 * gives, below 0 systematic disagreement.
 */

/** How far apart two values are: nominal (same or not), ordinal (by rank mass) or interval (by distance). */
export type AlphaMetric = 'nominal' | 'ordinal' | 'interval';

/**
 * The coincidence matrix, K x K, row-major: cell (c, k) counts the ordered pairs of values c and k
 * given to the same unit by different annotators, each unit weighted 1 / (m - 1) for its m values,
 * so that every pairable value counts once in total. Matrices of disjoint sets of units add up,
 * which lets a bootstrap resample groups of units without recounting.
 */
export interface Coincidences {
  readonly categories: number;
  readonly cells: Float64Array;
}

/** An empty matrix for values 1..categories. */
export function emptyCoincidences(categories = 5): Coincidences {
  return { categories, cells: new Float64Array(categories * categories) };
}

/**
 * Adds one unit's values (the labels it got, one per annotator who labelled it; missing labels
 * are simply absent) to `into`. A unit with fewer than two values has no pairs and adds nothing.
 * Values must be whole numbers in 1..categories.
 */
export function addUnit(into: Coincidences, values: readonly number[]): void {
  const { categories, cells } = into;
  if (values.length < 2) return;
  const counts = new Array<number>(categories).fill(0);
  for (const value of values) {
    if (!Number.isInteger(value) || value < 1 || value > categories) throw new RangeError(`value ${value} is outside 1..${categories}`);
    counts[value - 1]! += 1;
  }
  const weight = 1 / (values.length - 1);
  for (let c = 0; c < categories; c++) {
    for (let k = 0; k < categories; k++) {
      // Ordered pairs of *different* annotators: a value is never paired with itself.
      const pairs = c === k ? counts[c]! * (counts[c]! - 1) : counts[c]! * counts[k]!;
      if (pairs > 0) cells[c * categories + k]! += pairs * weight;
    }
  }
}

/** Adds `from` into `into` (same number of categories). */
export function addCoincidences(into: Coincidences, from: Coincidences): void {
  for (let cell = 0; cell < into.cells.length; cell++) into.cells[cell]! += from.cells[cell]!;
}

/** The squared difference function of the metric, given the marginals n_c of the matrix. */
function squaredDistance(metric: AlphaMetric, marginals: readonly number[]): (c: number, k: number) => number {
  if (metric === 'nominal') return (c, k) => (c === k ? 0 : 1);
  if (metric === 'interval') return (c, k) => (c - k) ** 2;
  // Ordinal: the values' rank mass between c and k, counting the two ends half.
  const cumulative = [0];
  for (const count of marginals) cumulative.push(cumulative.at(-1)! + count);
  return (c, k) => {
    const low = Math.min(c, k);
    const high = Math.max(c, k);
    const between = cumulative[high + 1]! - cumulative[low]!;
    return (between - (marginals[low]! + marginals[high]!) / 2) ** 2;
  };
}

/** What alpha was computed from, for the report's counts. */
export interface AlphaResult {
  /** NaN when there are fewer than two pairable values or the values never vary (D_e = 0). */
  readonly alpha: number;
  /** Pairable values n: labels on units that have at least two. */
  readonly pairableValues: number;
  readonly observedDisagreement: number;
  readonly expectedDisagreement: number;
}

/** Alpha from a coincidence matrix. */
export function alphaFromCoincidences(matrix: Coincidences, metric: AlphaMetric): AlphaResult {
  const { categories, cells } = matrix;
  const marginals = Array.from({ length: categories }, (_, c) => {
    let total = 0;
    for (let k = 0; k < categories; k++) total += cells[c * categories + k]!;
    return total;
  });
  const n = marginals.reduce((sum, count) => sum + count, 0);
  const distance = squaredDistance(metric, marginals);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < categories; c++) {
    for (let k = 0; k < categories; k++) {
      if (c === k) continue; // every metric is 0 on the diagonal
      const delta = distance(c, k);
      observed += cells[c * categories + k]! * delta;
      expected += marginals[c]! * marginals[k]! * delta;
    }
  }
  // Rounding leaves a tiny n where a float sum should be a whole count.
  const pairable = Math.round(n * 1e9) / 1e9;
  if (pairable < 2 || expected === 0)
    return { alpha: Number.NaN, pairableValues: pairable, observedDisagreement: Number.NaN, expectedDisagreement: Number.NaN };
  const observedDisagreement = observed / n;
  const expectedDisagreement = expected / (n * (n - 1));
  return { alpha: 1 - observedDisagreement / expectedDisagreement, pairableValues: pairable, observedDisagreement, expectedDisagreement };
}

/**
 * Krippendorff's alpha of units given as lists of values (one list per unit; missing labels left
 * out of the list). Values are whole numbers in 1..categories.
 */
export function krippendorffAlpha(units: Iterable<readonly number[]>, metric: AlphaMetric, categories = 5): AlphaResult {
  const matrix = emptyCoincidences(categories);
  for (const values of units) addUnit(matrix, values);
  return alphaFromCoincidences(matrix, metric);
}
