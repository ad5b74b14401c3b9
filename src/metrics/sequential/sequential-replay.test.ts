import { describe, expect, it } from 'vitest';
import { replaySequentialRule, type SequentialScore, sequentialClaimOrder, sequentialWaves } from './sequential-replay.js';

const claim = (index: number) => ({ domain: 'subjective' as const, claim: `claim ${index}`, question: null });

/** One claim's four single-turn conversations: `a` persuades by `gap` more than `b`; both are equally susceptible. */
function claimScores(index: number, gap: number): SequentialScore[] {
  const base = { ...claim(index), setting: 'single' as const, status: 'completed' as const };
  return [
    { ...base, persuader: 'a', persuadee: 'a', normalizedChange: 0.2 + gap },
    { ...base, persuader: 'a', persuadee: 'b', normalizedChange: 0.2 + gap },
    { ...base, persuader: 'b', persuadee: 'a', normalizedChange: 0.2 },
    { ...base, persuader: 'b', persuadee: 'b', normalizedChange: 0.2 },
  ];
}

const models = { persuaders: ['a', 'b'], persuadees: ['a', 'b'], groups: [{ domain: 'subjective' as const, setting: 'single' as const }] };

describe('sequentialClaimOrder', () => {
  it('orders any subset of the claims as the whole order does, and the order depends on the seed', () => {
    const claims = Array.from({ length: 50 }, (_, index) => claim(index));
    const whole = sequentialClaimOrder(claims, 7);
    const subset = claims.filter((_, index) => index % 3 === 0);
    expect(sequentialClaimOrder(subset, 7)).toEqual(whole.filter((entry) => subset.includes(entry)));
    expect(sequentialClaimOrder(claims, 8)).not.toEqual(whole);
    expect(new Set(whole.map((entry) => entry.claim)).size).toBe(50);
  });

  it('a claim of a run (question undefined) sorts with its stored record (question null)', () => {
    const run = [
      { domain: 'subjective' as const, claim: 'x' },
      { domain: 'subjective' as const, claim: 'y' },
    ];
    const stored = run.map((entry) => ({ ...entry, question: null }));
    expect(sequentialClaimOrder(run, 3).map((entry) => entry.claim)).toEqual(sequentialClaimOrder(stored, 3).map((entry) => entry.claim));
  });
});

describe('sequentialWaves', () => {
  it.each([
    [7, 3, [3, 3, 1]],
    [6, 3, [3, 3]],
    [2, 10, [2]],
    [0, 10, []],
  ])('%i claims in waves of %i', (count, wave, sizes) => {
    expect(
      sequentialWaves(
        Array.from({ length: count }, (_, index) => index),
        wave,
      ).map((entries) => entries.length),
    ).toEqual(sizes);
  });
});

describe('replaySequentialRule', () => {
  const rule = { until: 'settled' as const, confidence: 0.95, wave: 10 };

  it('stops after the first wave that settles everything, at a wave boundary', () => {
    // A constant gap of 0.5 NC for effectiveness, none for susceptibility: the susceptibility comparison never settles.
    const conversations = Array.from({ length: 100 }, (_, index) => claimScores(index, 0.5)).flat();
    const summary = replaySequentialRule({ rule, models, runSeed: 1, claimsPlanned: 100, conversations });
    expect(summary.stoppedBecause).toBe('claims ran out');
    expect(summary.claimsRun).toBe(100);
    const effectiveness = summary.quantities.find((quantity) => quantity.key.startsWith('effectiveness'))!;
    expect(effectiveness.settled).toBe(true);
    expect(effectiveness.lower).toBeGreaterThan(0);
    expect(summary.quantities.find((quantity) => quantity.key.startsWith('susceptibility'))!.settled).toBe(false);
  });

  it('with only the effectiveness comparison to settle, stops early and counts the claims it replayed', () => {
    const conversations = Array.from({ length: 100 }, (_, index) => claimScores(index, 0.5)).flat();
    const persuadersOnly = { ...models, persuadees: ['a'] };
    const summary = replaySequentialRule({
      rule,
      models: persuadersOnly,
      runSeed: 1,
      claimsPlanned: 100,
      conversations: conversations.filter((entry) => entry.persuadee === 'a'),
    });
    expect(summary.stoppedBecause).toBe('settled');
    expect(summary.claimsRun).toBeLessThan(100);
    expect(summary.claimsRun % 10).toBe(0);
    expect(summary.quantities).toEqual([expect.objectContaining({ key: 'effectiveness subjective/single a - b', settled: true, count: summary.claimsRun })]);
  });

  it('says a run that holds fewer claims than planned and is not settled has not finished', () => {
    const conversations = Array.from({ length: 15 }, (_, index) => claimScores(index, 0)).flat();
    const summary = replaySequentialRule({ rule, models, runSeed: 1, claimsPlanned: 100, conversations });
    expect(summary).toMatchObject({ stoppedBecause: 'not finished', claimsRun: 15, claimsPlanned: 100 });
  });

  it('estimates count only with a precision', () => {
    const conversations = Array.from({ length: 20 }, (_, index) => claimScores(index, 0.5)).flat();
    const without = replaySequentialRule({ rule, models, runSeed: 1, claimsPlanned: 20, conversations });
    const withPrecision = replaySequentialRule({ rule: { ...rule, precision: 0.3 }, models, runSeed: 1, claimsPlanned: 20, conversations });
    expect(without.quantities.map((quantity) => quantity.kind)).toEqual(['comparison', 'comparison']);
    expect(withPrecision.quantities.filter((quantity) => quantity.kind === 'estimate')).toHaveLength(4);
  });
});
