import { setMaxListeners } from 'node:events';
import { PassThrough } from 'node:stream';
import { CommanderError } from '@commander-js/extra-typings';
import { buildProgram } from '../../src/cli/program.js';
import type { CliContext } from '../../src/cli/terminal.js';
import { InputError } from '../../src/domain/input-error.js';
import type { CliResult } from '../cli-helpers.js';

function collector() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

/**
 * Runs the command-line program in this process, mapping errors to exit codes as main does.
 * `stop` plays the first Ctrl-C.
 */
export async function runInProcess(args: readonly string[], options: { stop?: AbortController } = {}): Promise<CliResult> {
  const stdout = collector();
  const stderr = collector();
  const context: CliContext = { stdout: stdout.stream, stderr: stderr.stream, env: {}, now: () => new Date(), packageVersion: '0.0.0-test' };
  const signals = { stop: (options.stop ?? new AbortController()).signal, abort: new AbortController().signal };
  // As in main: every waiting call listens to these.
  setMaxListeners(0, signals.stop, signals.abort);
  let code = 0;
  const setExitCode = (value: number) => (code = value);
  const program = buildProgram(context, signals, setExitCode);
  program.configureOutput({ writeOut: (text) => stdout.stream.write(text), writeErr: (text) => stderr.stream.write(text) });
  try {
    await program.parseAsync(['node', 'pmiyc', ...args]);
  } catch (error) {
    if (error instanceof CommanderError) code = error.exitCode === 0 ? 0 : 2;
    else if (error instanceof InputError) {
      stderr.stream.write(`pmiyc: ${error.message}\n`);
      code = 2;
    } else throw error;
  }
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
