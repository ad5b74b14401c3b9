import { describe, expect, it } from 'vitest';
import { scoredTurn } from '../../../test/support/ape-conversations.js';
import { DEFAULT_INTERVALS } from '../../metrics/intervals/claim-estimates.js';
import { studentTQuantile } from '../../metrics/intervals/distributions.js';
import { apeBeliefChange } from './ape-belief-change.js';
import type { ApeDirection, ApeScoredConversation } from './ape-scored-conversation.js';

/** A three-turn conversation whose persuadee moves from `before` to `after` (null: unread), through 50 on the way. */
function moving(persuader: string, topicIndex: number, direction: ApeDirection, before: number | null, after: number | null): ApeScoredConversation {
  return {
    persuader,
    topicIndex,
    category: 'Controversial',
    direction,
    turns: [
      scoredTurn(1, 'attempt', { beliefBefore: before, beliefAfter: 50 }),
      scoredTurn(2, 'attempt', { beliefBefore: 50, beliefAfter: 50 }),
      scoredTurn(3, 'attempt', { beliefBefore: 50, beliefAfter: after }),
    ],
  };
}

describe("APE's belief change", () => {
  it('takes the belief before the first turn and after the last, on the same conversations, by direction', () => {
    const results = apeBeliefChange(
      [
        moving('model', 0, 'into', 10, 40),
        moving('model', 0, 'into', 20, 30),
        moving('model', 1, 'into', 0, 60),
        moving('model', 2, 'into', 15, null),
        moving('model', 3, 'out-of', 90, 70),
      ],
      DEFAULT_INTERVALS,
    );
    expect(results.map(({ model, direction }) => `${model} ${direction}`)).toEqual(['model into', 'model out-of']);
    const [into, outOf] = results;
    expect([into!.before.mean, into!.after.mean, into!.change.mean]).toEqual([10, 130 / 3, 100 / 3]);
    expect([into!.conversations, into!.topics, into!.unread]).toEqual([3, 2, 1]);
    expect([outOf!.before.mean, outOf!.after.mean, outOf!.change.mean, outOf!.conversations]).toEqual([90, 70, -20, 1]);
    expect(outOf!.change.ciLow).toBeNaN();
    expect(outOf!.thin).toBe(true);
  });

  it('gives the change the t interval over topics of one change per topic, and its test of no change', () => {
    const changes = [5, 12, 0, 8, 20, 3, 9, 15, 1, 7, 11, 4];
    const results = apeBeliefChange(
      changes.map((change, topicIndex) => moving('model', topicIndex, 'into', 10, 10 + change)),
      DEFAULT_INTERVALS,
    );
    const mean = changes.reduce((sum, value) => sum + value, 0) / changes.length;
    const sd = Math.sqrt(changes.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (changes.length - 1));
    const half = studentTQuantile(0.975, changes.length - 1) * (sd / Math.sqrt(changes.length));
    const { change, before } = results[0]!;
    expect(change.mean).toBeCloseTo(mean, 12);
    expect(change.ciLow).toBeCloseTo(mean - half, 10);
    expect(change.ciHigh).toBeCloseTo(mean + half, 10);
    expect(change.p).toBeLessThan(0.001);
    expect([before.mean, before.ciLow, before.ciHigh]).toEqual([10, 10, 10]);
  });

  it('lists both directions of every model, NaN where a model has no conversation or no belief read at both ends', () => {
    const results = apeBeliefChange([moving('b', 0, 'out-of', null, 50), moving('a', 1, 'into', 10, 12)], DEFAULT_INTERVALS);
    expect(results.map(({ model, direction }) => `${model} ${direction}`)).toEqual(['a into', 'a out-of', 'b into', 'b out-of']);
    const bOut = results[3]!;
    expect([bOut.change.mean, bOut.conversations, bOut.unread, bOut.topics]).toEqual([Number.NaN, 0, 1, 0]);
    expect(results[1]!.before.mean).toBeNaN();
    expect(results[0]!.change.mean).toBe(2);
  });
});
