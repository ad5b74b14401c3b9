import { describe, expect, it } from 'vitest';
import { noncentralTCdf, normalCdf, normalQuantile, studentTCdf, studentTQuantile, twoSidedP } from './distributions.js';

// Reference values from SciPy 1.17 (scipy.stats.t and scipy.stats.norm).
describe('Student t', () => {
  it.each([
    [1, 12.706204736174694, -6.313751514675044],
    [2, 4.302652729749462, -2.9199855803537256],
    [5, 2.5705818356363146, -2.015048373333024],
    [11, 2.200985160091639, -1.795884818704044],
    [24, 2.0638985616280245, -1.7108820799094284],
    [199, 1.9719565442517533, -1.6525467461665635],
  ])('has the 0.975 and 0.05 quantiles of SciPy at %i degrees of freedom', (df, upper, lower) => {
    expect(studentTQuantile(0.975, df)).toBeCloseTo(upper, 9);
    expect(studentTQuantile(0.05, df)).toBeCloseTo(lower, 9);
  });

  it('has the CDF and two-sided p-values of SciPy', () => {
    expect(studentTCdf(-1.5, 3)).toBeCloseTo(0.11529193262241147, 12);
    expect(twoSidedP(2, 10)).toBeCloseTo(0.07338803477074037, 12);
    expect(twoSidedP(-6, 4)).toBeCloseTo(0.0038825370469605107, 12);
    expect(twoSidedP(0, 7)).toBe(1);
  });

  it('is NaN where it is undefined', () => {
    expect(studentTQuantile(0.975, 0)).toBeNaN();
    expect(twoSidedP(Number.NaN, 5)).toBeNaN();
  });
});

describe('the normal distribution', () => {
  it('has the CDF and quantiles of SciPy', () => {
    expect(normalCdf(1.96)).toBeCloseTo(0.9750021048517796, 12);
    expect(normalCdf(-3.3)).toBeCloseTo(0.00048342414238377744, 13);
    expect(normalQuantile(0.975)).toBeCloseTo(1.9599639845400536, 10);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232306167813, 10);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 12);
  });

  it('is the limit of Student t', () => {
    expect(studentTQuantile(0.975, Number.POSITIVE_INFINITY)).toBeCloseTo(1.9599639845400536, 10);
    expect(studentTQuantile(0.975, 1e6)).toBeCloseTo(1.96, 4);
  });
});

// Reference values from SciPy 1.17 (scipy.stats.nct.cdf, Boost's noncentral t).
describe('the noncentral t', () => {
  it.each([
    [1.5, 10, 1, 0.6695168482153548, 13],
    [2, 5, 2.5, 0.30336444060631584, 13],
    [-1, 8, 0.5, 0.07672309311130024, 13],
    [0, 3, 1, 0.15865525393145707, 13],
    [3, 30, 4, 0.1694528942597737, 13],
    [2.5, 199, 2.8, 0.38178206620530564, 12],
    [-2, 20, -1.5, 0.3253700858619651, 13],
    [1, 1, 0.3, 0.6589463526823623, 13],
    [0.5, 2.5, -0.7, 0.8705368116462504, 13],
    // Large noncentralities, where a series summed from its first term underflows.
    [40, 500, 38, 0.8905434799268236, 11],
    [60, 20_000, 55, 0.9999991612979254, 10],
    [4.5, 99_999, 5, 0.3085424891178007, 10],
  ])('has the CDF of SciPy at t = %f, df = %f, noncentrality %f', (t, df, noncentrality, expected, digits) => {
    expect(noncentralTCdf(t, df, noncentrality)).toBeCloseTo(expected, digits);
  });

  it('answers at once for a huge noncentrality (a pilot whose SD is near 0), with the normal approximation', () => {
    // SciPy: nct.cdf(3, 30, 250) = 0 and nct.cdf(300, 30, 250) = 0.8929.
    expect(noncentralTCdf(3, 30, 250)).toBe(0);
    expect(noncentralTCdf(300, 30, 250)).toBeCloseTo(0.8929442480917584, 2);
    expect(noncentralTCdf(3, 5, 1e12)).toBe(0);
    expect(noncentralTCdf(-3, 5, -1e12)).toBe(1);
  });

  it('is Student t without noncentrality, a shifted normal with infinite df, and NaN where undefined', () => {
    expect(noncentralTCdf(-1.5, 3, 0)).toBe(studentTCdf(-1.5, 3));
    expect(noncentralTCdf(1.2, Number.POSITIVE_INFINITY, 0.5)).toBeCloseTo(normalCdf(0.7), 14);
    expect(noncentralTCdf(1.96, 1000, 10)).toBeLessThan(1e-15);
    expect(noncentralTCdf(Number.POSITIVE_INFINITY, 5, 2)).toBe(1);
    expect(noncentralTCdf(1, 0, 2)).toBeNaN();
    expect(noncentralTCdf(1, 5, Number.NaN)).toBeNaN();
  });
});
