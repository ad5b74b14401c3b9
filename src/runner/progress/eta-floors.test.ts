import { describe, expect, it } from 'vitest';
import type { CallService } from '../run-meter.js';
import { attemptsPerCall, etaFloors, limitsFloorMs, requestWindowWaitMs, serviceMsPerCall } from './eta-floors.js';

const service = (overrides: Partial<CallService>): CallService => ({
  wireMs: 0,
  wireCalls: 0,
  attempts: 0,
  backoffMs: 0,
  planCalls: 0,
  rateLimited: 0,
  ...overrides,
});

describe('what a call of the plan takes', () => {
  it.each([
    ['nothing came back yet', service({ attempts: 3 }), undefined],
    ['one attempt each: the time on the wire', service({ wireMs: 4_000, wireCalls: 10, attempts: 10, planCalls: 10 }), 400],
    // 10 calls of the plan, 2 re-samples and 3 retries (15 attempts of 400 ms), 4.5 s of back-off.
    ['re-samples, retries and their back-offs included', service({ wireMs: 6_000, wireCalls: 15, attempts: 15, backoffMs: 4_500, planCalls: 10 }), 1_050],
  ])('%s', (_case, given, expected) => {
    expect(serviceMsPerCall(given)).toBe(expected);
  });

  it('counts the attempts per call of the plan, from one each before a model has many of its own', () => {
    expect(attemptsPerCall(service({}))).toBe(1);
    expect(attemptsPerCall(service({ wireCalls: 3, planCalls: 1 }))).toBeCloseTo(8 / 6, 12);
    expect(attemptsPerCall(service({ wireCalls: 1_500, planCalls: 1_000 }))).toBeCloseTo(1_505 / 1_005, 12);
  });
});

describe('when calls may start under a requests-per-minute window', () => {
  it.each([
    ['an empty window lets a whole minute of calls start at once', 60, 60, 60, [], 0],
    ['then a minute for each further window', 130, 60, 60, [], 120_000],
    ['a full window holds the next call until its oldest start is a minute old', 1, 2, 2, [45_000, 30_000], 15_000],
    ['and the one after until the next leaves it', 2, 2, 2, [45_000, 30_000], 30_000],
    // Halved to 2 of 4 by a 429 with 3 calls in the window: the next waits for 2 of them to leave it.
    ['a limit lowered by a 429 holds every call while the window is fuller than it', 1, 2, 4, [50_000, 40_000, 10_000], 20_000],
    // 2 allowed for the next three (2.4, 2.8), then 3 (3.2): the fourth may start with the third, at 80 s.
    ['and grows back a tenth of the configured limit with each call', 4, 2, 4, [50_000, 40_000, 10_000], 80_000],
  ])('%s', (_case, count, allowedNow, configured, startedAgoMs, expected) => {
    expect(requestWindowWaitMs(count, { now: allowedNow, configured }, startedAgoMs)).toBe(expected);
  });

  it('halves the limit as often as 429s came so far: 4 calls at 4 a minute start at once, unless every second call is refused', () => {
    expect(requestWindowWaitMs(4, { now: 4, configured: 4 }, [])).toBe(0);
    // The 1st start halves the limit to 2 and the 3rd to 1.2: the 3rd waits for the 1st to be a minute old, the 4th for the 3rd.
    expect(requestWindowWaitMs(4, { now: 4, configured: 4, halvingsPerCall: 0.5 }, [])).toBe(120_000);
    // One 429 in 8 calls: by the 4th start half of one is expected, and counted (the limit halves to 3), so the 5th waits.
    expect(requestWindowWaitMs(5, { now: 6, configured: 6 }, [])).toBe(0);
    expect(requestWindowWaitMs(5, { now: 6, configured: 6, halvingsPerCall: 0.125 }, [])).toBe(60_000);
  });
});

describe("a model's limits", () => {
  const faulty = service({ wireMs: 7_500, wireCalls: 150, attempts: 150, backoffMs: 20_000, planCalls: 100 });
  it('at 30 requests a minute, 30 calls left with 1.5 attempts each (retries and re-samples pass the limiter again) need a second minute', () => {
    // 30 * 155 / 105 = 44.3 attempts: 30 start in this minute, the rest when those are a minute old; then one attempt's time on the wire.
    const requestLimit = { now: 30, configured: 30 };
    expect(limitsFloorMs({ model: 'gamma', remainingCalls: 30, service: faulty, requestLimit })).toBe(60_000 + 50);
    expect(limitsFloorMs({ model: 'gamma', remainingCalls: 30, service: faulty, requestLimit, startedAgoMs: Array(30).fill(20_000) })).toBe(100_000 + 50);
  });
  it('one call at a time (a limit halved by 429s): the calls left one after another, without the back-offs, which hold no slot', () => {
    expect(limitsFloorMs({ model: 'beta', remainingCalls: 30, service: faulty, concurrency: 1 })).toBe(30 * 75);
  });
  it('the longer of the two', () => {
    expect(limitsFloorMs({ model: 'beta', remainingCalls: 30, service: faulty, concurrency: 1, requestLimit: { now: 6_000, configured: 6_000 } })).toBe(
      30 * 75,
    );
  });
});

describe('the floors under the ETA', () => {
  it('the tail at the time a call takes with its faults, each limited model, and each call out 5 s or more', () => {
    const floors = etaFloors({
      longestRemainingCalls: 4,
      service: service({ wireMs: 6_000, wireCalls: 15, attempts: 15, backoffMs: 4_500, planCalls: 10 }),
      paces: [{ model: 'gamma', remainingCalls: 70, service: service({}), requestLimit: { now: 60, configured: 60 } }],
      oldestCallAgeMs: [
        { model: 'alpha', ageMs: 4_999 },
        { model: 'beta', ageMs: 23_000 },
      ],
    });
    expect(floors).toEqual([
      { ms: 4_200, hold: { kind: 'tail' } },
      { ms: 60_000, hold: { kind: 'limits', model: 'gamma' } },
      { ms: 23_000, hold: { kind: 'long call', model: 'beta' } },
    ]);
  });
});
