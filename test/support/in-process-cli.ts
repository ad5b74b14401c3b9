import { setMaxListeners } from 'node:events';
import { PassThrough } from 'node:stream';
import { exitCodeOf } from '../../src/cli/exit-codes.js';
import { buildProgram } from '../../src/cli/program.js';
import type { CliContext } from '../../src/cli/terminal.js';
import type { CliResult } from '../cli-helpers.js';

function collector() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

/**
 * Runs the command-line program in this process, mapping errors to exit codes with main's map
 * (exitCodeOf). An unexpected error is thrown, so that the test shows its stack. `stop` plays the
 * first Ctrl-C.
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
    const decision = exitCodeOf(error);
    if (decision.unexpected) throw error;
    if (decision.message !== undefined) stderr.stream.write(`pmiyc: ${decision.message}\n`);
    code = decision.code;
  }
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
