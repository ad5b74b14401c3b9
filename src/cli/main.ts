#!/usr/bin/env node
import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { environmentWithDotEnv } from '../io/dot-env.js';
import { describeLeftBehind, stopsGracefully } from '../io/graceful-stop.js';
import { toOutputWriteError } from '../io/output-write-error.js';
import { STOPPING_SIGNALS, type StoppingSignal, StopRequest } from '../runner/run-signals.js';
import { EXIT_FAILED } from '../runner/session-ending.js';
import { exitCodeOf } from './exit-codes.js';
import { buildProgram } from './program.js';

function packageVersion(): string {
  const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return packageJson.version;
}

/**
 * Ctrl-C, SIGTERM and SIGHUP alike. While a run works: the first starts nothing new and lets calls
 * in flight finish and be stored (calls waiting for a provider batch are let go, the batch left at the
 * provider for --resume: the message says how many), the second abandons them, the third leaves at once. Commands
 * with nothing to drain (report, export, ...) end at once. The exit code is 128 + the signal's number.
 */
function listenForSignals(stop: AbortController, abort: AbortController): () => number {
  let interrupts = 0;
  let first: StoppingSignal = 'SIGINT';
  const onSignal = (signal: StoppingSignal) => {
    interrupts += 1;
    if (interrupts === 1) first = signal;
    if (!stopsGracefully() || interrupts >= 3) process.exit(STOPPING_SIGNALS[signal]);
    const again = signal === 'SIGINT' ? 'Ctrl-C again' : `${signal} again`;
    if (interrupts === 1) {
      // Calls waiting for a provider batch are not in flight: they stay at the provider, for --resume.
      const left = describeLeftBehind().map((phrase) => `; ${phrase}, for --resume to collect`);
      process.stderr.write(
        `\npmiyc: ${signal}: stopping: no new calls start; calls in flight finish and are stored (${again} to abandon them)${left.join('')}\n`,
      );
      stop.abort(new StopRequest(signal));
    } else {
      process.stderr.write(`\npmiyc: abandoning calls in flight (${again} to quit at once)\n`);
      abort.abort(new StopRequest(signal));
    }
  };
  for (const signal of Object.keys(STOPPING_SIGNALS) as StoppingSignal[]) process.on(signal, () => onSignal(signal));
  return () => (interrupts > 0 ? STOPPING_SIGNALS[first] : 0);
}

async function main(argv: string[]): Promise<number> {
  const verbose = argv.includes('--verbose');
  const stop = new AbortController();
  const abort = new AbortController();
  // Every waiting call listens to these; thousands may wait at once in a big run.
  setMaxListeners(0, stop.signal, abort.signal);
  const interruptedExitCode = listenForSignals(stop, abort);
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0); // the reader went away (`| head`): not an error
    const failure = toOutputWriteError(error, 'standard output', { again: 'run the command again', elsewhere: 'a file on a disk with room' });
    process.stderr.write(`pmiyc: ${failure instanceof Error ? failure.message : String(failure)}\n`);
    process.exit(EXIT_FAILED);
  });
  // A terminal that went away (SIGHUP) cannot show anything more: never crash on it.
  process.stderr.on('error', () => {});

  let exitCode = 0;
  const context = {
    stdout: process.stdout,
    stderr: process.stderr,
    env: environmentWithDotEnv(process.env, process.cwd()),
    now: () => new Date(),
    packageVersion: packageVersion(),
  };
  const program = buildProgram(context, { stop: stop.signal, abort: abort.signal }, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    const { code, message, unexpected } = exitCodeOf(error);
    if (message === undefined) return code; // commander has already printed its one-line message.
    const interrupted = interruptedExitCode();
    if (interrupted > 0) {
      process.stderr.write('pmiyc: stopped. Everything finished before the interrupt is saved.\n');
      return interrupted;
    }
    process.stderr.write(`pmiyc: ${message}${unexpected && !verbose ? ' (run again with --verbose for details)' : ''}\n`);
    if (unexpected && verbose && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    return code;
  }
}

process.exitCode = await main(process.argv);
