import { spawn, spawnSync } from 'node:child_process';
import { TerminalScreen } from './terminal-screen.js';

/** Whether util-linux `script` is here to give a command a pseudo-terminal. */
export const hasScript = spawnSync('script', ['--version']).status === 0;

/**
 * Runs the built CLI (`cli`, with `args`) in a pseudo-terminal `columns` wide (250 unless given)
 * and `rows` high (60 unless given; 0 by 0 is a terminal that says no size), colour off and progress redrawn every 20 ms, and returns its exit code, its raw
 * output and the rows the screen ends with.
 */
export async function runInPseudoTerminal(
  cli: string,
  args: readonly string[],
  columns = 250,
  rows = 60,
): Promise<{ code: number | null; output: string; lines: string[] }> {
  const command = [`stty cols ${columns} rows ${rows};`, 'exec', process.execPath, cli, ...args].join(' ');
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', PMIYC_PROGRESS_INTERVAL_MS: '20' };
  delete env['FORCE_COLOR'];
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const screen = new TerminalScreen();
  screen.write(output);
  return { code, output, lines: screen.lines() };
}
