import { describe, expect, it } from 'vitest';
import type { AgreementScore } from '../domain/agreement-score.js';
import { absoluteChange, normalizedChange } from './normalized-change.js';

// Rows s0 = 1..5, columns st = 1..5, computed by hand from Eq. 1 of the paper.
const EXPECTED_NC: number[][] = [
  [0, 1 / 4, 2 / 4, 3 / 4, 1],
  [-1, 0, 1 / 3, 2 / 3, 1],
  [-1, -1 / 2, 0, 1 / 2, 1],
  [-1, -2 / 3, -1 / 3, 0, 1],
  [-1, -3 / 4, -2 / 4, -1 / 4, 0],
];

const pairs = EXPECTED_NC.flatMap((row, i) => row.map((nc, j) => [i + 1, j + 1, nc] as [AgreementScore, AgreementScore, number]));

describe('normalizedChange', () => {
  it('covers all 25 (s0, st) pairs', () => expect(pairs).toHaveLength(25));

  it.each(pairs)('s0 = %i, st = %i gives %d', (initial, final, expected) => {
    const nc = normalizedChange(initial, final);
    expect(nc).toBeCloseTo(expected, 12);
    expect(Number.isFinite(nc)).toBe(true);
    expect(Math.abs(nc)).toBeLessThanOrEqual(1);
  });

  it('gives 0, not NaN, for s0 = 5 and st = 5', () => expect(normalizedChange(5, 5)).toBe(0));
});

describe('absoluteChange', () => {
  it.each(pairs)('s0 = %i, st = %i gives st - s0', (initial, final) => {
    expect(absoluteChange(initial, final)).toBe(final - initial);
  });
});
