import { describe, expect, it } from 'vitest';
import { peopleStudyRecords, plantedMean, recordWithNc } from '../../../test/support/people-records.js';
import { DEFAULT_INTERVALS } from '../intervals/claim-estimates.js';
import { holmAdjust } from '../intervals/holm.js';
import { PeopleTally } from './people-comparison.js';

const PEOPLE = { weights: [0.1, 0.2, 0.4, 0.3] } as const;
const ALPHA = { weights: [0.1, 0.5, 0.3, 0.1] } as const;
const BETA = { weights: [0.1, 0.8, 0.1, 0] } as const;

function analyse(records: ReturnType<typeof peopleStudyRecords>, followUps: Parameters<PeopleTally['finish']>[1] = []) {
  const tally = new PeopleTally();
  for (const record of records) tally.add(record);
  return tally.finish(DEFAULT_INTERVALS, followUps);
}

/** The mean over claims of each claim's mean NC of the conversations that `pick` keeps. */
function claimMean(records: ReturnType<typeof peopleStudyRecords>, pick: (persuadee: string) => boolean): Map<string, number> {
  const sums = new Map<string, { sum: number; count: number }>();
  for (const record of records.filter((entry) => pick(entry.persuadee))) {
    const entry = sums.get(record.claim) ?? { sum: 0, count: 0 };
    entry.sum += record.normalizedChange!;
    entry.count += 1;
    sums.set(record.claim, entry);
  }
  return new Map([...sums].map(([claim, { sum, count }]) => [claim, sum / count]));
}

describe('people against model persuadees', () => {
  const records = peopleStudyRecords({ claims: 30, opponent: 'opponent', people: PEOPLE, models: { alpha: ALPHA, beta: BETA }, repetitions: 3, seed: 7 });
  const analysis = analyse(records);

  it('finds the planted differences inside their intervals, each claim counting once', () => {
    expect(analysis.comparisons.map((row) => row.model)).toEqual(['alpha', 'beta']);
    const people = claimMean(records, (persuadee) => persuadee.startsWith('person/'));
    for (const [model, planted] of [
      ['alpha', ALPHA],
      ['beta', BETA],
    ] as const) {
      const row = analysis.comparisons.find((entry) => entry.model === model)!;
      const modelMeans = claimMean(records, (persuadee) => persuadee === model);
      const byHand = [...people].reduce((total, [claim, mean]) => total + mean - modelMeans.get(claim)!, 0) / people.size;
      expect(row.difference).toBeCloseTo(byHand, 12);
      expect(row.ciLow).toBeLessThan(plantedMean(PEOPLE) - plantedMean(planted));
      expect(row.ciHigh).toBeGreaterThan(plantedMean(PEOPLE) - plantedMean(planted));
      expect(row).toMatchObject({ claims: 30, role: 'persuadee', measure: 'susceptibility', opponents: ['opponent'], peopleClaimsLeftOut: 0, thin: false });
      expect(row.people.conversations).toBe(40);
      expect(row.modelValue.conversations).toBe(90);
      expect(row.people.ciLow).toBeLessThan(row.people.value);
      expect(row.modelValue.ciHigh).toBeGreaterThan(row.modelValue.value);
    }
    // 0.45 against 0: a difference a reader should be told is real.
    expect(analysis.comparisons[1]!.pHolm).toBeLessThan(0.05);
    expect(analysis.comparisons.map((row) => row.pHolm)).toEqual(holmAdjust(analysis.comparisons.map((row) => row.p)));
  });

  it('draws the agreement curve turn by turn over the same claims: the opening, the reply, the final decision', () => {
    const curve = analysis.comparisons[0]!.curve;
    expect(curve.map((point) => point.turn)).toEqual([1, 3, 5]);
    expect(curve[0]!.people.value).toBe(3);
    expect(curve[0]!.model.value).toBe(3);
    // The final score is 3 + 2 NC for a rise and 3 + 2 NC for a fall from 3 alike.
    expect(curve[2]!.people.value).toBeCloseTo(3 + 2 * analysis.comparisons[0]!.people.value, 12);
    expect(curve[2]!.people.conversations).toBe(40);
  });

  it('counts persons and their conversations', () => {
    expect(analysis.counts).toEqual({ persons: 40, completed: 40, failed: 0 });
    expect(analysis.estimates).toHaveLength(1);
    expect(analysis.estimates[0]).toMatchObject({ role: 'persuadee', claims: 30, conversations: 40, modelsInRole: 2 });
  });

  it("compares only the claims both have, and says how many of the people's claims it left out", () => {
    const fewer = records.filter((record) => !(record.persuadee === 'beta' && ['claim 1', 'claim 2'].includes(record.claim)));
    const row = analyse(fewer).comparisons.find((entry) => entry.model === 'beta')!;
    expect(row.claims).toBe(28);
    expect(row.peopleClaimsLeftOut).toBe(2);
    expect(row.people.conversations).toBe(38);
  });
});

describe("the report's other interval methods", () => {
  it('resample claims for the people comparison as for every other estimate', () => {
    const records = peopleStudyRecords({ claims: 30, opponent: 'opponent', people: PEOPLE, models: { alpha: ALPHA }, repetitions: 3, seed: 7 });
    const tally = new PeopleTally();
    for (const record of records) tally.add(record);
    const t = tally.finish(DEFAULT_INTERVALS).comparisons[0]!;
    const percentile = tally.finish({ ...DEFAULT_INTERVALS, method: 'percentile', replicates: 500, seed: 3 }).comparisons[0]!;
    expect(percentile.difference).toBe(t.difference);
    expect(percentile.p).toBe(t.p);
    expect(percentile.ciLow).not.toBe(t.ciLow);
    expect(percentile.ciLow).toBeLessThan(percentile.difference);
    expect(percentile.ciHigh).toBeGreaterThan(percentile.difference);
    // Both intervals are about as wide: the same claims, the same spread.
    expect((percentile.ciHigh - percentile.ciLow) / (t.ciHigh - t.ciLow)).toBeGreaterThan(0.7);
    expect((percentile.ciHigh - percentile.ciLow) / (t.ciHigh - t.ciLow)).toBeLessThan(1.3);
  });
});

describe('people without a model to compare', () => {
  it('gives the people their own value and no comparison', () => {
    const records = peopleStudyRecords({ claims: 12, opponent: 'opponent', people: PEOPLE, models: {}, repetitions: 0, seed: 3 });
    const analysis = analyse(records);
    expect(analysis.comparisons).toEqual([]);
    expect(analysis.estimates).toEqual([expect.objectContaining({ modelsInRole: 0, claims: 12, conversations: 16 })]);
  });

  it('reads people as persuaders against model persuaders on effectiveness', () => {
    const records = [1, 2, 3].flatMap((claim) => [
      recordWithNc({ persuader: `person/p-${claim}`, persuadee: 'target', claim: `claim ${claim}`, nc: 1 }),
      recordWithNc({ persuader: 'gamma', persuadee: 'target', claim: `claim ${claim}`, nc: 0 }),
    ]);
    const analysis = analyse(records);
    expect(analysis.comparisons).toEqual([
      expect.objectContaining({ role: 'persuader', measure: 'effectiveness', model: 'gamma', difference: 1, claims: 3, thin: true, opponents: ['target'] }),
    ]);
  });
});

describe('the follow-up change', () => {
  it('is the follow-up rating minus the final decision, each claim counting once; ratings of no person persuadee are counted apart', () => {
    const records = [1, 2, 3].flatMap((claim) => [recordWithNc({ persuader: 'opponent', persuadee: `person/p-${claim}`, claim: `claim ${claim}`, nc: 0.5 })]);
    const extra = recordWithNc({ persuader: 'opponent', persuadee: 'person/p-9', claim: 'claim 1', nc: 1 });
    const analysis = analyse(
      [...records, extra],
      [
        { conversationId: records[0]!.conversationId, score: 3 },
        { conversationId: extra.conversationId, score: 4 },
        { conversationId: records[1]!.conversationId, score: 4 },
        { conversationId: 'not-a-conversation', score: 5 },
      ],
    );
    // Claim 1: (3 - 4) and (4 - 5), mean -1; claim 2: 4 - 4 = 0. Mean over claims: -0.5.
    expect(analysis.followUp).toEqual([expect.objectContaining({ change: -0.5, participants: 3, claims: 2, thin: true })]);
    expect(analysis.followUpsUnmatched).toBe(1);
  });
});
