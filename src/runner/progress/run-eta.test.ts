import { describe, expect, it } from 'vitest';
import { type EtaInput, estimateEta, WorkWindow, workRate } from './run-eta.js';

describe('estimateEta', () => {
  const input = (overrides: Partial<EtaInput>): EtaInput => ({ expected: 100, done: 40, ratePerMs: 0.01, finished: false, ...overrides });
  it.each([
    ['calls remaining at the recent rate', input({}), { status: 'estimated', remaining: 60, remainingMs: 6_000 }],
    ['done when every item is, whatever the counts say', input({ finished: true, done: 10 }), { status: 'done' }],
    ['unknown without a forecast', input({ expected: undefined }), { status: 'unknown' }],
    ['unknown before any work was done', input({ ratePerMs: undefined }), { status: 'unknown' }],
    ['unknown while nothing moves', input({ ratePerMs: 0 }), { status: 'unknown' }],
    ['no time left when more work came than expected', input({ done: 120 }), { status: 'estimated', remaining: 0, remainingMs: 0 }],
    [
      'the longest item still under way when that takes longer (the tail)',
      input({ done: 99, criticalPathMs: 4_000 }),
      { status: 'estimated', remaining: 1, remainingMs: 4_000, heldBy: { kind: 'tail' } },
    ],
    ['the rate when the tail is shorter', input({ criticalPathMs: 1_000 }), { status: 'estimated', remaining: 60, remainingMs: 6_000 }],
    [
      "a model's limits when its share of the calls takes longer than the run's rate says",
      input({ floors: [{ ms: 30_000, hold: { kind: 'limits', model: 'gamma' } }] }),
      { status: 'estimated', remaining: 60, remainingMs: 30_000, heldBy: { kind: 'limits', model: 'gamma' } },
    ],
    [
      'never less than a call out for long is expected to take still (as long again as it has been out)',
      input({ floors: [{ ms: 20_000, hold: { kind: 'long call', model: 'beta' } }] }),
      { status: 'estimated', remaining: 60, remainingMs: 20_000, heldBy: { kind: 'long call', model: 'beta' } },
    ],
    [
      'a call out for long before anything else was done: at least its wait',
      input({ ratePerMs: undefined, floors: [{ ms: 8_000, hold: { kind: 'long call', model: 'beta' } }] }),
      { status: 'estimated', remaining: 60, remainingMs: 8_000, heldBy: { kind: 'long call', model: 'beta' } },
    ],
    [
      'everything waiting behind a call out for long: its wait, then the rest at the rate before the stall',
      input({
        ratePerMs: 0.005,
        stall: { forMs: 12_000, ratePerMs: 0.01 },
        floors: [
          { ms: 15_000, hold: { kind: 'long call', model: 'beta' } },
          { ms: 2_000, hold: { kind: 'tail' } },
        ],
      }),
      { status: 'estimated', remaining: 60, remainingMs: 21_000, heldBy: { kind: 'long call', model: 'beta' } },
    ],
    [
      'a stall with no call out for long: the floors and the rate as they are',
      input({ stall: { forMs: 12_000, ratePerMs: 0.02 }, floors: [{ ms: 4_000, hold: { kind: 'tail' } }] }),
      { status: 'estimated', remaining: 60, remainingMs: 6_000 },
    ],
    [
      'a short pause with a long call out: the rate goes on',
      input({ stall: { forMs: 2_000, ratePerMs: 0.01 }, floors: [{ ms: 5_000, hold: { kind: 'long call', model: 'beta' } }] }),
      { status: 'estimated', remaining: 60, remainingMs: 6_000 },
    ],
  ] as const)('%s', (_case, given, expected) => {
    expect(estimateEta(given)).toEqual(expected);
  });
});

describe('workRate', () => {
  it.each([
    ['no samples', [], undefined],
    ['one sample', [{ atMs: 0, done: 5 }], undefined],
    [
      'no time between them',
      [
        { atMs: 10, done: 1 },
        { atMs: 10, done: 5 },
      ],
      undefined,
    ],
    [
      'nothing done between them',
      [
        { atMs: 0, done: 5 },
        { atMs: 1_000, done: 5 },
      ],
      undefined,
    ],
    [
      'from the first to the last',
      [
        { atMs: 0, done: 5 },
        { atMs: 500, done: 6 },
        { atMs: 2_000, done: 25 },
      ],
      0.01,
    ],
  ])('%s', (_case, samples, expected) => {
    expect(workRate(samples)).toBe(expected);
  });
});

describe('WorkWindow', () => {
  it('follows the last minute: after a slow start at 1 call/s, then 10 calls/s for a minute, the rate is 10 calls/s', () => {
    const window = new WorkWindow(60_000);
    let done = 0;
    for (let second = 0; second <= 120; second++) {
      window.add({ atMs: second * 1_000, done });
      done += second < 60 ? 1 : 10;
    }
    expect(window.ratePerMs()).toBeCloseTo(0.01, 10);
  });

  it('says how long nothing was done, and the rate when the work last moved', () => {
    const window = new WorkWindow(60_000);
    expect(window.stallAt(0)).toBeUndefined();
    window.add({ atMs: 0, done: 0 });
    window.add({ atMs: 10_000, done: 100 });
    for (let atMs = 11_000; atMs <= 30_000; atMs += 1_000) window.add({ atMs, done: 100 });
    expect(window.stallAt(30_000)).toEqual({ forMs: 20_000, ratePerMs: 0.01 });
    // The window's rate falls through the stall; the rate before it does not.
    expect(window.ratePerMs()).toBeCloseTo(100 / 30_000, 12);
  });

  it('spans the run so far while it is younger than the window', () => {
    const window = new WorkWindow(60_000);
    window.add({ atMs: 0, done: 0 });
    window.add({ atMs: 10_000, done: 20 });
    window.add({ atMs: 20_000, done: 30 });
    expect(window.ratePerMs()).toBeCloseTo(30 / 20_000, 12);
  });
});
