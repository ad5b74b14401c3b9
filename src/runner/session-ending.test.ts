import { describe, expect, it } from 'vitest';
import { RunGate, RunStoppedError } from './run-gate.js';
import { quietSignals, StopRequest } from './run-signals.js';
import { describeStop, sessionEnding } from './session-ending.js';

describe('sessionEnding', () => {
  const quiet = quietSignals();

  it('is completed when the plan ran to its end, failed items or not; failed items exit 1', () => {
    expect(sessionEnding({ status: 'completed' }, 0, quiet)).toEqual({ status: 'completed', exitCode: 0 });
    expect(sessionEnding({ status: 'completed' }, 29, quiet)).toEqual({ status: 'completed', exitCode: 1 });
  });

  it('is failed when too many items failed (--max-failures)', () => {
    expect(sessionEnding({ status: 'stopped', stopReason: 'failures' }, 5, quiet)).toEqual({ status: 'failed', stopReason: 'failures', exitCode: 1 });
  });

  it('is interrupted, with why, when it stopped early otherwise: a signal exits 128 + its number', () => {
    for (const reason of ['budget', 'auth', 'lease'] as const)
      expect(sessionEnding({ status: 'stopped', stopReason: reason }, 0, quiet)).toEqual({ status: 'interrupted', stopReason: reason, exitCode: 1 });
    const stop = new AbortController();
    stop.abort(new StopRequest('SIGTERM'));
    const signals = { stop: stop.signal, abort: new AbortController().signal };
    expect(sessionEnding({ status: 'stopped', stopReason: 'interrupted' }, 0, signals)).toEqual({
      status: 'interrupted',
      stopReason: 'SIGTERM',
      exitCode: 143,
    });
  });
});

describe('describeStop after the budget', () => {
  it('says what was spent, what the calls in flight held reserved, and what the refused call needed', () => {
    // $0.02 spent before; two calls in flight hold up to $0.012 each; the third would pass $0.05.
    const gate = new RunGate(0.05, 0.02);
    gate.admit(0.012);
    gate.admit(0.012);
    expect(() => gate.admit(0.012)).toThrow(RunStoppedError);
    gate.settle(0.012, 0.0024);
    gate.settle(0.012, 0.0024);
    expect(gate.budgetRefusal).toEqual({ spentUsd: 0.02, reservedUsd: 0.024, refusedUsd: 0.012 });
    // Refused calls after the stop leave the first refusal as it was.
    expect(() => gate.admit(0.5)).toThrow(RunStoppedError);
    expect(gate.budgetRefusal?.refusedUsd).toBe(0.012);

    const ending = sessionEnding({ status: 'stopped', stopReason: 'budget' }, 0, quietSignals());
    const text = describeStop(ending, {
      resume: 'pmiyc run --run r --resume',
      items: 'conversations',
      blockedModels: new Map(),
      maxCost: 0.05,
      budgetRefusal: gate.budgetRefusal,
    });
    expect(text).toBe(
      'stopped before the next call could take the spend past --max-cost $0.05: $0.0200 spent and $0.0240 reserved by the calls in flight then ' +
        '(each holds the most it could cost, at its max tokens, until it ends, and counts against the limit), and the next call needed up to $0.0120; ' +
        'resume with a higher limit: pmiyc run --run r --resume --max-cost <USD>',
    );
  });
});
