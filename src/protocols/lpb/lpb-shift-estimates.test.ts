import { describe, expect, it } from 'vitest';
import { type LpbComparison, rankSteps, rankTiers } from './lpb-comparisons.js';
import { exactShift } from './lpb-shift-estimates.js';

describe('exactShift', () => {
  it.each([
    [0.667, 2 / 3],
    [-0.333, -1 / 3],
    [1.333, 4 / 3],
    [-0, 0],
    [2, 2],
    [0.5, 0.5],
    [-1.5, -1.5],
    [0.25, 0.25],
  ])('reads the published %d back as %d', (published, exact) => {
    expect(exactShift(published)).toBe(exact);
  });
});

const comparison = (first: string, second: string, difference: number, pHolm: number): LpbComparison => ({
  role: 'persuader',
  first,
  second,
  difference,
  ciLow: difference - 0.1,
  ciHigh: difference + 0.1,
  se: 0.05,
  cells: 30,
  propositions: 15,
  thin: false,
  p: pHolm,
  pHolm,
});

describe('rankSteps and rankTiers', () => {
  const comparisons = [comparison('a', 'b', 0.01, 0.9), comparison('b', 'c', -0.5, 0.01), comparison('a', 'c', -0.49, 0.02)];

  it('signs each adjacent step as the higher rank minus the lower, and cuts tiers only at separable steps', () => {
    const steps = rankSteps(['c', 'a', 'b'], comparisons, 'persuader', 0.95);
    expect(steps.map((step) => [step.higher, step.lower, step.separable])).toEqual([
      ['c', 'a', true],
      ['a', 'b', false],
    ]);
    expect(steps[0]!.comparison).toMatchObject({
      first: 'c',
      second: 'a',
      difference: 0.49,
      ciLow: expect.closeTo(0.39, 12),
      ciHigh: expect.closeTo(0.59, 12),
    });
    expect(rankTiers(['c', 'a', 'b'], steps)).toEqual([['c'], ['a', 'b']]);
  });
});
