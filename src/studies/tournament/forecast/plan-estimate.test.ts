import { describe, expect, it } from 'vitest';
import type { Claim } from '../../../domain/claim.js';
import { estimatePlan, expectedCallsAfterPrefix, expectedCallsFrom, NOTHING_STORED, type StoredProgress } from './plan-estimate.js';

const claim: Claim = { index: 0, domain: 'subjective', claim: 'A claim', origin: 'test', license: 'x' };
const assumptions = { earlyStopRate: () => 0, replyTokens: 200, prices: () => undefined };

describe('expectedCallsAfterPrefix', () => {
  it.each([
    [3, 0, 1],
    [3, 0.5, 1],
    [9, 0, 7],
    [9, 1, 2],
    [5, 0.5, 0.5 * 2 + 0.5 * 3],
  ])('t = %i at stop rate %d expects %d calls after turn 2', (turns, rate, expected) => {
    expect(expectedCallsAfterPrefix(turns, rate)).toBeCloseTo(expected);
  });
});

describe('expectedCallsFrom', () => {
  it.each([
    [3, 0.3],
    [9, 0],
    [9, 0.1],
    [9, 1],
    [11, 0.6],
  ])('from turn 3 of t = %i at stop rate %d, equals expectedCallsAfterPrefix', (turns, rate) => {
    expect(expectedCallsFrom(turns, 3, rate)).toBeCloseTo(expectedCallsAfterPrefix(turns, rate), 12);
  });

  it.each([
    ['the final decision alone', 9, 9, 0.5, 0, 1],
    ['nothing after the end', 9, 10, 0.5, 0, 0],
    ['an argument, then the final decision', 9, 8, 0.5, 0, 2],
    ['a reply, then the final decision either way', 9, 7, 0.5, 0, 1 + 0.5 + 0.5 * 2],
    ['a reply and an argument that may each fail the conversation', 9, 7, 0.5, 0.5, 1 + 0.5 * (0.5 + 0.5 * (1 + 0.5 * 1))],
    ['every call failing: only the next one', 9, 3, 0.1, 1, 1],
  ])('%s: t = %i from turn %i, stop rate %d, failure rate %d', (_case, turns, nextTurn, rate, failureRate, expected) => {
    expect(expectedCallsFrom(turns, nextTurn, rate, failureRate)).toBeCloseTo(expected, 12);
  });
});

describe('estimatePlan', () => {
  it('counts shared openings and first arguments once', () => {
    const single = estimatePlan({ persuaders: ['a', 'b'], persuadees: ['a', 'b'], claims: [claim], settings: ['single'], runSeed: 0 }, assumptions);
    expect(single).toMatchObject({ conversations: 4, callsUpperBound: 2 + 4 + 4, callsExpected: 10, bySetting: { 'subjective single': 4 } });
    const both = estimatePlan({ persuaders: ['a', 'b'], persuadees: ['a', 'b'], claims: [claim], settings: ['single', 'multi'], runSeed: 0 }, assumptions);
    expect(both.callsUpperBound).toBe(2 + 4 + 4 * 1 + 4 * 7);
  });

  it("includes a persuader-only model's stance opening, and prices what has prices", () => {
    const estimate = estimatePlan(
      { persuaders: ['er'], persuadees: ['ee'], claims: [claim], settings: ['single'], runSeed: 0 },
      { ...assumptions, prices: (model) => (model === 'er' ? { inputUsdPerMillion: 1, outputUsdPerMillion: 2 } : undefined) },
    );
    expect(estimate.callsUpperBound).toBe(2 + 1 + 1);
    expect(estimate.byModel.find((model) => model.model === 'er')).toMatchObject({ calls: 2 });
    expect(estimate.byModel.find((model) => model.model === 'er')?.costUsd).toBeGreaterThan(0);
    // One model has no prices: the total is what the others cost, and says which model it leaves out.
    expect(estimate.costUsd).toBe(estimate.byModel.find((model) => model.model === 'er')?.costUsd);
    expect(estimate.unpricedModels).toEqual(['ee']);
  });

  it('expects a prompt cache to serve each later call of a long conversation its previous call, and prices it so', () => {
    const design = { persuaders: ['a'], persuadees: ['a'], claims: [claim], settings: ['multi' as const], multiTurns: 15, runSeed: 0 };
    const prices = () => ({ inputUsdPerMillion: 2, outputUsdPerMillion: 8, cachedInputUsdPerMillion: 0.5 });
    const uncached = estimatePlan(design, { ...assumptions, replyTokens: 400, prices }).byModel[0]!;
    expect(uncached).toMatchObject({ cachedInputTokens: 0, cacheWriteTokens: 0, promptCached: false });
    const openai = estimatePlan(design, { ...assumptions, replyTokens: 400, prices, promptCache: () => ({ minTokens: 1024, writes: false }) }).byModel[0]!;
    // Same calls and tokens; part of the input served from the cache, and cheaper for it.
    expect(openai).toMatchObject({ calls: uncached.calls, inputTokens: uncached.inputTokens, cacheWriteTokens: 0, promptCached: true });
    expect(openai.cachedInputTokens / openai.inputTokens).toBeGreaterThan(0.3);
    expect(openai.cachedInputTokens).toBeLessThan(openai.inputTokens);
    expect(openai.costUsd).toBeCloseTo(uncached.costUsd! - (openai.cachedInputTokens * (2 - 0.5)) / 1e6, 5);
    // Anthropic writes what goes beyond the cached prefix, at 1.25 x the input price unless set.
    const anthropic = estimatePlan(design, { ...assumptions, replyTokens: 400, prices, promptCache: () => ({ minTokens: 1024, writes: true }) }).byModel[0]!;
    expect(anthropic.cacheWriteTokens).toBeGreaterThan(0);
    expect(anthropic.cachedInputTokens + anthropic.cacheWriteTokens).toBeLessThanOrEqual(anthropic.inputTokens);
    expect(anthropic.costUsd).toBeGreaterThan(openai.costUsd!);
  });

  it('expects no cached input in single-turn conversations, whose prefixes are shorter than a cache takes', () => {
    const design = { persuaders: ['a'], persuadees: ['a'], claims: [claim], settings: ['single' as const], runSeed: 0 };
    const estimate = estimatePlan(design, { ...assumptions, promptCache: () => ({ minTokens: 1024, writes: false }) });
    expect(estimate.byModel[0]).toMatchObject({ cachedInputTokens: 0, promptCached: true });
  });

  const persuaderOnly = { x: { persuader: { system: '{{claim}} {{format}}' } } };

  it("counts a persuader-only variant's openings and stance as its model's: asked once", () => {
    const design = { persuaders: ['a', 'a+x'], persuadees: ['a'], claims: [claim], settings: ['single' as const], runSeed: 0 };
    // One opening (a's, which is a+x's stance too), two first arguments, two final decisions.
    expect(estimatePlan({ ...design, variants: persuaderOnly }, assumptions).callsUpperBound).toBe(1 + 2 + 2);
    // Without the variant defined, a+x would be an agent of its own, with an opening of its own.
    expect(estimatePlan(design, assumptions).callsUpperBound).toBe(2 + 2 + 2);
    // As a persuadee, a+x asks what a asks: its conversations are a's.
    const asPersuadee = { persuaders: ['b'], persuadees: ['a', 'a+x'], claims: [claim], settings: ['single' as const], runSeed: 0, variants: persuaderOnly };
    expect(estimatePlan(asPersuadee, assumptions).callsUpperBound).toBe(2 + 1 + 1);
  });

  it('gives each repetition openings of its own', () => {
    const estimate = estimatePlan(
      { persuaders: ['a', 'b'], persuadees: ['a', 'b'], claims: [claim], settings: ['single'], repetitions: 2, runSeed: 0 },
      assumptions,
    );
    expect(estimate.callsUpperBound).toBe(2 * (2 + 4 + 4));
  });

  it('leaves out what the store holds: a whole conversation, its prefix, or its stance', () => {
    const design = { persuaders: ['er'], persuadees: ['ee'], claims: [claim], settings: ['multi' as const], runSeed: 0 };
    const upper = (progress: Partial<StoredProgress>) => estimatePlan(design, assumptions, () => ({ ...NOTHING_STORED, ...progress })).callsUpperBound;
    expect(upper({})).toBe(2 + 1 + 7);
    expect(upper({ stanceStored: true })).toBe(1 + 1 + 7);
    expect(upper({ stanceStored: true, storedTurns: 2 })).toBe(7);
    expect(upper({ stanceStored: true, storedTurns: 6 })).toBe(3);
    expect(upper({ stanceStored: true, storedTurns: 5, nextIsFinal: true })).toBe(1);
    expect(upper({ stanceStored: true, complete: true })).toBe(0);
    const none = estimatePlan(design, { ...assumptions, prices: () => ({ inputUsdPerMillion: 1 }) }, () => ({
      ...NOTHING_STORED,
      complete: true,
      stanceStored: true,
    }));
    expect(none).toMatchObject({ callsExpected: 0, costUsd: 0, unpricedModels: [] });
  });
});
