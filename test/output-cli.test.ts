import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportDocument } from '../src/report/report-document.js';
import { runCli } from './cli-helpers.js';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

let folder: string;
let store: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-output-'));
  store = join(folder, 'demo.db');
  // Two demos with the same seed: runs demo-1 and demo-2 with the same 576 conversation ids.
  for (const run of ['demo-1', 'demo-2']) {
    const demo = await runCli(['demo', '--store', store], { cwd: folder });
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toContain(`Run ${run}`);
  }
}, 120_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs the CLI with standard output going to `path` (a file or device), standard error kept. */
function runWithStdoutTo(path: string, args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const output = openSync(path, 'w');
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', output, 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  closeSync(output);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** Runs `pmiyc ... | head -1` in bash; returns pmiyc's exit code and standard error. */
function runPipedToHead(args: readonly string[]): Promise<{ code: number; stderr: string; firstLine: string }> {
  const errors = join(folder, 'head-stderr.txt');
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash script: ${...} is bash's, not a template
  const script = 'node "$1" "${@:3}" 2>"$2" | head -1 > "$2.out"; echo "${PIPESTATUS[0]}"';
  const child = spawn('bash', ['-c', script, 'pmiyc', CLI, errors, ...args]);
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () =>
      resolve({ code: Number(stdout.trim()), stderr: readFileSync(errors, 'utf8'), firstLine: readFileSync(`${errors}.out`, 'utf8').trim() }),
    );
  });
}

const ONE_LINE_NO_STACK = (stderr: string) => {
  expect(stderr.trim().split('\n'), stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toContain('unexpected error');
};

describe('a report of two runs that share conversations', () => {
  const out = () => join(folder, 'combined');
  let result: Awaited<ReturnType<typeof runCli>>;
  const sentence = '576 conversations of run demo-2 are also in run demo-1 and were counted once, from run demo-1';
  beforeAll(async () => {
    result = await runCli(['report', '--store', store, '--run', 'demo-1,demo-2', '--out', out(), '--replicates', '200']);
  }, 60_000);

  it('says so on the terminal, in one line after the report is written', () => {
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Report of 576 conversations written to /);
    expect(result.stderr).toBe(`pmiyc: ${sentence}\n`);
  });

  it('says so in report.json, index.html and report.md', () => {
    const json = JSON.parse(readFileSync(join(out(), 'report.json'), 'utf8')) as ReportDocument;
    expect(json.meta).toMatchObject({ conversations: 576, duplicatesSkipped: 576, duplicates: [{ run: 'demo-2', alsoIn: 'demo-1', conversations: 576 }] });
    expect(json.meta.notes).toContain(sentence);
    const page = readFileSync(join(out(), 'index.html'), 'utf8');
    expect(page).toMatch(new RegExp(`<p class="notice" id="duplicates"><strong>Conversations counted once.</strong> ${sentence}\\.`));
    expect(page).toContain('rest on 576 conversations, not 1,152');
    const markdown = readFileSync(join(out(), 'report.md'), 'utf8');
    expect(markdown).toContain(`> **Conversations counted once.** ${sentence}. The numbers rest on 576 conversations, not 1152.`);
  });

  it('leaves pairs.csv a plain table (the docs say why the CSV files carry no note)', () => {
    const pairs = readFileSync(join(out(), 'pairs.csv'), 'utf8').trim().split('\n');
    expect(pairs[0]).toMatch(/^domain,setting,persuader,persuadee,/);
    expect(pairs).toHaveLength(1 + 4 * 4 * 4);
  });
});

describe('output that cannot be written', () => {
  it.skipIf(!existsSync('/dev/full'))('export > /dev/full ends with one line and code 1 (skipped where /dev/full does not exist)', async () => {
    for (const format of ['jsonl', 'csv']) {
      const result = await runWithStdoutTo('/dev/full', ['export', '--store', store, '--format', format]);
      expect(result.code).toBe(1);
      ONE_LINE_NO_STACK(result.stderr);
      expect(result.stderr).toMatch(/^pmiyc: cannot write (to )?standard output: no space left on device \(ENOSPC\)/);
    }
  });

  it('export | head -1 ends quietly with code 0: the reader going away is not an error', async () => {
    const result = await runPipedToHead(['export', '--store', store]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.firstLine)).toMatchObject({ run: 'demo-2' });
  });

  it('a report whose folder cannot be made names the file, the reason and a remedy in one line, code 1', async () => {
    const blocker = join(folder, 'not-a-folder');
    writeFileSync(blocker, 'a file where the report folder should be');
    const result = await runCli(['report', '--store', store, '--out', join(blocker, 'report'), '--format', 'md,json']);
    expect(result.code).toBe(1);
    ONE_LINE_NO_STACK(result.stderr);
    expect(result.stderr).toBe(
      `pmiyc: cannot write ${join(blocker, 'report', 'report.md')}: part of the path is a file, not a folder (ENOTDIR); rename that file or write to another folder with --out\n`,
    );
    expect(readdirSync(folder).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
