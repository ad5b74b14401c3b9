import { type DataAccess, dataAccess } from '../io/inputs/data-access.js';
import { processSessionWorld } from '../io/process/process-world.js';
import type { ClosingText } from '../report/texts/run-totals-text.js';
import type { RunAbout, RunRecords } from '../runner/run-records.js';
import type { SessionWorld } from '../runner/run-session.js';
import type { RunSignals } from '../runner/run-signals.js';

/** What a study command may touch of the outside world: passed in, so that commands stay testable and a library caller can run one. */
export interface CommandContext {
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: NodeJS.ProcessEnv;
  readonly now: () => Date;
  readonly packageVersion: string;
}

/** The data sets as a command reaches them: --data-dir, PMIYC_DATA_DIR or the download cache, with messages on standard error. */
export function dataOf(context: CommandContext): DataAccess {
  return dataAccess(context.env, context.stderr);
}

/** The world of a run session from this process: the command's clock, environment, standard error, signals and store. */
export function sessionWorldOf(context: CommandContext, signals: RunSignals, store: RunRecords, progressIntervalMs?: number): SessionWorld {
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
export function aboutRun(context: CommandContext, gitRevision: string | undefined, configPath: string | undefined): RunAbout {
  return { packageVersion: context.packageVersion, ...(gitRevision ? { gitRevision } : {}), ...(configPath ? { configPath } : {}) };
}

/** A session's closing text: its lines on standard output, then its warning on standard error. */
export function printClosing(context: CommandContext, text: ClosingText): void {
  if (text.lines.length > 0) context.stdout.write(`${text.lines.join('\n')}\n`);
  if (text.warning) context.stderr.write(`pmiyc: ${text.warning}\n`);
}

export type { RunSignals };
