import { describe, expect, it } from 'vitest';
import { ordinalAlphaByDefinition as alphaByDefinition } from '../../../../test/support/ordinal-alpha.js';
import { createRandom, randomIndex } from '../../../domain/random.js';
import { PERSUSAFETY_STRATEGIES, type PersusafetyScore } from '../persusafety-facts.js';
import { type JudgedPair, persusafetyJudgeAgreement } from './persusafety-judge-agreement.js';

const OPTIONS = { replicates: 500, confidence: 0.95, seed: 3 };

/** `conversations` with 15 drawn true scores each; the second judge gives another score with chance `error`. */
function plantedPairs(conversations: number, error: number, seed: number): JudgedPair[] {
  const random = createRandom(seed);
  return Array.from({ length: conversations }, (_, index) => {
    const first = PERSUSAFETY_STRATEGIES.map(() => [0, 0, 1, 2][randomIndex(random, 4)] as PersusafetyScore);
    const second = first.map((score) => (random() < error ? (((score + 1 + randomIndex(random, 2)) % 3) as PersusafetyScore) : score));
    return { itemKey: `c${index}`, first, second };
  });
}

describe('persusafetyJudgeAgreement', () => {
  it('equals alpha worked out from its definition, per strategy and pooled, with n and the share each scored 2', () => {
    const pairs = plantedPairs(40, 0.3, 11);
    const agreements = persusafetyJudgeAgreement(pairs, OPTIONS);
    expect(agreements.map((agreement) => agreement.strategy)).toEqual([...PERSUSAFETY_STRATEGIES, 'all']);
    PERSUSAFETY_STRATEGIES.forEach((strategy, index) => {
      const scores = pairs.map((pair) => [pair.first![index]!, pair.second![index]!] as const);
      const agreement = agreements[index]!;
      expect(agreement.alpha, strategy).toBeCloseTo(alphaByDefinition(scores), 12);
      expect(agreement.conversations).toBe(40);
      expect(agreement.firstClearlyUsed).toBeCloseTo(scores.filter(([a]) => a === 2).length / 40, 12);
      expect(agreement.secondClearlyUsed).toBeCloseTo(scores.filter(([, b]) => b === 2).length / 40, 12);
      expect(agreement.sameScore).toBeCloseTo(scores.filter(([a, b]) => a === b).length / 40, 12);
      expect(agreement.ciLow).toBeLessThanOrEqual(agreement.alpha);
      expect(agreement.ciHigh).toBeGreaterThanOrEqual(agreement.alpha);
    });
    const pooled = pairs.flatMap((pair) => pair.first!.map((score, index) => [score, pair.second![index]!] as const));
    expect(agreements.at(-1)!.alpha).toBeCloseTo(alphaByDefinition(pooled), 12);
  });

  it('is 1 when the judges agree, and falls as the planted error of the second judge rises', () => {
    const pooled = [0, 0.1, 0.3, 0.6].map((error) => persusafetyJudgeAgreement(plantedPairs(60, error, 5), OPTIONS).at(-1)!);
    expect(pooled[0]!.alpha).toBe(1);
    for (let index = 1; index < pooled.length; index++) expect(pooled[index]!.alpha).toBeLessThan(pooled[index - 1]!.alpha);
    // Most of the way from agreement to chance: wrong 60% of the time (more than chance's 2 in 3 of a different score is not planted).
    expect(pooled.at(-1)!.alpha).toBeLessThan(0.3);
  });

  it('leaves out a conversation either judge did not score, and says no value where the scores never vary', () => {
    const scores = PERSUSAFETY_STRATEGIES.map((): PersusafetyScore => 0);
    const agreements = persusafetyJudgeAgreement(
      [
        { itemKey: 'a', first: scores, second: scores },
        { itemKey: 'b', first: undefined, second: scores },
        { itemKey: 'c', first: scores, second: undefined },
      ],
      OPTIONS,
    );
    expect(agreements[0]!.conversations).toBe(1);
    expect(agreements[0]!.alpha).toBeNaN();
    expect(agreements[0]!.ciLow).toBeNaN();
    expect(persusafetyJudgeAgreement([], OPTIONS).at(-1)!.conversations).toBe(0);
  });
});
