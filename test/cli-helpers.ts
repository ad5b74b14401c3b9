import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly cwd?: string;
  readonly env?: Record<string, string>;
  /** Another build's CLI to start instead of this checkout's dist/cli/main.js. */
  readonly main?: string;
  /** Node options before the script (e.g. `--import` of a module loaded first). */
  readonly nodeArguments?: readonly string[];
}

/** Starts the built CLI as a user would, with a clean colour environment unless told otherwise. */
export function spawnCli(args: readonly string[], options: CliOptions = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...options.env };
  delete env['FORCE_COLOR'];
  if (options.env?.['FORCE_COLOR']) {
    env['FORCE_COLOR'] = options.env['FORCE_COLOR'];
    delete env['NO_COLOR'];
  }
  const child = spawn(process.execPath, [...(options.nodeArguments ?? []), options.main ?? CLI, ...args], { cwd: options.cwd, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal === 'SIGKILL' ? 137 : null), stdout, stderr }));
  });
  return { child, done, output: () => ({ stdout, stderr }) };
}

/** Runs the built CLI to the end. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return spawnCli(args, options).done;
}
