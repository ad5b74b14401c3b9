import { describe, expect, it } from 'vitest';
import { TerminalScreen } from '../../../test/support/terminal-screen.js';
import type { LimiterState } from '../../models/wrappers/with-rate-limit.js';
import { RunMeter } from '../run-meter.js';
import { type CallForecastView, type ProgressSource, startProgressDisplay } from './progress-display.js';

/** Far beyond any test: the display draws only when told to, or when it stops. */
const NEVER_MS = 1_000_000_000;

/** A run of `models` on a terminal `columns` wide, its clock moved by the test, its forecast fixed. */
function liveRun(models: string[], options: { columns?: number; forecast?: CallForecastView; extra?: Partial<ProgressSource> } = {}) {
  const screen = new TerminalScreen();
  const stream = {
    isTTY: true,
    columns: options.columns ?? 250,
    rows: 40,
    write: (text: string) => {
      screen.write(text);
      return true;
    },
  };
  const meter = new RunMeter();
  const clock = { nowMs: 0 };
  const limits = new Map<string, LimiterState>();
  const display = startProgressDisplay(
    stream,
    {
      meter,
      total: 96,
      limiters: () => models.map((model) => ({ model, ...(limits.has(model) ? { state: limits.get(model)! } : {}) })),
      nowMs: () => clock.nowMs,
      ...(options.forecast ? { forecast: options.forecast } : {}),
      ...options.extra,
    },
    NEVER_MS,
  );
  /** Moves the clock to `atMs` and draws, as the timer would. */
  const at = (atMs: number) => {
    clock.nowMs = atMs;
    display.refresh();
    return screen.lines();
  };
  /** One call of the plan to `model`: `attempts` attempts of `wireMs` each on the wire, a back-off of `backoffMs` before each retry. */
  const call = (model: string, startMs: number, { wireMs = 400, attempts = 1, backoffMs = 0 } = {}) => {
    let atMs = startMs;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      meter.wireStarted(model, atMs)(atMs + wireMs);
      atMs += wireMs;
      if (attempt < attempts) {
        meter.retried(model, { label: 'HTTP 429', atMs }, atMs + backoffMs);
        atMs += backoffMs;
      }
    }
    meter.planCallDone(model, true);
  };
  return { display, meter, clock, limits, at, call, screen };
}

/** The ETA the items line shows, in ms; undefined when it shows none. */
function etaMsOf(lines: string[]): number | undefined {
  const match = /ETA (?:(\d+) min (\d+) s|([\d.]+) s|(\d+) ms)/.exec(lines.find((line) => / conversations \(/.test(line)) ?? '');
  if (!match) return undefined;
  if (match[1] !== undefined) return (Number(match[1]) * 60 + Number(match[2])) * 1000;
  return match[3] !== undefined ? Number(match[3]) * 1000 : Number(match[4]);
}

const modelLine = (lines: string[], model: string) => lines.find((line) => line.startsWith(`  ${model}:`)) ?? '';

describe('a call that hangs', () => {
  it("shows the age of the model's oldest call once it passes 5 s, and the ETA never claims less than it has hung", () => {
    // 4 calls of the plan left at 2 a second: the rate alone says 2 s, and said so for as long as the call hung.
    const run = liveRun(['alpha', 'beta'], { forecast: { expectedCalls: () => 44, longestRemainingCalls: () => 1 } });
    for (let index = 0; index < 40; index++) {
      run.call('alpha', index * 500);
      run.at(index * 500 + 400);
    }
    run.meter.callStarted('beta');
    run.meter.wireStarted('beta', 20_000);
    let lines = run.at(24_000);
    expect(modelLine(lines, 'beta')).toBe('  beta: 1 on the wire, 0 waiting · 0 retries, 0 re-samples · no errors');
    expect(etaMsOf(lines)).toBeLessThan(5_000);

    lines = run.at(43_000);
    expect(modelLine(lines, 'beta')).toBe('  beta: 1 on the wire, oldest call 23.0 s, 0 waiting · 0 retries, 0 re-samples · no errors');
    // Everything waits behind it: its expected wait (as long again as it has been out), then the 4 calls at the rate before.
    expect(lines[0]).toMatch(/ · ETA 25\.0 s \(about 4 calls left, waiting on a call of beta\)$/);
  });

  it('holds the ETA at the age of a long call even when other work goes on', () => {
    const run = liveRun(['alpha', 'beta'], { forecast: { expectedCalls: () => 40, longestRemainingCalls: () => 1 } });
    run.meter.wireStarted('beta', 0);
    for (let index = 0; index < 36; index++) {
      run.call('alpha', index * 500);
      run.at(index * 500 + 400);
    }
    const lines = run.at(18_000);
    expect(modelLine(lines, 'beta')).toContain('oldest call 18.0 s');
    // 4 calls left at 2 a second would be 2 s.
    expect(lines[0]).toMatch(/ · ETA 18\.0 s \(about 4 calls left, waiting on a call of beta\)$/);
  });
});

describe('after a stop signal', () => {
  it('shows the calls left to drain instead of an ETA, counting down as they come back', () => {
    let stopping: string | undefined;
    const run = liveRun(['alpha'], { forecast: { expectedCalls: () => 100, longestRemainingCalls: () => 3 }, extra: { stopping: () => stopping } });
    for (let index = 0; index < 10; index++) {
      run.call('alpha', index * 500);
      run.at(index * 500 + 400);
    }
    const cameBack = [0, 1, 2].map(() => {
      run.meter.callStarted('alpha');
      return run.meter.wireStarted('alpha', 5_000);
    });
    expect(run.at(6_000)[0]).toMatch(/ · ETA [\d.]+ s \(about 90 calls left\)$/);
    stopping = 'Ctrl-C';
    expect(run.at(7_000)[0]).toBe('0/96 conversations (0 failed) · 7.0 s elapsed · stopping (Ctrl-C): 3 calls left to drain');
    cameBack[0]!(8_000);
    run.meter.callEnded('alpha', { inputTokens: 1, outputTokens: 1 });
    cameBack[1]!(9_000);
    run.meter.callEnded('alpha', 'abandoned');
    expect(run.at(30_000)[0]).toBe('0/96 conversations (0 failed) · 30.0 s elapsed · stopping (Ctrl-C): 1 call left to drain');
    run.display.stop();
  });
});

describe('an ETA that accounts for faults and limits', () => {
  it("counts retries' back-offs and re-samples in the time the last conversations take, one call after another", () => {
    // 6 calls left in the longest conversation, each tried twice (400 ms on the wire, 2 s of back-off): 6 x 2.8 s.
    const run = liveRun(['alpha'], { forecast: { expectedCalls: () => 46, longestRemainingCalls: () => 6 } });
    for (let index = 0; index < 40; index++) {
      run.call('alpha', index * 100, { attempts: 2, backoffMs: 2_000 });
      run.at(index * 100 + 2_800);
    }
    const lines = run.at(7_000);
    expect(etaMsOf(lines)).toBe(16_800);
    // Without the back-offs and the second attempts this was 6 x 400 ms = 2.4 s.
  });

  it('never ends before the last retry its calls wait for: calls that all back off for 40 s leave at least 40 s, whatever the rate said', () => {
    const run = liveRun(['alpha'], { forecast: { expectedCalls: () => 46, longestRemainingCalls: () => 1 } });
    for (let index = 0; index < 40; index++) {
      run.call('alpha', index * 100);
      run.at(index * 100 + 400);
    }
    // Two calls of the run, both failed and waiting to be tried again: the last goes out in 40 s, the other sooner.
    run.meter.callStarted('alpha');
    run.meter.callStarted('alpha');
    run.meter.retried('alpha', { label: 'cannot reach', atMs: 4_500 }, 44_500);
    run.meter.retried('alpha', { label: 'cannot reach', atMs: 4_600 }, 10_000);
    const lines = run.at(4_600);
    // 39.9 s until the last retry goes out, and 400 ms on the wire then; the rate alone said well under a second.
    expect(etaMsOf(lines)).toBe(40_300);
    expect(lines[0]).toContain('waiting to retry calls of alpha');
  });

  it("follows a model's requests-per-minute window: its share of the calls left waits for the window to free", () => {
    const shares = new Map([
      ['alpha', 0.5],
      ['gamma', 0.5],
    ]);
    const run = liveRun(['alpha', 'gamma'], { forecast: { expectedCalls: () => 200, longestRemainingCalls: () => 2 }, extra: { callShares: shares } });
    for (let index = 0; index < 80; index++) {
      run.call(index % 2 === 0 ? 'alpha' : 'gamma', index * 100);
      run.at(index * 100 + 400);
    }
    // gamma: 60 calls left of its 100, at most 30 a minute, and its window holds 30 starts, the oldest 50 s ago.
    const startedAgoMs = Array.from({ length: 30 }, (_, index) => 50_000 - index * 1_000);
    run.limits.set('gamma', { effectiveRequestsPerMinute: 30, effectiveConcurrency: undefined, inFlight: 0, queued: 4, tokensInWindow: 0, startedAgoMs });
    const lines = run.at(8_400);
    // Two more windows: the 60th call starts when the 30th of the coming ones is a minute old, 10 s + 60 s + 29 s from now; then 400 ms on the wire.
    expect(lines[0]).toMatch(/ · ETA 1 min 39 s \(about 120 calls left, held by gamma's limits\)$/);
  });
});
