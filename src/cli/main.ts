#!/usr/bin/env node
import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { toOutputWriteError } from '../io/output-write-error.js';
import { environmentWithDotEnv } from '../io/process/dot-env.js';
import { listenForStopSignals } from '../io/process/graceful-stop.js';
import { EXIT_FAILED } from '../runner/session-ending.js';
import { exitCodeOf } from './exit-codes.js';
import { buildProgram } from './program.js';

function packageVersion(): string {
  const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return packageJson.version;
}

async function main(argv: string[]): Promise<number> {
  const verbose = argv.includes('--verbose');
  const stop = new AbortController();
  const abort = new AbortController();
  // Every waiting call listens to these; thousands may wait at once in a big run.
  setMaxListeners(0, stop.signal, abort.signal);
  const interruptedExitCode = listenForStopSignals(stop, abort);
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0); // the reader went away (`| head`): not an error
    const failure = toOutputWriteError(error, 'standard output', { again: 'run the command again', elsewhere: 'a file on a disk with room' });
    process.stderr.write(`pmiyc: ${failure instanceof Error ? failure.message : String(failure)}\n`);
    process.exit(EXIT_FAILED);
  });
  // A terminal that went away (SIGHUP) cannot show anything more: never crash on it.
  process.stderr.on('error', () => {});

  let exitCode = 0;
  try {
    const context = {
      stdout: process.stdout,
      stderr: process.stderr,
      env: await environmentWithDotEnv(process.env, process.cwd()),
      now: () => new Date(),
      packageVersion: packageVersion(),
    };
    const program = buildProgram(context, { stop: stop.signal, abort: abort.signal }, (code) => {
      exitCode = code;
    });
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
