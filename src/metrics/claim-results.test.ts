import { describe, expect, it } from 'vitest';
import { createRandom, randomNormal } from '../domain/random.js';
import { analyzeClaims, ClaimPairRows } from './claim-results.js';
import { ClaimCellTable } from './intervals/claim-cell-table.js';

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

  // Three claims x four pairs, every pair on every claim: the two-way ANOVA without replication
  // (claims random, pairs fixed), whose error mean square has (K - 1)(P - 1) = 6 degrees of freedom.
  const planted = [
    [0.5, 0.2, 0.0, 0.3],
    [0.1, -0.2, 0.4, 0.0],
    [0.9, 0.5, 0.3, 0.6],
  ];

  it('splits the variance as the two-way ANOVA does, within claims on N - K - P + 1 degrees of freedom', () => {
    const { spread } = analysisOf((claim, pair) => planted[claim]![pair]!, 3);
    expect(spread.betweenClaimShare).toBeCloseTo(0.4906666666666666, 12);
    expect(spread.betweenClaimSd).toBeCloseTo(0.22607766610417557, 12);
    expect(spread.withinClaimSd).toBeCloseTo(0.23033791601808756, 12);
  });

  it('spends one degree of freedom per pair mean when a cell is missing too', () => {
    const table = new ClaimCellTable();
    planted.forEach((row, claim) => {
      row.forEach((value, pair) => {
        if (!(claim === 1 && pair === 2)) table.add(pairs[pair]!, `claim ${claim}`, value);
      });
    });
    const { spread } = analyzeClaims(
      where,
      table,
      (cell) => ({ persuader: cell[0]!, persuadee: cell[2]! }),
      (key) => ({ claimIndex: Number(key.split(' ')[1]), claim: key, question: null }),
    );
    expect(spread.betweenClaimShare).toBeCloseTo(0.892155087422788, 12);
    expect(spread.betweenClaimSd).toBeCloseTo(0.3122645409240673, 12);
    expect(spread.withinClaimSd).toBeCloseTo(0.10856812164275974, 12);
  });

  it('has no within-claim spread to estimate when the pair means use up every degree of freedom', () => {
    // Two claims argued by different pairs: each pair's mean is its one value, nothing is left.
    const table = new ClaimCellTable();
    for (const [pair, claim, value] of [
      ['a|x', 0, 0.4],
      ['a|y', 0, 0.1],
      ['b|x', 1, -0.3],
      ['b|y', 1, 0.6],
    ] as const)
      table.add(pair, `claim ${claim}`, value);
    const { spread } = analyzeClaims(
      where,
      table,
      (cell) => ({ persuader: cell[0]!, persuadee: cell[2]! }),
      (key) => ({ claimIndex: Number(key.split(' ')[1]), claim: key, question: null }),
    );
    expect(spread.withinClaimSd).toBeNaN();
    expect(spread.betweenClaimShare).toBeNaN();
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
