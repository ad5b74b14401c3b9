import { describe, expect, it } from 'vitest';
import { ExactSum } from './exact-sum.js';

const sumOf = (values: readonly number[]): number => {
  const sum = new ExactSum();
  for (const value of values) sum.add(value);
  return sum.value;
};

describe('ExactSum', () => {
  it('is 0 with nothing added', () => {
    expect(new ExactSum().value).toBe(0);
  });

  it('keeps what plain addition rounds away', () => {
    expect(sumOf([0.1, 0.2, 0.3])).toBe(0.6);
    expect(0.1 + 0.2 + 0.3).not.toBe(0.6);
    expect(sumOf([1e16, 1, -1e16])).toBe(1);
    expect(sumOf([1, 1e100, 1, -1e100])).toBe(2);
  });

  it('gives the same figure in any order, where plain addition does not', () => {
    // Costs of a run's calls: tokens times a price per token, as a tally sees them.
    let state = 7;
    const next = () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 31;
    };
    const costs = Array.from({ length: 2_000 }, () => Math.round(next() * 3_000) * 0.000_002_5 + Math.round(next() * 400) * 0.000_01);
    const reversed = [...costs].reverse();
    const shuffled = [...costs].sort(() => next() - 0.5);
    expect(sumOf(reversed)).toBe(sumOf(costs));
    expect(sumOf(shuffled)).toBe(sumOf(costs));
    const plain = (values: number[]) => values.reduce((total, value) => total + value, 0);
    expect(new Set([plain(costs), plain(reversed), plain(shuffled)]).size).toBeGreaterThan(1);
  });

  it('rounds a sum half-way between two doubles to even, as the exact sum does', () => {
    // 2^53 + 1 is half-way between 2^53 and 2^53 + 2; a tiny extra part tips it up.
    expect(sumOf([2 ** 53, 1])).toBe(2 ** 53);
    expect(sumOf([2 ** 53, 1, 1e-100])).toBe(2 ** 53 + 2);
    expect(sumOf([1e-100, 1, 2 ** 53])).toBe(2 ** 53 + 2);
  });
});
