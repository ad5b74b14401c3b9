import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../../../test/support/fuzz-runs.js';
import { APE_CATEGORIES } from './ape-facts.js';
import { apeMetrics } from './ape-metrics.js';
import { APE_TURN_CLASSES, type ApeScoredConversation } from './ape-scored-conversation.js';

// Whatever the conversations, the rates add up to their counts, every turn lands in exactly one place of
// the degree check, and the order conversations arrive in changes nothing.

const runs = fuzzRuns(60);
const belief = fc.option(fc.integer({ min: 0, max: 100 }), { nil: null });
const turnOf = (turn: number) =>
  fc.record({
    turn: fc.constant(turn),
    turnClass: fc.option(fc.constantFrom(...APE_TURN_CLASSES), { nil: null }),
    instructedDegree: fc.option(fc.integer({ min: 0, max: 2 }), { nil: null }),
    readDegree: fc.option(fc.integer({ min: 0, max: 2 }), { nil: null }),
    beliefBefore: belief,
    beliefAfter: belief,
  });
const conversation: fc.Arbitrary<ApeScoredConversation> = fc
  .record({
    persuader: fc.constantFrom('a', 'b', 'c'),
    topicIndex: fc.integer({ min: 0, max: 23 }).map((slot) => slot * 25),
    direction: fc.constantFrom('into' as const, 'out-of' as const),
    turns: fc.integer({ min: 1, max: 3 }).chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => turnOf(index + 1)))),
  })
  .map((fields) => ({ ...fields, category: APE_CATEGORIES[Math.floor(fields.topicIndex / 100)]! }));
const conversations = fc.array(conversation, { maxLength: 40 });

/** Numbers to 9 digits (NaN to null), so that two summation orders compare equal. */
const rounded = (value: unknown) => JSON.stringify(value, (_, entry) => (typeof entry === 'number' ? Number(entry.toPrecision(9)) : entry));

describe("APE's metrics on any conversations", () => {
  it('splits every classified turn into exactly one class: counts add up to the turns, rates to 1, each rate inside its interval', () => {
    fc.assert(
      fc.property(conversations, (generated) => {
        const { rates } = apeMetrics(generated);
        for (const model of rates) {
          for (const { byTurn } of model.scopes) {
            for (const { attempt, refusal, noAttempt } of byTurn) {
              expect(attempt.count + refusal.count + noAttempt.count).toBe(attempt.turns);
              expect([refusal.turns, noAttempt.turns, refusal.topics, noAttempt.topics]).toEqual([
                attempt.turns,
                attempt.turns,
                attempt.topics,
                attempt.topics,
              ]);
              if (attempt.turns === 0) continue;
              expect(attempt.rate + refusal.rate + noAttempt.rate).toBeCloseTo(1, 12);
              for (const rate of [attempt, refusal, noAttempt]) {
                expect(rate.rate).toBe(rate.count / rate.turns);
                if (Number.isFinite(rate.ciLow)) expect(rate.ciLow <= rate.rate && rate.rate <= rate.ciHigh).toBe(true);
              }
            }
          }
        }
      }),
      { numRuns: runs },
    );
  });

  it("puts each of a model's turns in its turn's degree table once: counted, unread, uninstructed or off the scale", () => {
    fc.assert(
      fc.property(conversations, (generated) => {
        const { degreeCheck, rates } = apeMetrics(generated);
        for (const table of degreeCheck) {
          const turns = generated.filter((entry) => entry.persuader === table.model).flatMap((entry) => entry.turns.filter((turn) => turn.turn === table.turn));
          expect(table.turns + table.unread + table.uninstructed + table.outOfScale).toBe(turns.length);
          expect(table.unread).toBe(turns.filter((turn) => turn.readDegree === null).length);
          const all = rates.find((model) => model.model === table.model)!.scopes[0]!.byTurn[table.turn - 1]!;
          expect(all.attempt.turns + all.unclassified).toBe(turns.length);
        }
      }),
      { numRuns: runs },
    );
  });

  it('gives the same result whatever order the conversations come in', () => {
    fc.assert(
      fc.property(conversations, (generated) => {
        expect(rounded(apeMetrics([...generated].reverse()))).toBe(rounded(apeMetrics(generated)));
      }),
      { numRuns: runs },
    );
  });
});
