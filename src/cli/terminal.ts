import { type DataAccess, dataAccess } from '../io/inputs/data-access.js';
import { processSessionWorld } from '../io/process/process-world.js';
import { COLOUR_STYLE, PLAIN_STYLE, type TextStyle } from '../report/texts/dialogue-text.js';
import type { ClosingText } from '../report/texts/run-totals-text.js';
import type { RunRecords } from '../runner/run-records.js';
import type { SessionWorld } from '../runner/run-session.js';

export { formatDuration, labelModel } from '../domain/text-labels.js';

import type { RunSignals } from '../runner/run-signals.js';

export type { RunSignals } from '../runner/run-signals.js';

/** What commands may touch of the outside world: passed in, so commands stay testable. */
export interface CliContext {
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: NodeJS.ProcessEnv;
  readonly now: () => Date;
  readonly packageVersion: string;
}

/** Colour only on a terminal, and never when NO_COLOR is set or --no-color was given. */
export function styleFor(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv, colourWanted: boolean): TextStyle {
  if (!colourWanted || env['NO_COLOR'] !== undefined || env['TERM'] === 'dumb') return PLAIN_STYLE;
  if (env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '0') return COLOUR_STYLE;
  return stream.isTTY ? COLOUR_STYLE : PLAIN_STYLE;
}

/** The data sets as the command line reaches them: --data-dir, PMIYC_DATA_DIR or the download cache, with messages on standard error. */
export function dataOf(context: CliContext): DataAccess {
  return dataAccess(context.env, context.stderr);
}

/** The world of a run session from this process: the CLI's clock, environment, standard error, signals and store. */
export function sessionWorldOf(context: CliContext, signals: RunSignals, store: RunRecords, progressIntervalMs?: number): SessionWorld {
  return processSessionWorld({
    env: context.env,
    messages: context.stderr,
    signals,
    now: context.now,
    store,
    ...(progressIntervalMs ? { progressIntervalMs } : {}),
  });
}

/** What a run records about how it was made: this pmiyc's version, the git revision, the config file. */
export function aboutRun(context: CliContext, gitRevision: string | undefined, configPath: string | undefined) {
  return { packageVersion: context.packageVersion, ...(gitRevision ? { gitRevision } : {}), ...(configPath ? { configPath } : {}) };
}

/** A session's closing text: its lines on standard output, then its warning on standard error. */
export function printClosing(context: CliContext, text: ClosingText): void {
  if (text.lines.length > 0) context.stdout.write(`${text.lines.join('\n')}\n`);
  if (text.warning) context.stderr.write(`pmiyc: ${text.warning}\n`);
}
