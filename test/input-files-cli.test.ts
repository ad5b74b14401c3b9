import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliOptions, type CliResult, runCli, spawnCli } from './cli-helpers.js';
import { ALIAS_BOMB_CONFIG } from './support/alias-bomb.js';

let folder: string;
let fifo: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-input-files-'));
  fifo = join(folder, 'results.fifo');
  execFileSync('mkfifo', [fifo]);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const NOT_REGULAR = 'give the path of a regular file (pmiyc reads no pipes, devices or sockets)';
/** Where the kernel says how much memory a process has held at most (Linux). */
const HAS_PROC = existsSync('/proc/self/status');
/** Far above what pmiyc needs to refuse a file (about 60 MB), far below what reading /dev/zero took (the machine's RAM). */
const PEAK_LIMIT_MB = 200;

/** A number of kB from a /proc/<pid>/status line, in MB. */
function statusMb(status: string, field: 'VmHWM' | 'VmRSS'): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) / 1024;
}

/**
 * Runs the built CLI with its peak memory watched (VmHWM, read every 20 ms until it exits: the last
 * reading is at most 20 ms old). A child past 1 GB or 20 s is killed, so that a regression fails the
 * test instead of taking the machine's memory as `import official /dev/zero` once did.
 */
async function runWatched(args: readonly string[], options: CliOptions = {}): Promise<CliResult & { peakMb: number }> {
  const started = Date.now();
  const { child, done } = spawnCli(args, options);
  let peakMb = 0;
  const watch = setInterval(() => {
    let status: string;
    try {
      status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    } catch {
      return; // it has exited
    }
    peakMb = Math.max(peakMb, statusMb(status, 'VmHWM'));
    if (statusMb(status, 'VmRSS') > 1024 || Date.now() - started > 20_000) child.kill('SIGKILL');
  }, 20);
  try {
    return { ...(await done), peakMb };
  } finally {
    clearInterval(watch);
  }
}

describe('pmiyc import official on what is not a regular file', () => {
  it.each([
    ['/dev/zero', 'character device'],
    ['a FIFO no one writes to', 'named pipe (FIFO)'],
  ])('refuses %s at once, exit 2, naming it and what it is', async (given, type) => {
    const path = given === '/dev/zero' ? given : fifo;
    const result = await runWatched(['import', 'official', path, '--run', 'x', '--store', join(folder, 'unused.db')]);
    expect(result.stderr).toBe(`pmiyc: ${path} is a ${type}, not a file: ${NOT_REGULAR}\n`);
    expect(result.code).toBe(2);
    expect(existsSync(join(folder, 'unused.db'))).toBe(false);
  });

  it.skipIf(!HAS_PROC)(`holds under ${PEAK_LIMIT_MB} MB while it refuses /dev/zero and a FIFO (it once read /dev/zero until the machine ran out)`, async () => {
    for (const path of ['/dev/zero', fifo]) {
      const result = await runWatched(['import', 'official', path, '--run', 'x', '--store', join(folder, 'unused.db')]);
      expect(result.code).toBe(2);
      expect(result.peakMb).toBeGreaterThan(0);
      expect(result.peakMb).toBeLessThan(PEAK_LIMIT_MB);
    }
  });

  it('refuses a results.json in a folder that is a FIFO by its name, instead of passing over it', async () => {
    const experiment = join(folder, 'experiments', 'multi_turn_subj', 'a_b_0');
    mkdirSync(experiment, { recursive: true });
    execFileSync('mkfifo', [join(experiment, 'results.json')]);
    const result = await runWatched(['import', 'official', join(folder, 'experiments'), '--run', 'x', '--store', join(folder, 'unused.db')]);
    expect(result.stderr).toBe(`pmiyc: ${join(experiment, 'results.json')} is a named pipe (FIFO), not a file: ${NOT_REGULAR}\n`);
    expect(result.code).toBe(2);
  });

  it('refuses a file over 256 MB by its size, without reading it (a sparse file)', async () => {
    const path = join(folder, 'huge-results.json');
    writeFileSync(path, '');
    truncateSync(path, 300 * 2 ** 20);
    const result = await runWatched(['import', 'official', path, '--run', 'x', '--store', join(folder, 'unused.db')]);
    expect(result.stderr).toBe(`pmiyc: ${path} is 300 MB, more than the 256 MB pmiyc reads from a data file: check that it is the right file, or split it\n`);
    expect(result.code).toBe(2);
    if (HAS_PROC) expect(result.peakMb).toBeLessThan(PEAK_LIMIT_MB);
  });
});

describe('other file inputs that are not regular files', () => {
  it('refuses a claims file, a config file and a published answers file that are FIFOs, exit 2', async () => {
    const claims = await runWatched(['claims', fifo]);
    expect([claims.code, claims.stderr]).toEqual([2, `pmiyc: ${fifo} is a named pipe (FIFO), not a file: ${NOT_REGULAR}\n`]);
    const config = await runWatched(['models', '--config', fifo]);
    expect([config.code, config.stderr]).toEqual([2, `pmiyc: ${fifo} is a named pipe (FIFO), not a file: ${NOT_REGULAR}\n`]);
    const answers = await runWatched(['consistency', '--import', '/dev/zero', '--model', 'gpt4', '--store', join(folder, 'unused.db')]);
    expect(answers.stderr).toContain(`pmiyc: /dev/zero is a character device, not a file: ${NOT_REGULAR}\n`);
    expect(answers.code).toBe(2);
  });

  it('refuses a .env in the working folder that is a FIFO, and passes over a folder called .env', async () => {
    const pipeFolder = join(folder, 'env-pipe');
    mkdirSync(pipeFolder);
    execFileSync('mkfifo', [join(pipeFolder, '.env')]);
    const piped = await runWatched(['models'], { cwd: pipeFolder });
    expect(piped.stderr).toBe(
      `pmiyc: ${join(pipeFolder, '.env')} is a named pipe (FIFO), not a file: pmiyc reads the variables of .env in the working folder: make it a regular file you may read, or export them in the shell and move it away\n`,
    );
    expect(piped.code).toBe(2);
    const venvFolder = join(folder, 'env-venv');
    mkdirSync(join(venvFolder, '.env'), { recursive: true });
    expect((await runCli(['models'], { cwd: venvFolder })).code).toBe(0);
  });
});

describe('YAML a config cannot use', () => {
  it('refuses an alias bomb at once with the file and the line, exit 2', async () => {
    const path = join(folder, 'bomb.yaml');
    writeFileSync(path, ALIAS_BOMB_CONFIG);
    const result = await runWatched(['models', '--config', path]);
    expect(result.stderr).toBe(
      `pmiyc: ${path}:9: too many alias expansions (a YAML alias bomb?): a config's aliases may stand for 100 values; write the values out instead of aliasing lists of aliases\n`,
    );
    expect(result.code).toBe(2);
  });

  it('says what a model alias may be when one has a "/", with the file and the line, exit 2', async () => {
    const path = join(folder, 'slash.yaml');
    writeFileSync(path, 'models:\n  alpha:\n    provider: openai\n    model: gpt-4o\n  openai/gpt-4o-mini:\n    provider: openai\n    model: gpt-4o-mini\n');
    const result = await runWatched(['models', '--config', path]);
    expect(result.stderr).toBe(
      `pmiyc: ${path}:5: models.openai/gpt-4o-mini: an alias is letters, digits, ".", "_" or "-" (no "/"): rename it, e.g. openai-gpt-4o-mini\n`,
    );
    expect(result.code).toBe(2);
  });

  it('names an alias without its anchor with the file and the line, exit 2', async () => {
    const path = join(folder, 'unanchored.yaml');
    writeFileSync(path, 'models:\n  alpha:\n    provider: openai\n    model: x\n    headers: *shared\n');
    const result = await runWatched(['models', '--config', path]);
    expect(result.stderr).toBe(`pmiyc: ${path}:5: *shared has no anchor &shared before it: mark the value with &shared first, or write it out\n`);
    expect(result.code).toBe(2);
  });
});
