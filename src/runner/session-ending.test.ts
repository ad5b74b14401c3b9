import { describe, expect, it } from 'vitest';
import { quietSignals, StopRequest } from './run-signals.js';
import { sessionEnding } from './session-ending.js';

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
