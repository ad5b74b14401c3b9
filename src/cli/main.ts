#!/usr/bin/env node
import { CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
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
  const controller = new AbortController();
  let interrupted = false;
  process.once('SIGINT', () => {
    interrupted = true;
    process.stderr.write('\npmiyc: interrupted; finishing what is safe to finish (Ctrl-C again to quit at once)\n');
    process.once('SIGINT', () => process.exit(EXIT_INTERRUPTED));
    controller.abort(new Error('interrupted'));
  });
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0); // the reader went away (`| head`): not an error
    throw error;
  });

  let exitCode = 0;
  const context = { stdout: process.stdout, stderr: process.stderr, env: process.env, now: () => new Date(), packageVersion: packageVersion() };
  const program = buildProgram(context, controller.signal, (code) => {
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
    if (interrupted) {
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
