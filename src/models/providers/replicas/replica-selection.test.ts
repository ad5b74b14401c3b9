import { describe, expect, it } from 'vitest';
import { chooseReplica, markFailed, markSucceeded, type ReplicaHealth, statusOf } from './replica-selection.js';

const up = (outstanding: number): ReplicaHealth => ({ outstanding, failureStreak: 0, outages: 0 });
const outUntil = (outUntilMs: number, outstanding = 0): ReplicaHealth => ({ outstanding, failureStreak: 1, outages: 1, outUntilMs });

describe('chooseReplica', () => {
  it.each<[string, ReplicaHealth[], { tried?: number[]; cursor?: number; limit?: number }, ReturnType<typeof chooseReplica>]>([
    ['the fewest calls outstanding', [up(3), up(1), up(2)], {}, { kind: 'replica', index: 1 }],
    ['a tie goes to the first from the cursor', [up(1), up(1), up(1)], { cursor: 2 }, { kind: 'replica', index: 2 }],
    ['a tie wraps round from the cursor', [up(1), up(2), up(1)], { cursor: 1 }, { kind: 'replica', index: 2 }],
    ['never a replica the call failed on', [up(0), up(5)], { tried: [0] }, { kind: 'replica', index: 1 }],
    ['never a replica that is out', [outUntil(2000), up(9)], {}, { kind: 'replica', index: 1 }],
    ['a replica whose cool-down ended takes one call on trial', [outUntil(500), up(4)], {}, { kind: 'replica', index: 0 }],
    ['but only one at a time', [outUntil(500, 1), up(4)], {}, { kind: 'replica', index: 1 }],
    ['a replica at its limit takes no more', [up(2), up(2), up(1)], { limit: 2 }, { kind: 'replica', index: 2 }],
    ['every usable replica full: wait', [up(2), up(2), outUntil(2000)], { limit: 2 }, { kind: 'wait' }],
    ['every replica out and none tried: the first back is tried anyway', [outUntil(5000), outUntil(3000), outUntil(4000)], {}, { kind: 'replica', index: 1 }],
    ['the rest out after a failure: none (the error goes up)', [up(0), outUntil(3000)], { tried: [0] }, { kind: 'none' }],
    ['every replica tried: none', [up(0), up(0)], { tried: [0, 1] }, { kind: 'none' }],
  ])('%s', (_case, replicas, input, expected) => {
    const choice = chooseReplica(replicas, {
      nowMs: 1000,
      tried: new Set(input.tried ?? []),
      cursor: input.cursor ?? 0,
      ...(input.limit === undefined ? {} : { limit: input.limit }),
    });
    expect(choice).toEqual(expected);
  });
});

describe('a replica health after failures and successes', () => {
  it('cools down for 10 s, doubling per fault in a row up to 60 s, and a reply resets it', () => {
    const replica = up(0);
    const outs: Array<number | undefined> = [];
    for (let fault = 0; fault < 5; fault += 1) {
      const nowMs = replica.outUntilMs ?? 0;
      outs.push(markFailed(replica, { nowMs, outagesAtStart: replica.outages, rateLimited: false }));
    }
    expect(outs).toEqual([10_000, 20_000, 40_000, 60_000, 60_000]);
    expect(replica.outages).toBe(5);
    expect(statusOf(replica, replica.outUntilMs! - 1)).toBe('out');
    expect(statusOf(replica, replica.outUntilMs!)).toBe('on trial');
    expect(markSucceeded(replica, 5)).toBe(true);
    expect(statusOf(replica, 0)).toBe('up');
    expect(markFailed(replica, { nowMs: 0, outagesAtStart: 5, rateLimited: false })).toBe(10_000);
  });

  it('takes a rate-limited replica out for its Retry-After (1 s without one), without counting a fault', () => {
    const replica = up(0);
    expect(markFailed(replica, { nowMs: 0, outagesAtStart: 0, rateLimited: true, retryAfterMs: 2500 })).toBe(2500);
    expect(markFailed(replica, { nowMs: 2500, outagesAtStart: 1, rateLimited: true })).toBe(1000);
    expect(replica.failureStreak).toBe(0);
  });

  it('counts the calls that were in flight when a replica went down as one fault', () => {
    const replica = up(3);
    expect(markFailed(replica, { nowMs: 0, outagesAtStart: 0, rateLimited: false })).toBe(10_000);
    expect(markFailed(replica, { nowMs: 5, outagesAtStart: 0, rateLimited: false })).toBeUndefined();
    // After the cool-down, a slow call from before the outage fails: the replica is still on trial.
    expect(markFailed(replica, { nowMs: 20_000, outagesAtStart: 0, rateLimited: false })).toBeUndefined();
    expect(statusOf(replica, 20_000)).toBe('on trial');
    // And a slow call from before it went out does not bring it back.
    expect(markSucceeded(replica, 0)).toBe(false);
    expect(statusOf(replica, 20_000)).toBe('on trial');
    expect(replica.failureStreak).toBe(1);
  });
});
