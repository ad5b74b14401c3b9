import { describe, expect, it } from 'vitest';
import { estimateWithIntervals } from './bootstrap.js';
import type { ScoredConversation } from './model-scores.js';

function conversationsOn(claims: number, nc: (claim: number) => number): ScoredConversation[] {
  return Array.from({ length: claims }, (_, claim) => ({ persuader: 'a', persuadee: 'x', claimKey: `c${claim}`, normalizedChange: nc(claim) }));
}

describe('estimateWithIntervals', () => {
  const options = { replicates: 500, confidence: 0.95, seed: 3 };

  it('gives a zero-width interval when every claim agrees', () => {
    const estimates = estimateWithIntervals(
      conversationsOn(20, () => 0.5),
      options,
    );
    expect(estimates.pairs[0]).toMatchObject({ mean: 0.5, ciLow: 0.5, ciHigh: 0.5, n: 20 });
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

  it('resamples claims, not conversations: conversations on one claim move together', () => {
    // Ten conversations on each of two claims: there are only two units, so the interval spans both values.
    const conversations = [
      ...Array.from({ length: 10 }, () => ({ persuader: 'a', persuadee: 'x', claimKey: 'one', normalizedChange: 1 })),
      ...Array.from({ length: 10 }, () => ({ persuader: 'a', persuadee: 'x', claimKey: 'two', normalizedChange: 0 })),
    ];
    const estimate = estimateWithIntervals(conversations, options).pairs[0]!;
    expect(estimate.ciLow).toBe(0);
    expect(estimate.ciHigh).toBe(1);
  });

  it('is reproducible with a seed and differs with another', () => {
    const conversations = conversationsOn(30, (claim) => ((claim * 7) % 5) / 4);
    const first = estimateWithIntervals(conversations, options);
    expect(estimateWithIntervals(conversations, options)).toEqual(first);
    expect(estimateWithIntervals(conversations, { ...options, seed: 4 }).pairs[0]!.ciLow).not.toBe(first.pairs[0]!.ciLow);
  });

  it('returns NaN bounds, not a crash, when there is nothing to resample', () => {
    const estimates = estimateWithIntervals([], options);
    expect(estimates.pairs).toEqual([]);
    expect(estimates.claims).toBe(0);
  });
});
