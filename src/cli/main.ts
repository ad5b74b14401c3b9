#!/usr/bin/env node
import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { CommanderError } from 'commander';
import { InputError } from '../domain/input-error.js';
import { buildProgram } from './program.js';

/** Exit codes (SPEC 4): 0 done, 1 failed run, 2 bad usage or input, 130 interrupted. */
const EXIT_USAGE = 2;
const EXIT_INTERRUPTED = 130;

const COMMANDER_SUCCESS = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

function packageVersion(): string {
  const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return packageJson.version;
}

async function main(argv: string[]): Promise<number> {
  const verbose = argv.includes('--verbose');
  // First Ctrl-C: start nothing new, let calls in flight finish and be stored. Second: abandon
  // them. Third: leave at once.
  const stop = new AbortController();
  const abort = new AbortController();
  // Every waiting call listens to these; thousands may wait at once in a big run.
  setMaxListeners(0, stop.signal, abort.signal);
  let interrupts = 0;
  process.on('SIGINT', () => {
    interrupts += 1;
    if (interrupts === 1) {
      process.stderr.write('\npmiyc: stopping: no new calls start; calls in flight finish and are stored (Ctrl-C again to abandon them)\n');
      stop.abort(new Error('interrupted'));
    } else if (interrupts === 2) {
      process.stderr.write('\npmiyc: abandoning calls in flight (Ctrl-C again to quit at once)\n');
      abort.abort(new Error('interrupted'));
    } else process.exit(EXIT_INTERRUPTED);
  });
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0); // the reader went away (`| head`): not an error
    throw error;
  });

  let exitCode = 0;
  const context = { stdout: process.stdout, stderr: process.stderr, env: process.env, now: () => new Date(), packageVersion: packageVersion() };
  const program = buildProgram(context, { stop: stop.signal, abort: abort.signal }, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander has already printed its one-line message.
      return COMMANDER_SUCCESS.has(error.code) && error.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    if (interrupts > 0) {
      process.stderr.write('pmiyc: stopped. Everything finished before the interrupt is saved.\n');
      return EXIT_INTERRUPTED;
    }
    if (error instanceof InputError) {
      process.stderr.write(`pmiyc: ${error.message}\n`);
      return EXIT_USAGE;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`pmiyc: unexpected error: ${message}${verbose ? '' : ' (run again with --verbose for details)'}\n`);
    if (verbose && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv);
