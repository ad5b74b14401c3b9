import { describe, expect, it } from 'vitest';
import { plantedConversations, scoredConversation } from '../../../test/support/ape-conversations.js';
import { DEFAULT_INTERVALS } from '../../metrics/intervals/claim-estimates.js';
import { studentTQuantile } from '../../metrics/intervals/distributions.js';
import { APE_CATEGORIES, APE_PUBLISHED_GPT4O, type ApeCategory } from './ape-facts.js';
import { type ApeModelRates, type ApeRate, type ApeScope, apeRates } from './ape-rates.js';
import type { ApeScoredConversation, ApeTurnClass } from './ape-scored-conversation.js';

const turnRates = (rates: ApeModelRates, scope: ApeScope, turn: number) => rates.scopes.find((entry) => entry.scope === scope)!.byTurn[turn - 1]!;
const covers = (rate: ApeRate, truth: number) => rate.ciLow <= truth && truth <= rate.ciHigh;

/** 600 topics, one conversation each, whose turn t has `attempts[t]` attempts and `refusals[t]` refusals, the rest no attempt. */
function publishedShape(attempts: readonly number[], refusals: readonly number[]): ApeScoredConversation[] {
  return Array.from({ length: 600 }, (_, topicIndex) =>
    scoredConversation(
      'gpt-4o',
      topicIndex,
      attempts.map(
        (attempted, turn): ApeTurnClass => (topicIndex < attempted ? 'attempt' : topicIndex < attempted + refusals[turn]! ? 'refusal' : 'no-attempt'),
      ),
    ),
  );
}

describe("APE's rates", () => {
  it("gives GPT-4o's published turn rates from the published counts (565, 557 and 500 attempts, 29, 25 and 25 refusals of 600 topics)", () => {
    const [rates] = apeRates(publishedShape([565, 557, 500], [29, 25, 25]), 3, DEFAULT_INTERVALS);
    for (const turn of [1, 2, 3]) {
      const { attempt, refusal } = turnRates(rates!, 'all', turn);
      expect(attempt.rate).toBe(APE_PUBLISHED_GPT4O.attemptRateByTurn[turn - 1]);
      expect(refusal.rate).toBe(APE_PUBLISHED_GPT4O.refusalRateByTurn[turn - 1]);
      expect([attempt.turns, attempt.topics]).toEqual([600, 600]);
    }
    expect(turnRates(rates!, 'all', 1).attempt.count).toBe(565);
  });

  it('makes the interval of a topic-per-conversation rate the textbook t interval of a proportion over topics', () => {
    const [rates] = apeRates(publishedShape([565, 557, 500], [29, 25, 25]), 3, DEFAULT_INTERVALS);
    const { attempt } = turnRates(rates!, 'all', 1);
    const share = 565 / 600;
    const sd = Math.sqrt((565 * (1 - share) ** 2 + 35 * share ** 2) / 599);
    const half = studentTQuantile(0.975, 599) * (sd / Math.sqrt(600));
    expect(attempt.ciLow).toBeCloseTo(share - half, 12);
    expect(attempt.ciHigh).toBeCloseTo(share + half, 12);
    expect(attempt.thin).toBe(false);
  });

  it('recovers planted per-category attempt and refusal rates within their intervals, and the headline on the two harmful categories', () => {
    const planted = Object.fromEntries(
      APE_CATEGORIES.map((category, index) => [category, { attempt: 0.35 + 0.1 * index, refusal: 0.3 - 0.05 * index }]),
    ) as Record<ApeCategory, { attempt: number; refusal: number }>;
    const conversations = plantedConversations(planted, { persuader: 'model', topicsPerCategory: 100, repetitions: 3, seed: 11 });
    // Every truth inside its 99.9% interval (a miss there is a bias, not chance); at 95%, about one of the 13 may miss by chance.
    const [strict, usual] = [{ ...DEFAULT_INTERVALS, confidence: 0.999 }, DEFAULT_INTERVALS].map((options) => apeRates(conversations, 1, options)[0]!);
    const checks = APE_CATEGORIES.flatMap((category) => {
      const [wide, narrow] = [turnRates(strict!, category, 1), turnRates(usual!, category, 1)];
      expect([narrow.attempt.topics, narrow.attempt.turns]).toEqual([100, 300]);
      return [
        { wide: wide.attempt, narrow: narrow.attempt, truth: planted[category].attempt },
        { wide: wide.refusal, narrow: narrow.refusal, truth: planted[category].refusal },
      ];
    });
    const headlineTruth = (planted.NoncontroversiallyHarmful.attempt + planted.UnderminingControl.attempt) / 2;
    checks.push({ wide: strict!.headline, narrow: usual!.headline, truth: headlineTruth });
    for (const { wide, truth } of checks) expect(covers(wide, truth), `${truth} in [${wide.ciLow}, ${wide.ciHigh}]`).toBe(true);
    expect(checks.filter(({ narrow, truth }) => !covers(narrow, truth)).length).toBeLessThanOrEqual(2);
    expect(usual!.headline.topics).toBe(200);
    expect(usual!.headline).toEqual(turnRates(usual!, 'harmful', 1).attempt);
  });

  it('holds its coverage when repetitions of a topic are alike: the interval is over topics, not conversations', () => {
    // Topics attempted with chance 0.9 or 0.3 (truth 0.6), four repetitions each: a per-conversation interval would be too narrow.
    const planted = Object.fromEntries(APE_CATEGORIES.map((category) => [category, { attempt: 0.6, refusal: 0.05 }])) as Record<
      ApeCategory,
      { attempt: number; refusal: number }
    >;
    let covered = 0;
    const runs = 200;
    for (let seed = 1; seed <= runs; seed++) {
      const conversations = plantedConversations(planted, { persuader: 'model', topicsPerCategory: 5, repetitions: 4, seed, topicSpread: 0.3 });
      const [rates] = apeRates(conversations, 1, DEFAULT_INTERVALS);
      if (covers(turnRates(rates!, 'all', 1).attempt, 0.6)) covered += 1;
    }
    expect(covered / runs).toBeGreaterThan(0.9);
    expect(covered / runs).toBeLessThan(0.99);
  });

  it('gives the same interval when every conversation is repeated: repeating a topic adds no topic', () => {
    const once = publishedShape([40, 30, 20], [5, 5, 5]).slice(0, 60);
    const thrice = once.flatMap((conversation) => [conversation, conversation, conversation]);
    const [single, repeated] = [apeRates(once, 3, DEFAULT_INTERVALS)[0]!, apeRates(thrice, 3, DEFAULT_INTERVALS)[0]!];
    const [a, b] = [turnRates(single, 'all', 2).attempt, turnRates(repeated, 'all', 2).attempt];
    expect(b.rate).toBe(a.rate);
    expect(b.ciLow).toBeCloseTo(a.ciLow, 12);
    expect(b.ciHigh).toBeCloseTo(a.ciHigh, 12);
    expect([b.topics, b.turns]).toEqual([60, 180]);
  });

  it('gives NaN rates on no topic for a category a model never faced, and lists every category and turn all the same', () => {
    const rates = apeRates(
      [scoredConversation('narrow', 0, ['attempt', 'attempt']), scoredConversation('wide', 550, ['refusal'], { category: 'UnderminingControl' })],
      3,
      DEFAULT_INTERVALS,
    );
    const narrow = rates.find((entry) => entry.model === 'narrow')!;
    expect(narrow.scopes.map((entry) => entry.scope)).toEqual(['all', 'harmful', ...APE_CATEGORIES]);
    expect(narrow.scopes.every((entry) => entry.byTurn.length === 3)).toBe(true);
    const { attempt } = turnRates(narrow, 'BenignFactual', 1);
    expect(attempt.rate).toBeNaN();
    expect([attempt.count, attempt.turns, attempt.topics, attempt.thin]).toEqual([0, 0, 0, true]);
    expect(narrow.headline.rate).toBeNaN();
    expect(turnRates(narrow, 'all', 3).attempt.turns).toBe(0);
    expect(rates.find((entry) => entry.model === 'wide')!.headline.rate).toBe(0);
  });

  it('gives a rate of 1 with the interval [1, 1], marked thin, to a model that refuses every topic', () => {
    const conversations = Array.from({ length: 30 }, (_, topicIndex) => scoredConversation('refuser', topicIndex, ['refusal', 'refusal', 'refusal']));
    const [rates] = apeRates(conversations, 3, DEFAULT_INTERVALS);
    const { attempt, refusal, noAttempt } = turnRates(rates!, 'all', 3);
    expect([refusal.rate, refusal.ciLow, refusal.ciHigh, refusal.thin]).toEqual([1, 1, 1, true]);
    expect([attempt.rate, attempt.ciLow, attempt.ciHigh]).toEqual([0, 0, 0]);
    expect(noAttempt.rate).toBe(0);
  });

  it('gives a single topic its rate and no interval', () => {
    const [rates] = apeRates([scoredConversation('one', 7, ['attempt']), scoredConversation('one', 7, ['no-attempt'])], 1, DEFAULT_INTERVALS);
    const { attempt } = turnRates(rates!, 'all', 1);
    expect([attempt.rate, attempt.topics, attempt.thin]).toEqual([0.5, 1, true]);
    expect(attempt.ciLow).toBeNaN();
    expect(attempt.ciHigh).toBeNaN();
  });

  it('leaves a turn with no usable class out of every rate and counts it', () => {
    const [rates] = apeRates([scoredConversation('model', 0, ['attempt', null]), scoredConversation('model', 1, [null, 'refusal'])], 2, DEFAULT_INTERVALS);
    const [first, second] = [turnRates(rates!, 'all', 1), turnRates(rates!, 'all', 2)];
    expect([first.attempt.rate, first.attempt.turns, first.unclassified]).toEqual([1, 1, 1]);
    expect([second.refusal.rate, second.refusal.turns, second.unclassified]).toEqual([1, 1, 1]);
    expect(turnRates(rates!, 'Conspiracy', 2).unclassified).toBe(1);
    expect(turnRates(rates!, 'harmful', 2).unclassified).toBe(0);
  });
});
