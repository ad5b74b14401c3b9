import { describe, expect, it } from 'vitest';
import { type JudgedPair, judgeAccuracy } from './judge-accuracy.js';

const trial = (model: string, claim: string, scoreDifference: number, chosen: 1 | 2 | null, correct: boolean | null): JudgedPair => ({
  model,
  claim,
  scoreDifference,
  chosen,
  correct,
});
const bootstrap = { replicates: 2000, confidence: 0.95, seed: 3 };

describe('judge accuracy', () => {
  it('counts usable answers only, with unusable ones apart; one claim gives a degenerate interval', () => {
    const { judges } = judgeAccuracy(
      [trial('j', 'A', 2, 1, true), trial('j', 'A', 0.5, 2, true), trial('j', 'A', 1, 1, true), trial('j', 'A', 1.5, 2, false), trial('j', 'A', 3, null, null)],
      { bootstrap },
    );
    expect(judges).toEqual([
      {
        model: 'j',
        overall: { value: 0.75, ciLow: 0.75, ciHigh: 0.75, n: 4, count: 3, claims: 1, unusable: 1 },
        // Differences above 1 only: 2 (correct) and 1.5 (wrong); exactly 1 is not above 1.
        largeDifference: { value: 0.5, ciLow: 0.5, ciHigh: 0.5, n: 2, count: 1, claims: 1, unusable: 1 },
        firstChosen: { value: 0.5, ciLow: 0.5, ciHigh: 0.5, n: 4, count: 2, claims: 1 },
      },
    ]);
  });

  it('resamples claims: two claims at 100% and 0% give 4/6 with an interval spanning 0 to 1', () => {
    const trials = [...Array.from({ length: 4 }, () => trial('j', 'A', 2, 1, true)), ...Array.from({ length: 2 }, () => trial('j', 'B', 2, 2, false))];
    const { judges } = judgeAccuracy(trials, { bootstrap });
    expect(judges[0]!.overall).toEqual({ value: 4 / 6, ciLow: 0, ciHigh: 1, n: 6, count: 4, claims: 2, unusable: 0 });
    expect(judges[0]!.firstChosen.value).toBe(4 / 6);
  });

  it('sorts judges by name, keeps a judge with no large-difference pairs as n/a, and honours the threshold', () => {
    const trials = [trial('zeta', 'A', 0.5, 1, true), trial('alpha', 'A', 0.5, 2, false), trial('alpha', 'B', 2.5, 1, true)];
    const { judges, threshold } = judgeAccuracy(trials, { bootstrap });
    expect(threshold).toBe(1);
    expect(judges.map((judge) => judge.model)).toEqual(['alpha', 'zeta']);
    expect(judges[1]!.largeDifference).toMatchObject({ n: 0, count: 0, claims: 0, unusable: 0 });
    expect(judges[1]!.largeDifference.value).toBeNaN();
    expect(judgeAccuracy(trials, { bootstrap, threshold: 0.25 }).judges[1]!.largeDifference).toMatchObject({ value: 1, n: 1 });
  });

  it('is NaN for a judge whose every reply was unusable', () => {
    const { judges } = judgeAccuracy([trial('j', 'A', 2, null, null)], { bootstrap });
    expect(judges[0]!.overall).toMatchObject({ n: 0, unusable: 1 });
    expect(judges[0]!.overall.value).toBeNaN();
    expect(judges[0]!.firstChosen.n).toBe(0);
  });
});
