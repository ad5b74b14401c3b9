import { describe, expect, it } from 'vitest';
import type { IntervalOptions } from './intervals/claim-estimates.js';
import type { ScoredConversation } from './model-scores.js';
import { estimateWithIntervals } from './pair-estimates.js';

function conversationsOn(claims: number, nc: (claim: number) => number, persuader = 'a', persuadee = 'x'): ScoredConversation[] {
  return Array.from({ length: claims }, (_, claim) => ({ persuader, persuadee, claimKey: `c${claim}`, normalizedChange: nc(claim) }));
}

describe('estimateWithIntervals', () => {
  const options: IntervalOptions = { method: 't', replicates: 500, confidence: 0.95, seed: 3 };

  it('gives a zero-width interval when every claim agrees, and marks it thin', () => {
    const estimates = estimateWithIntervals(
      conversationsOn(20, () => 0.5),
      options,
    );
    expect(estimates.pairs[0]).toMatchObject({ mean: 0.5, ciLow: 0.5, ciHigh: 0.5, n: 20, claims: 20, thin: true });
  });

  it('brackets the point estimate and narrows with more claims', () => {
    const few = estimateWithIntervals(
      conversationsOn(10, (claim) => (claim % 2 === 0 ? 1 : 0)),
      options,
    ).effectiveness[0]!;
    const many = estimateWithIntervals(
      conversationsOn(400, (claim) => (claim % 2 === 0 ? 1 : 0)),
      options,
    ).effectiveness[0]!;
    for (const estimate of [few, many]) {
      expect(estimate.value).toBeCloseTo(0.5);
      expect(estimate.ciLow).toBeLessThan(0.5);
      expect(estimate.ciHigh).toBeGreaterThan(0.5);
    }
    expect(many.ciHigh - many.ciLow).toBeLessThan((few.ciHigh - few.ciLow) / 3);
    // Binomial standard error at n = 400 is 0.025, so a 95% interval is about 0.1 wide.
    expect(many.ciHigh - many.ciLow).toBeGreaterThan(0.07);
    expect(many.ciHigh - many.ciLow).toBeLessThan(0.13);
  });

  it('treats claims, not conversations, as the units: conversations on one claim move together', () => {
    // Ten conversations on each of two claims: two units, so the interval spans the whole scale.
    const conversations = [
      ...Array.from({ length: 10 }, () => ({ persuader: 'a', persuadee: 'x', claimKey: 'one', normalizedChange: 1 })),
      ...Array.from({ length: 10 }, () => ({ persuader: 'a', persuadee: 'x', claimKey: 'two', normalizedChange: 0 })),
    ];
    const estimate = estimateWithIntervals(conversations, options).pairs[0]!;
    expect(estimate).toMatchObject({ claims: 2, thin: true });
    // Clipped to the values NC can take.
    expect(estimate.ciLow).toBe(-1);
    expect(estimate.ciHigh).toBe(1);
  });

  it('is reproducible with a seed and differs with another, for a bootstrap method', () => {
    const conversations = conversationsOn(30, (claim) => ((claim * 7) % 5) / 4);
    const percentile: IntervalOptions = { ...options, method: 'percentile' };
    const first = estimateWithIntervals(conversations, percentile);
    expect(estimateWithIntervals(conversations, percentile)).toEqual(first);
    expect(estimateWithIntervals(conversations, { ...percentile, seed: 4 }).pairs[0]!.ciLow).not.toBe(first.pairs[0]!.ciLow);
  });

  it('returns nothing, not a crash, when there are no conversations', () => {
    const estimates = estimateWithIntervals([], options);
    expect(estimates.pairs).toEqual([]);
    expect(estimates.comparisons).toEqual([]);
    expect(estimates.claims).toBe(0);
  });
});

describe('comparisons between models', () => {
  const options: IntervalOptions = { method: 't', replicates: 0, confidence: 0.95, seed: 0 };
  // Two persuaders against one persuadee on 40 claims: a moves it by 0.3 more than b, plus a claim effect both share.
  const claimEffect = (claim: number) => ((claim * 37) % 11) / 20;
  const conversations = [
    ...conversationsOn(40, (claim) => Math.min(1, claimEffect(claim) + 0.3 + ((claim % 3) - 1) / 20), 'a'),
    ...conversationsOn(40, (claim) => claimEffect(claim) + ((claim % 2) - 0.5) / 20, 'b'),
  ];
  const { comparisons } = estimateWithIntervals(conversations, options);

  it('pairs the difference over shared claims: the claim effect cancels and a real gap is significant', () => {
    const comparison = comparisons.find((entry) => entry.measure === 'effectiveness')!;
    expect(comparison).toMatchObject({ first: 'a', second: 'b', claims: 40, thin: false });
    expect(comparison.difference).toBeGreaterThan(0.25);
    expect(comparison.ciLow).toBeGreaterThan(0.2);
    expect(comparison.p).toBeLessThan(1e-10);
    // One comparison per measure and domain: Holm changes nothing.
    expect(comparison.pHolm).toBe(comparison.p);
  });

  it('has no susceptibility comparison with a single persuadee', () => {
    expect(comparisons.filter((entry) => entry.measure === 'susceptibility')).toEqual([]);
  });

  it('adjusts the p-values of a family of comparisons by Holm', () => {
    const three = [
      ...conversationsOn(30, (claim) => (claim % 4) / 4, 'a'),
      ...conversationsOn(30, (claim) => ((claim + 1) % 4) / 4, 'b'),
      ...conversationsOn(30, (claim) => ((claim % 4) + 1) / 5, 'c'),
    ];
    const family = estimateWithIntervals(three, options).comparisons.filter((entry) => entry.measure === 'effectiveness');
    expect(family.map((entry) => `${entry.first}-${entry.second}`)).toEqual(['a-b', 'a-c', 'b-c']);
    const smallest = Math.min(...family.map((entry) => entry.p));
    const first = family.find((entry) => entry.p === smallest)!;
    expect(first.pHolm).toBeCloseTo(Math.min(1, 3 * smallest), 12);
    for (const entry of family) expect(entry.pHolm).toBeGreaterThanOrEqual(entry.p);
  });

  it('pairs over the claims both models have, counts only those, and says which claims of a headline value it leaves out', () => {
    // a has NC 0.2, 0.4, 0.6, 0.8, 1 on claims 0-4; b has 0.1, 0.2, 0.3 on claims 0-2 (its conversations on 3 and 4 failed).
    const shared = estimateWithIntervals(
      [...conversationsOn(5, (claim) => (claim + 1) / 5, 'a'), ...conversationsOn(3, (claim) => (claim + 1) / 10, 'b')],
      options,
    );
    expect(shared.effectiveness.map(({ model, value, claims }) => ({ model, value, claims }))).toEqual([
      { model: 'a', value: expect.closeTo(0.6, 12), claims: 5 },
      { model: 'b', value: expect.closeTo(0.2, 12), claims: 3 },
    ]);
    const comparison = shared.comparisons.find((entry) => entry.measure === 'effectiveness')!;
    // Over claims 0-2: a 0.4, b 0.2; per-claim differences 0.1, 0.2, 0.3: SE 0.1 / sqrt(3).
    expect(comparison.difference).toBeCloseTo(0.2, 12);
    expect(comparison.se).toBeCloseTo(0.1 / Math.sqrt(3), 12);
    expect(comparison).toMatchObject({ claims: 3, claimsLeftOut: { first: 2, second: 0 } });
    // Nothing to leave out: both values are those shown.
    expect(comparisons.find((entry) => entry.measure === 'effectiveness')!.claimsLeftOut).toEqual({ first: 0, second: 0 });
  });
});
