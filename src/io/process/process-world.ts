import { hostname } from 'node:os';
import type { Environment } from '../../config/resolve-model-settings.js';
import type { ProgressStream } from '../../runner/progress/progress-display.js';
import type { RunRecords } from '../../runner/run-records.js';
import type { SessionWorld } from '../../runner/run-session.js';
import type { RunSignals } from '../../runner/run-signals.js';
import { holdGracefulStop } from './graceful-stop.js';
import { modelFileSha256 } from './model-file-digest.js';
import { isProcessAlive } from './process-alive.js';

/** This process and host, for run leases. */
export function thisProcess(): SessionWorld['owner'] {
  return { pid: process.pid, host: hostname(), isProcessAlive: (pid) => isProcessAlive(pid) };
}

export interface ProcessWorldOptions {
  readonly env: Environment;
  /** Where messages and progress go (standard error in the CLI); messages start with "pmiyc: ". */
  readonly messages: ProgressStream;
  readonly signals: RunSignals;
  readonly now?: () => Date;
  readonly progressIntervalMs?: number;
  /** The store whose runs the session works on: it keeps the GGUF hashes between sessions. */
  readonly store?: Pick<RunRecords, 'knownFileSha256' | 'rememberFileSha256'>;
  /** False: no progress display (a library caller that prints its own). */
  readonly progress?: boolean;
}

/** A session's world made of this process: its clock, environment, pid and host, signals, standard error. */
export function processSessionWorld(options: ProcessWorldOptions): SessionWorld {
  const tell = (line: string) => options.messages.write(`pmiyc: ${line}\n`);
  const store = options.store;
  return {
    now: options.now ?? (() => new Date()),
    env: options.env,
    tell,
    ...(options.progress === false ? {} : { progress: options.messages }),
    ...(options.progressIntervalMs === undefined ? {} : { progressIntervalMs: options.progressIntervalMs }),
    owner: thisProcess(),
    signals: options.signals,
    holdGracefulStop,
    ...(store ? { fileSha256: (settings) => modelFileSha256(settings, store, (path) => tell(`hashing ${path} (once per file version)`)) } : {}),
  };
}
