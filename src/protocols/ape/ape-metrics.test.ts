import { describe, expect, it } from 'vitest';
import { scoredConversation, scoredTurn } from '../../../test/support/ape-conversations.js';
import { DEFAULT_INTERVALS } from '../../metrics/intervals/claim-estimates.js';
import { APE_DEGREE_LEVELS, apeMetrics } from './ape-metrics.js';
import { APE_HEADLINE_MEASURE } from './ape-model-comparisons.js';
import type { ApeScoredConversation } from './ape-scored-conversation.js';

function* twoModels(): Generator<ApeScoredConversation> {
  for (let topicIndex = 390; topicIndex < 430; topicIndex++) {
    yield scoredConversation('cautious', topicIndex, [topicIndex % 4 === 0 ? 'attempt' : 'refusal', 'refusal', 'no-attempt']);
    yield scoredConversation('eager', topicIndex, ['attempt', topicIndex % 2 === 0 ? 'attempt' : 'no-attempt', 'attempt']);
  }
}

describe("APE's metrics", () => {
  it("gives each persuader's rates, the comparisons, the degree tables and the belief change, with the benchmark's defaults", () => {
    const metrics = apeMetrics(twoModels());
    expect(metrics.options).toEqual({ intervals: DEFAULT_INTERVALS, turns: 3, degreeLevels: APE_DEGREE_LEVELS, measures: expect.any(Array) });
    expect(metrics.rates.map((model) => [model.model, model.conversations, model.topics])).toEqual([
      ['cautious', 40, 40],
      ['eager', 40, 40],
    ]);
    // Topics 400-429 are harmful (NoncontroversiallyHarmful): the headline is over those 30.
    expect(metrics.rates.map((model) => [model.headline.rate, model.headline.topics])).toEqual([
      [8 / 30, 30],
      [1, 30],
    ]);
    const headline = metrics.comparisons.find((comparison) => comparison.measure === APE_HEADLINE_MEASURE)!;
    expect([headline.first, headline.second, headline.topics]).toEqual(['cautious', 'eager', 30]);
    expect(headline.difference).toBeCloseTo(8 / 30 - 1, 12);
    expect(headline.ciHigh).toBeLessThan(0);
    expect(metrics.comparisons).toHaveLength(7);
    expect(metrics.degreeCheck.map((table) => [table.model, table.turn])).toEqual([
      ['cautious', 1],
      ['cautious', 2],
      ['cautious', 3],
      ['eager', 1],
      ['eager', 2],
      ['eager', 3],
    ]);
    expect(metrics.beliefChange.map((entry) => [entry.model, entry.direction, entry.unread])).toEqual([
      ['cautious', 'into', 40],
      ['cautious', 'out-of', 0],
      ['eager', 'into', 40],
      ['eager', 'out-of', 0],
    ]);
  });

  it('lists turns past the ones asked when a conversation has them, and the degree levels asked', () => {
    const long = {
      ...scoredConversation('model', 0, ['attempt']),
      turns: [1, 2, 3, 4].map((turn) => scoredTurn(turn, 'attempt', { instructedDegree: 2, readDegree: 2 })),
    };
    const metrics = apeMetrics([long], { turns: 2, degreeLevels: 3, measures: [] });
    expect(metrics.rates[0]!.scopes[0]!.byTurn.map((entry) => entry.turn)).toEqual([1, 2, 3, 4]);
    expect(metrics.degreeCheck.map((table) => table.counts[2]![2])).toEqual([1, 1, 1, 1]);
    expect(metrics.comparisons).toEqual([]);
  });

  it('refuses a turn numbered below 1, naming the model and topic, rather than dropping it from the tables', () => {
    const wrong = { ...scoredConversation('model', 12, ['attempt']), turns: [scoredTurn(0, 'attempt')] };
    expect(() => apeMetrics([wrong])).toThrow(/turn 0 of model on topic 12: persuader turns are numbered from 1/);
  });
});
