import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-input-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let counter = 0;
/** Writes a file of exact bytes into the test folder and returns its path. */
function writeBytes(name: string, ...parts: Array<string | number[]>): string {
  const path = join(folder, `${++counter}-${name}`);
  writeFileSync(path, Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part)))));
  return path;
}

const BOM = [0xef, 0xbb, 0xbf];

describe('claims files with duplicates', () => {
  it('merges a repeated claim with a warning naming both lines, so the run counts itself complete', async () => {
    const claims = writeBytes(
      'claims.jsonl',
      '{"claim": "Cats are better"}\n{"claim": "Tea beats coffee"}\n{"claim": "Cats are better"}\n{"claim": "Rain is nice"}\n',
    );
    const store = join(folder, `${++counter}-store.db`);
    const run = await runCli(['run', '--models', 'sim/a,sim/b', '--claims', claims, '--setting', 'single', '--store', store, '--run', 'dup']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`pmiyc: warning: ${claims}:3: the same claim as line 1: kept once`);
    // Three distinct claims, two persuaders, two persuadees: 12 conversations planned and done.
    expect(run.stdout).toMatch(/^conversations finished\s+12\s+12 of 12$/m);
    const runs = await runCli(['runs', '--store', store]);
    expect(runs.code).toBe(0);
    expect(runs.stdout).toMatch(/^dup\s+tournament\s+completed\s+.*\s12\/12\s/m);
  });
});

describe('text encodings of user files', () => {
  it.each([
    ['claims.jsonl', '{"claim": "Marked"}\n{"claim": "Plain"}\n'],
    ['claims.csv', 'claim\nMarked\nPlain\n'],
  ])('accepts a byte order mark in %s', async (name, content) => {
    const result = await runCli(['claims', writeBytes(name, BOM, content), '--format', 'jsonl']);
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { claim: string }).claim),
    ).toEqual(['Marked', 'Plain']);
  });

  it('refuses a claims file that is not UTF-8 with its line and column, instead of reading U+FFFD', async () => {
    const claims = writeBytes('latin1.jsonl', '{"claim": "fine"}\n{"claim": "caf', [0xe9], '"}\n');
    const result = await runCli(['claims', claims, '--format', 'jsonl']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`pmiyc: ${claims}:2: not valid UTF-8 (byte 0xe9 at column 15): save the file as UTF-8\n`);
    expect(result.stdout).toBe('');
  });

  it('refuses a config file that is not UTF-8', async () => {
    const config = writeBytes('pmiyc.yaml', 'models: {}\n# caf', [0xe9], '\n');
    const result = await runCli([
      'run',
      '--config',
      config,
      '--models',
      'sim/a,sim/b',
      '--claims',
      'examples',
      '--dry-run',
      '--store',
      join(folder, 'unused.db'),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${config}:2: not valid UTF-8 (byte 0xe9 at column 6): save the file as UTF-8`);
  });
});

describe('files that cannot be read', () => {
  it('names a config or claims file that is a folder in one line, and exits 2', async () => {
    const folderAsFile = join(folder, `${++counter}-pmiyc.yaml`);
    mkdirSync(folderAsFile);
    const config = await runCli([
      'run',
      '--config',
      folderAsFile,
      '--models',
      'sim/a,sim/b',
      '--claims',
      'examples',
      '--dry-run',
      '--store',
      join(folder, 'unused.db'),
    ]);
    expect(config.code).toBe(2);
    expect(config.stderr).toBe(`pmiyc: ${folderAsFile} is a folder, not a file: give the path of a file in it\n`);
    const claimsFolder = join(folder, `${++counter}-claims.csv`);
    mkdirSync(claimsFolder);
    const claims = await runCli(['claims', claimsFolder]);
    expect(claims.code).toBe(2);
    expect(claims.stderr).toBe(`pmiyc: ${claimsFolder} is a folder, not a file: give the path of a file in it\n`);
  });
});

describe('PMIYC_DATA_MIRROR', () => {
  it('refuses a mirror URL with credentials, without printing them', async () => {
    const result = await runCli(['claims', 'misinformation', '--format', 'jsonl'], {
      env: { PMIYC_DATA_MIRROR: 'https://reader:s3cret@127.0.0.1:9/data/', PMIYC_DATA_DIR: '', XDG_CACHE_HOME: join(folder, 'cache') },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('PMIYC_DATA_MIRROR holds a user name or password: use a URL without credentials, such as https://127.0.0.1:9/data/');
    expect(result.stderr).not.toContain('s3cret');
  });
});
