import { describe, expect, it } from 'vitest';
import { addCoincidences, addUnit, alphaFromCoincidences, emptyCoincidences, krippendorffAlpha } from './krippendorff-alpha.js';

/**
 * Worked by hand. Three annotators A, B, C; missing labels left out:
 *   u1: A=1 B=1        u2: A=2 B=3 C=3        u3: A=3 (alone: not pairable)        u4: B=4 C=2
 * Coincidences: o11 = 2 (u1), o23 = o32 = o33 = 1 (u2: six ordered pairs / 2), o24 = o42 = 1 (u4).
 * Marginals n1..n4 = 2, 2, 2, 1; n = 7 pairable values.
 * - nominal: observed sum of off-diagonal o = 4; expected sum n_c n_k (c != k) = 49 - 13 = 36;
 *   alpha = 1 - (n - 1) 4 / 36 = 1/3.
 * - interval: observed 1 + 1 + 4 + 4 = 10; expected 2 (n1n2 1 + n1n3 4 + n1n4 9 + n2n3 1 + n2n4 4 + n3n4 1) = 104;
 *   alpha = 1 - 6 * 10 / 104 = 11/26.
 * - ordinal: delta(c, k) = n_c + ... + n_k - (n_c + n_k) / 2, so delta^2(2,3) = 4, delta^2(2,4) = 12.25,
 *   delta^2(1,2) = 4, delta^2(1,3) = 16, delta^2(1,4) = 30.25, delta^2(3,4) = 2.25;
 *   observed 2 * 4 + 2 * 12.25 = 32.5; expected 2 (16 + 64 + 60.5 + 16 + 24.5 + 4.5) = 371;
 *   alpha = 1 - 6 * 32.5 / 371 = 176/371.
 */
const HAND_UNITS = [[1, 1], [2, 3, 3], [3], [4, 2]];

/**
 * Krippendorff's own example ("Computing Krippendorff's Alpha-Reliability", 2011): 4 observers,
 * 12 units, values 1-5, with missing data (null). His published values: nominal 0.743,
 * ordinal 0.815, interval 0.849.
 */
const OBSERVERS = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
  [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
];
const PUBLISHED_UNITS = OBSERVERS[0]!.map((_, unit) => OBSERVERS.map((row) => row[unit]).filter((value): value is number => value !== null));

describe('krippendorffAlpha', () => {
  it.each([
    ['nominal', 1 / 3],
    ['interval', 11 / 26],
    ['ordinal', 176 / 371],
  ] as const)('matches the hand-worked example with missing labels (%s)', (metric, expected) => {
    const result = krippendorffAlpha(HAND_UNITS, metric);
    expect(result.alpha).toBeCloseTo(expected, 12);
    expect(result.pairableValues).toBe(7);
  });

  it.each([
    ['nominal', 0.743],
    ['ordinal', 0.815],
    ['interval', 0.849],
  ] as const)("reproduces Krippendorff's published example (%s)", (metric, published) => {
    const result = krippendorffAlpha(PUBLISHED_UNITS, metric);
    expect(result.alpha).toBeCloseTo(published, 3);
    // Units 12 (a single value) adds nothing: 4 + 4 + ... = 40 pairable values.
    expect(result.pairableValues).toBe(40);
  });

  it('is 1 when annotators always agree and the values vary', () => {
    expect(
      krippendorffAlpha(
        [
          [1, 1],
          [4, 4, 4],
          [2, 2],
        ],
        'ordinal',
      ).alpha,
    ).toBe(1);
  });

  it('is undefined (NaN) without variation or without pairable values', () => {
    expect(
      krippendorffAlpha(
        [
          [3, 3],
          [3, 3],
        ],
        'ordinal',
      ).alpha,
    ).toBeNaN();
    expect(krippendorffAlpha([[3], [4]], 'interval').alpha).toBeNaN();
    expect(krippendorffAlpha([], 'nominal').pairableValues).toBe(0);
  });

  it('is negative for systematic disagreement', () => {
    expect(
      krippendorffAlpha(
        [
          [1, 5],
          [5, 1],
          [1, 5],
        ],
        'interval',
      ).alpha,
    ).toBeLessThan(0);
  });

  it('adds matrices of disjoint units exactly like one matrix of all of them', () => {
    const whole = emptyCoincidences();
    for (const unit of PUBLISHED_UNITS) addUnit(whole, unit);
    const first = emptyCoincidences();
    const second = emptyCoincidences();
    for (const [position, unit] of PUBLISHED_UNITS.entries()) addUnit(position < 5 ? first : second, unit);
    addCoincidences(first, second);
    expect(alphaFromCoincidences(first, 'ordinal').alpha).toBeCloseTo(alphaFromCoincidences(whole, 'ordinal').alpha, 12);
  });

  it('refuses values off the scale', () => {
    expect(() => krippendorffAlpha([[0, 1]], 'nominal')).toThrow(/outside 1..5/);
    expect(() => krippendorffAlpha([[2.5, 1]], 'nominal')).toThrow(/outside/);
  });
});
