import { PassThrough } from 'node:stream';
import { buildProgram } from '../../src/cli/program.js';
import type { CliContext } from '../../src/cli/terminal.js';

/**
 * Runs a pmiyc command in this process through the real command definitions (options, defaults,
 * parsers), as `buildProgram` wires them, with a stop signal the test controls (the serving
 * commands, `annotate serve` and `view`, run until it is aborted).
 */
export function cliInProcess(args: readonly string[], stop: AbortSignal = new AbortController().signal) {
  const stdout = new PassThrough();
  let printed = '';
  stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const context = {
    stdout,
    stderr: new PassThrough(),
    env: {},
    now: () => new Date('2026-12-01T12:00:00Z'),
    packageVersion: '0.0.0-test',
  } as unknown as CliContext;
  let exitCode = -1;
  const program = buildProgram(context, { stop, abort: new AbortController().signal }, (code) => {
    exitCode = code;
  }).configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  const done = program.parseAsync([...args], { from: 'user' }).then(() => exitCode);
  return { done, output: () => printed };
}

/** `pmiyc annotate ...` in this process. */
export function annotateCli(args: readonly string[], stop?: AbortSignal) {
  return cliInProcess(['annotate', ...args], stop);
}

/** Waits until a serving command prints its address, and returns it. */
export async function servedUrl(output: () => string, timeoutMs = 10_000): Promise<string> {
  const started = Date.now();
  for (;;) {
    const match = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(output());
    if (match) return match[1]!;
    if (Date.now() - started > timeoutMs) throw new Error(`the server did not start: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
