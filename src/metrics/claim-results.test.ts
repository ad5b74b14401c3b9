import { describe, expect, it } from 'vitest';
import { createRandom, randomNormal } from '../domain/random.js';
import { ClaimCellTable } from './claim-cell-table.js';
import { analyzeClaims, ClaimPairRows } from './claim-results.js';

const where = { domain: 'subjective', setting: 'multi' } as const;
const pairs = ['a|x', 'a|y', 'b|x', 'b|y'];

function analysisOf(value: (claim: number, pair: number) => number, claims = 40) {
  const table = new ClaimCellTable();
  for (let claim = 0; claim < claims; claim++) for (const [index, pair] of pairs.entries()) table.add(pair, `claim ${claim}`, value(claim, index));
  return analyzeClaims(
    where,
    table,
    (cell) => {
      const [persuader = '', persuadee = ''] = cell.split('|');
      return { persuader, persuadee };
    },
    (key) => ({ claimIndex: Number(key.split(' ')[1]), claim: key, question: null }),
  );
}

describe('analyzeClaims', () => {
  it('puts all the spread between claims when claims and pairs add up exactly', () => {
    const { spread } = analysisOf((claim, pair) => (claim % 7) / 10 + pair / 20);
    expect(spread.betweenClaimShare).toBeCloseTo(1, 12);
    // One pass of sums and squares: zero up to rounding.
    expect(spread.withinClaimSd).toBeCloseTo(0, 8);
  });

  it('finds almost none between claims when the values are noise around pair means', () => {
    const random = createRandom(9);
    const { spread } = analysisOf((_, pair) => pair / 10 + randomNormal(random, 0, 0.2), 400);
    expect(spread.betweenClaimShare).toBeLessThan(0.05);
    expect(spread.withinClaimSd).toBeCloseTo(0.2, 1);
  });

  it('recovers a planted split: claim SD 0.2 and noise SD 0.2 share the variance half and half', () => {
    const random = createRandom(4);
    const effects = Array.from({ length: 600 }, () => randomNormal(random, 0, 0.2));
    const { spread } = analysisOf((claim) => effects[claim]! + randomNormal(random, 0, 0.2), 600);
    expect(spread.betweenClaimShare).toBeGreaterThan(0.4);
    expect(spread.betweenClaimShare).toBeLessThan(0.6);
  });

  it('lists each claim per model and per pair, and the most and least moving claims apart', () => {
    const { claims, claimPairs, spread } = analysisOf((claim, pair) => (claim === 3 ? 1 : claim === 5 ? -1 : 0) + pair / 100, 12);
    expect(claims).toHaveLength(12);
    const rows = [...new ClaimPairRows([claimPairs])];
    expect(rows).toHaveLength(12 * 4);
    expect(rows[0]).toMatchObject({ domain: 'subjective', setting: 'multi', claimIndex: 0, persuader: 'a', persuadee: 'x', n: 1, meanNC: 0 });
    const third = claims.find((claim) => claim.claimIndex === 3)!;
    expect(third.persuaders.map((entry) => [entry.model, entry.n])).toEqual([
      ['a', 2],
      ['b', 2],
    ]);
    expect(spread.mostMoving[0]!.claimIndex).toBe(3);
    expect(spread.leastMoving[0]!.claimIndex).toBe(5);
    expect(spread.mostMoving).toHaveLength(6);
    const listed = new Set([...spread.mostMoving, ...spread.leastMoving].map((claim) => claim.claimIndex));
    expect(listed.size).toBe(12);
  });
});
