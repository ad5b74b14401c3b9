/**
 * Ctrl-C (or SIGTERM, SIGHUP), twice over: `stop` starts nothing new (calls in flight finish);
 * `abort` abandons what is in flight. `stop`'s reason names the signal (see `stoppingSignal`).
 * The CLI's `main` turns process signals into these; a library caller passes its own.
 */
export interface RunSignals {
  readonly stop: AbortSignal;
  readonly abort: AbortSignal;
}

/** The signals that stop a run gracefully, with the exit code each ends it with (128 + its number). */
export const STOPPING_SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
export type StoppingSignal = keyof typeof STOPPING_SIGNALS;

/** The reason given to the stop signal: which signal arrived. */
export class StopRequest extends Error {
  constructor(readonly signal: StoppingSignal) {
    super(`stopped by ${signal}`);
    this.name = 'StopRequest';
  }
}

/** The signal that stopped the run; SIGINT when it was stopped another way (a caller's own abort). */
export function stoppingSignal(signals: RunSignals): StoppingSignal {
  const reason: unknown = signals.stop.reason;
  return reason instanceof StopRequest ? reason.signal : 'SIGINT';
}

/** Signals that never fire: for callers that do not stop runs from outside. */
export function quietSignals(): RunSignals {
  return { stop: new AbortController().signal, abort: new AbortController().signal };
}
