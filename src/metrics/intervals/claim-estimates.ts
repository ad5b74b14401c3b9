import { createRandom, randomIndex } from '../../domain/random.js';
import type { BootstrapOptions, ClaimSlices } from './claim-cell-table.js';
import { normalCdf, normalQuantile, studentTQuantile, twoSidedP } from './distributions.js';
import { quantileOfSorted } from './quantile.js';

/** One term of a statistic: the unweighted mean of these cells' means, times `weight`. */
interface CellTerm {
  readonly cells: readonly number[];
  readonly weight: number;
}

/**
 * A statistic over a table's cells, as a sum of terms: a pair mean or a model's effectiveness is
 * one term of weight 1; the difference between two models' effectiveness is two, +1 and -1.
 * A cell without data (in the table, or in a bootstrap replicate) is left out of its term's mean.
 */
export type CellStatistic = readonly CellTerm[];

/**
 * How intervals are made (see docs/design/statistics.md for the coverage each reaches):
 * - `t`: Student t over claims with the cluster-robust (linearized) standard error; no resampling;
 * - `percentile`: percentile bootstrap over claims;
 * - `bca`: bias-corrected and accelerated bootstrap over claims (acceleration from the influence values);
 * - `bootstrap-t`: studentized bootstrap over claims (each replicate's linearized standard error).
 */
export type IntervalMethod = 't' | 'percentile' | 'bca' | 'bootstrap-t';

export const INTERVAL_METHODS: readonly IntervalMethod[] = ['t', 'percentile', 'bca', 'bootstrap-t'];

export interface IntervalOptions extends BootstrapOptions {
  readonly method: IntervalMethod;
}

/** The report's default: t intervals, the best calibrated on the simulator at 12-200 claims (statistics.md). */
export const DEFAULT_INTERVALS: IntervalOptions = { method: 't', replicates: 2000, confidence: 0.95, seed: 0 };

/** A statistic's estimate over claims: the value, its interval, and a test of value = 0. */
export interface ClaimEstimate {
  readonly value: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  /** Standard error over claims (cluster-robust, linearized). */
  readonly se: number;
  /** Claims with data on the statistic: the clusters (degrees of freedom + 1). */
  readonly claims: number;
  /** Two-sided p-value of the hypothesis value = 0 (t test over claims, claims - 1 degrees of freedom). */
  readonly p: number;
  /**
   * Claims whose contribution differs from the most common one: for a pair whose NC is 0 on most
   * claims, the claims where it is not. Few of them make any interval unreliable (see `isThin`).
   */
  readonly varyingClaims: number;
}

/** Below either count an interval is not to be trusted, whatever the method (docs/design/statistics.md). */
export const THIN_LIMITS = { claims: 10, varyingClaims: 5 } as const;

/** Whether an estimate rests on too few claims, or too few that differ, for its interval to hold its coverage. */
export function isThin(estimate: Pick<ClaimEstimate, 'claims' | 'varyingClaims'>): boolean {
  return estimate.claims < THIN_LIMITS.claims || estimate.varyingClaims < THIN_LIMITS.varyingClaims;
}

const NOTHING: ClaimEstimate = { value: Number.NaN, ciLow: Number.NaN, ciHigh: Number.NaN, se: Number.NaN, claims: 0, p: Number.NaN, varyingClaims: 0 };

/** Σ terms weight x (mean over the term's cells with data of sum / count). */
function statisticValue(statistic: CellStatistic, sums: ArrayLike<number>, counts: ArrayLike<number>): number {
  let total = 0;
  for (const term of statistic) {
    let inner = 0;
    let used = 0;
    for (const cell of term.cells) {
      if (counts[cell]! > 0) {
        inner += sums[cell]! / counts[cell]!;
        used += 1;
      }
    }
    if (used === 0) return Number.NaN;
    total += (term.weight * inner) / used;
  }
  return total;
}

/** d(statistic)/d(cell sum) per cell at these totals: weight / (cells used in the term x cell count). */
function coefficientsOf(statistic: CellStatistic, counts: ArrayLike<number>, cells: number): Float64Array {
  const coefficients = new Float64Array(cells);
  for (const term of statistic) {
    const used = term.cells.filter((cell) => counts[cell]! > 0);
    for (const cell of used) coefficients[cell]! += term.weight / (used.length * counts[cell]!);
  }
  return coefficients;
}

/** Each cell's slots in claim order: entries `cellStarts[cell]` to `cellStarts[cell + 1] - 1` of `entryClaim` / `entrySlot`. */
interface SlotsByCell {
  readonly cellStarts: Int32Array;
  readonly entryClaim: Int32Array;
  readonly entrySlot: Int32Array;
}

const slotsByCellCache = new WeakMap<ClaimSlices, SlotsByCell>();

/** The slices' slots regrouped by cell (counting sort), made once per slices: a statistic then reads only its own cells. */
function slotsByCell(slices: ClaimSlices): SlotsByCell {
  const cached = slotsByCellCache.get(slices);
  if (cached) return cached;
  const cellStarts = new Int32Array(slices.cells + 1);
  for (const slot of slices.order) cellStarts[slices.slotCell[slot]! + 1]! += 1;
  for (let cell = 0; cell < slices.cells; cell++) cellStarts[cell + 1]! += cellStarts[cell]!;
  const next = cellStarts.slice(0, slices.cells);
  const entryClaim = new Int32Array(slices.order.length);
  const entrySlot = new Int32Array(slices.order.length);
  for (let claim = 0; claim < slices.claims; claim++) {
    for (let position = slices.starts[claim]!; position < slices.starts[claim + 1]!; position++) {
      const slot = slices.order[position]!;
      const entry = next[slices.slotCell[slot]!]!++;
      entryClaim[entry] = claim;
      entrySlot[entry] = slot;
    }
  }
  const made = { cellStarts, entryClaim, entrySlot };
  slotsByCellCache.set(slices, made);
  return made;
}

/**
 * The linearized standard error over claims and the claims with data: each claim's influence is
 * Σ over its slots of coefficient x (slot sum - cell mean x slot count); the variance is
 * K / (K - 1) x Σ influence², the cluster-robust (CR1) sandwich. For one value per claim and
 * cell it is the textbook standard error of a mean of claim means. Reads only the slots of the
 * statistic's own cells, so a statistic of few cells costs little in a table of many.
 */
function linearized(
  slices: ClaimSlices,
  statistic: CellStatistic,
  sums: ArrayLike<number>,
  counts: ArrayLike<number>,
  claimWeights?: ArrayLike<number>,
): { se: number; claims: number; influence: Float64Array; varyingClaims: number } {
  const coefficients = coefficientsOf(statistic, counts, slices.cells);
  const { cellStarts, entryClaim, entrySlot } = slotsByCell(slices);
  const influence = new Float64Array(slices.claims);
  const touched = new Uint8Array(slices.claims);
  const cells = [...new Set(statistic.flatMap((term) => term.cells))].sort((a, b) => a - b);
  for (const cell of cells) {
    const coefficient = coefficients[cell]!;
    if (coefficient === 0) continue;
    const mean = sums[cell]! / counts[cell]!;
    for (let entry = cellStarts[cell]!; entry < cellStarts[cell + 1]!; entry++) {
      const slot = entrySlot[entry]!;
      const claim = entryClaim[entry]!;
      influence[claim]! += coefficient * (slices.slotSum[slot]! - mean * slices.slotCount[slot]!);
      touched[claim] = 1;
    }
  }
  let claims = 0;
  let squares = 0;
  const contributions = new Map<number, number>();
  for (let claim = 0; claim < slices.claims; claim++) {
    const weight = claimWeights ? claimWeights[claim]! : 1;
    if (touched[claim] === 0 || weight === 0) {
      influence[claim] = 0;
      continue;
    }
    const value = influence[claim]!;
    claims += weight;
    squares += weight * value * value;
    // Equal contributions up to rounding are one value (1e-9 of a scale point after the 1 / count weights).
    const rounded = Math.round(value * 1e9);
    contributions.set(rounded, (contributions.get(rounded) ?? 0) + weight);
  }
  const se = claims > 1 ? Math.sqrt((claims / (claims - 1)) * squares) : Number.NaN;
  const commonest = Math.max(0, ...contributions.values());
  return { se, claims, influence, varyingClaims: claims - commonest };
}

function cellTotals(slices: ClaimSlices, claimWeights?: ArrayLike<number>): { sums: Float64Array; counts: Float64Array } {
  const sums = new Float64Array(slices.cells);
  const counts = new Float64Array(slices.cells);
  for (let claim = 0; claim < slices.claims; claim++) {
    const weight = claimWeights ? claimWeights[claim]! : 1;
    if (weight === 0) continue;
    for (let position = slices.starts[claim]!; position < slices.starts[claim + 1]!; position++) {
      const slot = slices.order[position]!;
      sums[slices.slotCell[slot]!]! += weight * slices.slotSum[slot]!;
      counts[slices.slotCell[slot]!]! += weight * slices.slotCount[slot]!;
    }
  }
  return { sums, counts };
}

/** Student t interval and test over claims with the linearized standard error. */
function tEstimate(value: number, se: number, claims: number, varyingClaims: number, confidence: number): ClaimEstimate {
  const df = claims - 1;
  if (!(df >= 1) || !Number.isFinite(se)) return { ...NOTHING, value, claims, varyingClaims };
  const half = studentTQuantile(1 - (1 - confidence) / 2, df) * se;
  const p = se === 0 ? (value === 0 ? 1 : 0) : twoSidedP(value / se, df);
  return { value, ciLow: value - half, ciHigh: value + half, se, claims, p, varyingClaims };
}

/** Claim multiplicities of one bootstrap replicate. */
function drawClaims(random: () => number, claims: number, into: Float64Array): void {
  into.fill(0);
  for (let draw = 0; draw < claims; draw++) into[randomIndex(random, claims)]! += 1;
}

function percentileInterval(sorted: Float64Array, confidence: number): { ciLow: number; ciHigh: number } {
  const tail = (1 - confidence) / 2;
  return { ciLow: quantileOfSorted(sorted, tail), ciHigh: quantileOfSorted(sorted, 1 - tail) };
}

/** BCa: the percentile interval at levels shifted by the bias (z0) and the acceleration (from the influence values). */
function bcaInterval(sorted: Float64Array, value: number, influence: Float64Array, confidence: number): { ciLow: number; ciHigh: number } {
  if (sorted.length === 0) return { ciLow: Number.NaN, ciHigh: Number.NaN };
  let below = 0;
  for (const replicate of sorted) below += replicate < value ? 1 : replicate === value ? 0.5 : 0;
  const share = Math.min(Math.max(below / sorted.length, 0.5 / sorted.length), 1 - 0.5 / sorted.length);
  const bias = normalQuantile(share);
  let squares = 0;
  let cubes = 0;
  for (const u of influence) {
    squares += u * u;
    cubes += u * u * u;
  }
  // The influence values measure each claim's pull on the estimate; their skewness gives the acceleration.
  const acceleration = squares === 0 ? 0 : cubes / (6 * squares ** 1.5);
  const level = (tail: number) => {
    const z = bias + normalQuantile(tail);
    return normalCdf(bias + z / (1 - acceleration * z));
  };
  const tail = (1 - confidence) / 2;
  return { ciLow: quantileOfSorted(sorted, level(tail)), ciHigh: quantileOfSorted(sorted, level(1 - tail)) };
}

/**
 * Estimates of statistics over a table's claims, with intervals by the chosen method and a t test
 * of value = 0. The value is the plain estimate on all claims whatever the method; the standard
 * error and p-value are always the linearized ones (so a comparison's test and its t interval agree).
 * Bootstrap methods resample claims in one seeded pass shared by every statistic.
 */
export function estimateOverClaims(slices: ClaimSlices, statistics: readonly CellStatistic[], options: IntervalOptions): ClaimEstimate[] {
  const { sums, counts } = cellTotals(slices);
  const points = statistics.map((statistic) => {
    const value = statisticValue(statistic, sums, counts);
    const linear = Number.isNaN(value)
      ? { se: Number.NaN, claims: 0, influence: new Float64Array(0), varyingClaims: 0 }
      : linearized(slices, statistic, sums, counts);
    return { value, ...linear };
  });
  const tests = points.map(({ value, se, claims, varyingClaims }) => tEstimate(value, se, claims, varyingClaims, options.confidence));
  if (options.method === 't' || slices.claims === 0 || options.replicates === 0) return tests;

  const replicates = statistics.map(() => new Float64Array(options.replicates));
  const random = createRandom(options.seed);
  const multiplicity = new Float64Array(slices.claims);
  for (let replicate = 0; replicate < options.replicates; replicate++) {
    drawClaims(random, slices.claims, multiplicity);
    const totals = cellTotals(slices, multiplicity);
    statistics.forEach((statistic, index) => {
      const value = statisticValue(statistic, totals.sums, totals.counts);
      if (options.method !== 'bootstrap-t') {
        replicates[index]![replicate] = value;
        return;
      }
      const { se } = Number.isNaN(value) ? { se: Number.NaN } : linearized(slices, statistic, totals.sums, totals.counts, multiplicity);
      replicates[index]![replicate] = se > 0 ? (value - points[index]!.value) / se : Number.NaN;
    });
  }
  return statistics.map((_, index) => {
    const test = tests[index]!;
    if (Number.isNaN(test.value)) return test;
    const sorted = replicates[index]!.filter(Number.isFinite).sort();
    if (options.method === 'percentile') return { ...test, ...percentileInterval(sorted, options.confidence) };
    if (options.method === 'bca') return { ...test, ...bcaInterval(sorted, test.value, points[index]!.influence, options.confidence) };
    // bootstrap-t: the studentized replicates' quantiles, turned around the estimate.
    const tail = (1 - options.confidence) / 2;
    if (sorted.length === 0 || !Number.isFinite(test.se)) return { ...test, ciLow: Number.NaN, ciHigh: Number.NaN };
    return { ...test, ciLow: test.value - quantileOfSorted(sorted, 1 - tail) * test.se, ciHigh: test.value - quantileOfSorted(sorted, tail) * test.se };
  });
}
