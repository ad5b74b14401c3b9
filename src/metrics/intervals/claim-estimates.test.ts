import { describe, expect, it } from 'vitest';
import { createRandom, randomNormal } from '../../domain/random.js';
import { ClaimCellTable } from './claim-cell-table.js';
import { type CellStatistic, estimateOverClaims, INTERVAL_METHODS, type IntervalOptions, isThin } from './claim-estimates.js';
import { studentTQuantile, twoSidedP } from './distributions.js';

const options = (method: IntervalOptions['method'], replicates = 2000): IntervalOptions => ({ method, replicates, confidence: 0.95, seed: 7 });
const one = (cell: number): CellStatistic => [{ cells: [cell], weight: 1 }];

function sd(values: readonly number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((total, value) => total + (value - mean) ** 2, 0) / (values.length - 1));
}

describe('estimateOverClaims', () => {
  const a = [0.1, 0.4, 0.35, 0.8, 0.05, 0.6, 0.2, 0.45];
  const b = [0.0, 0.3, 0.4, 0.5, 0.1, 0.2, 0.25, 0.3];
  const table = new ClaimCellTable();
  for (const [claim, value] of a.entries()) table.add('a', `c${claim}`, value);
  for (const [claim, value] of b.entries()) table.add('b', `c${claim}`, value);
  const slices = table.slices();

  it('with one value per claim, gives the textbook t interval of the mean', () => {
    const [estimate] = estimateOverClaims(slices, [one(0)], options('t'));
    const mean = a.reduce((x, y) => x + y, 0) / a.length;
    const se = sd(a) / Math.sqrt(a.length);
    expect(estimate!.value).toBeCloseTo(mean, 12);
    expect(estimate!.se).toBeCloseTo(se, 12);
    expect(estimate!.claims).toBe(8);
    expect(estimate!.ciHigh - estimate!.value).toBeCloseTo(studentTQuantile(0.975, 7) * se, 12);
    expect(estimate!.p).toBeCloseTo(twoSidedP(mean / se, 7), 12);
  });

  it('pairs a difference over the shared claims: its standard error is that of the per-claim differences', () => {
    const difference: CellStatistic = [
      { cells: [0], weight: 1 },
      { cells: [1], weight: -1 },
    ];
    const [estimate] = estimateOverClaims(slices, [difference], options('t'));
    const differences = a.map((value, claim) => value - b[claim]!);
    expect(estimate!.value).toBeCloseTo(differences.reduce((x, y) => x + y, 0) / 8, 12);
    expect(estimate!.se).toBeCloseTo(sd(differences) / Math.sqrt(8), 12);
    // Unpaired, the standard error would be larger: the claims' shared part cancels.
    expect(estimate!.se).toBeLessThan(Math.sqrt(sd(a) ** 2 / 8 + sd(b) ** 2 / 8));
  });

  it('gives the percentile intervals of the existing bootstrap on the same seed', () => {
    const [percentile] = estimateOverClaims(slices, [one(0)], options('percentile'));
    const [reference] = table.bootstrap([[0]], { replicates: 2000, confidence: 0.95, seed: 7 });
    expect(percentile!.ciLow).toBe(reference!.ciLow);
    expect(percentile!.ciHigh).toBe(reference!.ciHigh);
  });

  it('weights each claim once however many conversations it has (a ratio estimate, linearized)', () => {
    const uneven = new ClaimCellTable();
    uneven.add('x', 'c1', 1);
    uneven.add('x', 'c1', 1);
    uneven.add('x', 'c1', 1);
    uneven.add('x', 'c2', 0);
    uneven.add('x', 'c3', 0);
    const [estimate] = estimateOverClaims(uneven.slices(), [one(0)], options('t'));
    // The cell mean is over conversations (3 of 5), as the report's pair means are.
    expect(estimate!.value).toBeCloseTo(0.6, 12);
    // Influences: c1 (3 - 0.6 x 3) / 5 = 0.24, c2 and c3 -0.12 each; variance 3/2 x (0.0576 + 2 x 0.0144).
    expect(estimate!.se).toBeCloseTo(Math.sqrt(1.5 * (0.0576 + 0.0288)), 12);
  });

  it('leaves a cell without data out of its term, and is NaN when a term has none', () => {
    const [missing, partial] = estimateOverClaims(slices, [one(5), [{ cells: [0, 5], weight: 1 }]], options('t'));
    expect(missing!.value).toBeNaN();
    expect(missing!.claims).toBe(0);
    expect(partial!.value).toBeCloseTo(a.reduce((x, y) => x + y, 0) / 8, 12);
  });

  it('agrees across all four methods on a large symmetric sample', () => {
    const random = createRandom(3);
    const large = new ClaimCellTable();
    for (let claim = 0; claim < 400; claim++) large.add('z', `c${claim}`, randomNormal(random, 0.5, 0.2));
    const estimates = INTERVAL_METHODS.map((method) => estimateOverClaims(large.slices(), [one(0)], options(method, 1000))[0]!);
    const [reference] = estimates;
    for (const estimate of estimates) {
      expect(estimate.value).toBe(reference!.value);
      expect(estimate.ciLow).toBeCloseTo(reference!.ciLow, 2);
      expect(estimate.ciHigh).toBeCloseTo(reference!.ciHigh, 2);
    }
  });

  it('counts the claims that differ from the most common contribution, and calls an estimate thin below 10 claims or 5 such claims', () => {
    const sparse = new ClaimCellTable();
    for (let claim = 0; claim < 30; claim++) sparse.add('p', `c${claim}`, claim < 4 ? 0.5 : 0);
    const [few] = estimateOverClaims(sparse.slices(), [one(0)], options('t'));
    expect(few).toMatchObject({ claims: 30, varyingClaims: 4 });
    expect(isThin(few!)).toBe(true);
    sparse.add('p', 'c29', 1);
    const [enough] = estimateOverClaims(sparse.slices(), [one(0)], options('t'));
    expect(enough!.varyingClaims).toBe(5);
    expect(isThin(enough!)).toBe(false);
    const [, partial] = estimateOverClaims(slices, [one(5), one(0)], options('t'));
    // All eight differ: the most common contribution is any one of them.
    expect(partial).toMatchObject({ claims: 8, varyingClaims: 7 });
    expect(isThin(partial!)).toBe(true);
  });

  it('leans BCa and bootstrap-t intervals toward the long tail of a skewed sample', () => {
    const skewed = new ClaimCellTable();
    for (const [claim, value] of [0, 0, 0, 0, 0, 0, 0, 0, 0.1, 0.2, 1, 1].entries()) skewed.add('s', `c${claim}`, value);
    const [t, percentile, bca, studentized] = INTERVAL_METHODS.map((method) => estimateOverClaims(skewed.slices(), [one(0)], options(method))[0]!);
    const upperReach = (estimate: typeof t) => estimate!.ciHigh - estimate!.value;
    const lowerReach = (estimate: typeof t) => estimate!.value - estimate!.ciLow;
    expect(upperReach(t)).toBeCloseTo(lowerReach(t), 12);
    for (const estimate of [bca, studentized]) expect(upperReach(estimate)).toBeGreaterThan(lowerReach(estimate));
    expect(upperReach(bca)).toBeGreaterThan(upperReach(percentile));
  });
});
