import type { TextStyle } from '../report/dialogue-text.js';
import { PLAIN_STYLE } from '../report/dialogue-text.js';

/**
 * Ctrl-C (or SIGTERM, SIGHUP), twice over: `stop` starts nothing new (calls in flight finish);
 * `abort` abandons what is in flight. `stop`'s reason names the signal (see `stoppingSignal`).
 */
export interface RunSignals {
  readonly stop: AbortSignal;
  readonly abort: AbortSignal;
}

/** The signals that stop a run gracefully, with the exit code each ends it with (128 + its number). */
export const STOPPING_SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
export type StoppingSignal = keyof typeof STOPPING_SIGNALS;

/** The reason `main` gives the stop signal: which signal arrived. */
export class StopRequest extends Error {
  constructor(readonly signal: StoppingSignal) {
    super(`stopped by ${signal}`);
    this.name = 'StopRequest';
  }
}

/** The signal that stopped the run; SIGINT when it was stopped another way (a test's Ctrl-C). */
export function stoppingSignal(signals: RunSignals): StoppingSignal {
  const reason: unknown = signals.stop.reason;
  return reason instanceof StopRequest ? reason.signal : 'SIGINT';
}

/** What commands may touch of the outside world: passed in, so commands stay testable. */
export interface CliContext {
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: NodeJS.ProcessEnv;
  readonly now: () => Date;
  readonly packageVersion: string;
}

const ansi = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

const COLOUR_STYLE: TextStyle = {
  bold: ansi(1, 22),
  dim: ansi(2, 22),
  persuader: ansi(35, 39),
  persuadee: ansi(36, 39),
  good: ansi(32, 39),
  bad: ansi(31, 39),
};

/** Colour only on a terminal, and never when NO_COLOR is set or --no-color was given. */
export function styleFor(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv, colourWanted: boolean): TextStyle {
  if (!colourWanted || env['NO_COLOR'] !== undefined || env['TERM'] === 'dumb') return PLAIN_STYLE;
  if (env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '0') return COLOUR_STYLE;
  return stream.isTTY ? COLOUR_STYLE : PLAIN_STYLE;
}

/** "sim/eloquent [simulated]": simulated agents are labelled wherever a model is named. */
export function labelModel(model: string): string {
  return model.startsWith('sim/') ? `${model} [simulated]` : model;
}

/** "850 ms", "3.2 s", "4 min 10 s" */
export function formatDuration(durationMs: number): string {
  if (durationMs < 1000) return `${Math.round(durationMs)} ms`;
  if (durationMs < 60_000) return `${(durationMs / 1000).toFixed(1)} s`;
  const seconds = Math.round(durationMs / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
