import { describe, expect, it } from 'vitest';
import { averageRanks, spearmanCorrelation } from './rank-correlation.js';

const zip = (first: readonly number[], second: readonly number[]) => first.map((value, index) => [value, second[index]!] as const);

describe('averageRanks', () => {
  it.each([
    [
      [3, 1, 2],
      [3, 1, 2],
    ],
    [
      [5, 6, 7, 8, 7],
      [1, 2, 3.5, 5, 3.5],
    ],
    [
      [2, 2, 2],
      [2, 2, 2],
    ],
    [[], []],
  ])('ranks %j as %j, ties sharing the mean of their ranks', (values, ranks) => {
    expect(averageRanks(values)).toEqual(ranks);
  });
});

describe('spearmanCorrelation', () => {
  // Expected values from Pearson's r of the average ranks and Fisher z with (1 + r^2/2) / (n - 3), worked out apart (scipy agrees on rho).
  it.each([
    { first: [1, 2, 3, 4, 5], second: [5, 6, 7, 8, 7], rho: 0.8207826816681233, ciLow: -0.41629081750673796, ciHigh: 0.9920459711149154 },
    { first: [0.1, 0.4, 0.2, 0.9, 0.5, 0.3], second: [3, 1, 2, 0, 1, 2], rho: -0.9710083124552245, ciLow: -0.9981122527163866, ciHigh: -0.627331881289164 },
  ])('gives rho $rho with its Fisher z interval', ({ first, second, rho, ciLow, ciHigh }) => {
    const result = spearmanCorrelation(zip(first, second));
    expect(result.n).toBe(first.length);
    expect(result.rho).toBeCloseTo(rho, 12);
    expect(result.ciLow).toBeCloseTo(ciLow, 10);
    expect(result.ciHigh).toBeCloseTo(ciHigh, 10);
  });

  it('gives rho 1 for any increasing relation, and -1 for a decreasing one, each with an interval beside it', () => {
    const up = spearmanCorrelation(zip([1, 2, 3, 4, 5], [1, 10, 100, 1000, 10000]));
    expect(up.rho).toBe(1);
    expect(up.ciLow).toBeGreaterThan(0.9);
    expect(up.ciHigh).toBeLessThanOrEqual(1);
    expect(spearmanCorrelation(zip([1, 2, 3, 4], [4, 3, 2, 1])).rho).toBe(-1);
  });

  it('has no interval with fewer than 4 pairs, and no rho when a measure does not vary', () => {
    const three = spearmanCorrelation(zip([1, 2, 3], [2, 1, 3]));
    expect(three.rho).toBeCloseTo(0.5, 12);
    expect([three.ciLow, three.ciHigh]).toEqual([Number.NaN, Number.NaN]);
    expect(spearmanCorrelation(zip([1, 2, 3, 4, 5], [7, 7, 7, 7, 7])).rho).toBeNaN();
    expect(spearmanCorrelation([]).rho).toBeNaN();
  });
});
