import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from './cli-helpers.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-store-trouble-'));
  chmodSync(folder, 0o755);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const smallRun = (store: string, run: string, claims = 1) => [
  'run',
  '--models',
  'sim/a,sim/b',
  '--claims',
  'examples',
  '--limit',
  String(claims),
  '--setting',
  'single',
  '--store',
  store,
  '--run',
  run,
];
const isRoot = process.getuid?.() === 0;

describe('a store pmiyc may not write', () => {
  const canDropPrivileges = isRoot && spawnSync('setpriv', ['--version']).status === 0;
  /** The built CLI as user nobody, who may read what root made but write nothing of it. */
  const asNobody = (args: readonly string[]) =>
    spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, CLI, ...args], { encoding: 'utf8' });

  it('exits 2 naming the file and what to do, for a read-only file and for a read-only folder; readers still read it', async ({ skip }) => {
    if (!canDropPrivileges) skip('needs root and setpriv, to run as a user who may not write the store (root writes any file)');
    if (spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'test', '-r', CLI]).status !== 0) {
      skip('the built CLI is in a folder another user cannot read (e.g. a clone under mktemp -d)');
    }
    const shelf = join(folder, 'shelf');
    mkdirSync(shelf, { mode: 0o755 });
    const readOnlyFile = join(shelf, 'read-only.db');
    expect((await runCli(smallRun(readOnlyFile, 'kept'))).code).toBe(0);
    chmodSync(readOnlyFile, 0o444);
    // A file nobody owns and may write, in a folder nobody may not write: SQLite cannot keep its journal there.
    const inReadOnlyFolder = join(shelf, 'writable.db');
    expect((await runCli(smallRun(inReadOnlyFolder, 'kept'))).code).toBe(0);
    chownSync(inReadOnlyFolder, 65534, 65534);
    for (const store of [readOnlyFile, inReadOnlyFolder]) {
      for (const args of [smallRun(store, 'another'), ['run', '--store', store, '--run', 'kept', '--retry-failed']]) {
        const refused = asNobody(args);
        expect(refused.status, refused.stderr).toBe(2);
        expect(refused.stderr).toMatch(new RegExp(`^pmiyc: ${store} cannot be written \\(SQLITE_READONLY\\w*: the file or its folder is read-only\\): `));
        expect(refused.stderr).toContain('chmod u+w');
        expect(refused.stderr).not.toContain('unexpected');
      }
      const listed = asNobody(['runs', '--store', store]);
      expect(listed.status, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(/^kept\s+tournament\s+completed\s/m);
    }
  });
});

describe('a full disk', () => {
  it('says the disk is full and what to do (exit 2), and the run it stopped is interrupted, not failed; once there is room, --resume finishes it', async ({
    skip,
  }) => {
    if (!isRoot) skip('needs root, to mount a small file system that fills up');
    const disk = join(folder, 'disk');
    mkdirSync(disk);
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', disk]).status !== 0) skip('cannot mount a tmpfs here');
    try {
      const store = join(disk, 'pmiyc.db');
      expect((await runCli(smallRun(store, 'kept'))).code).toBe(0);
      // Fill what is left of the disk.
      const filler = join(disk, 'filler');
      spawnSync('sh', ['-c', `cat /dev/zero > ${filler}`]);
      const full = await runCli(smallRun(store, 'big', 3));
      expect(full.code, full.stderr).toBe(2);
      expect(full.stderr).toContain('pmiyc: the disk is full (or a size limit was reached): free space, then ');
      expect(full.stderr).toContain(`${store} could not be written (SQLITE_FULL), and nothing stored so far is lost`);
      expect(full.stderr).not.toContain('unexpected');
      writeFileSync(filler, '');
      const listed = await runCli(['runs', '--store', store]);
      expect(listed.stdout).toMatch(/^kept\s+tournament\s+completed\s/m);
      // The run that met the full disk, if it was created, goes on from what it stored; else it starts anew.
      const started = /^big\s/m.test(listed.stdout);
      if (started) expect(listed.stdout).toMatch(/^big\s+tournament\s+interrupted \((disk full|crash)\)\s/m);
      const again = await runCli(started ? ['run', '--store', store, '--run', 'big', '--resume'] : smallRun(store, 'big', 3));
      expect(again.code, again.stderr).toBe(0);
      expect((await runCli(['runs', '--store', store])).stdout).toMatch(/^big\s+tournament\s+completed\s/m);
    } finally {
      spawnSync('umount', [disk]);
    }
  });
});

describe.runIf(spawnSync('sh', ['-c', 'ulimit -f 100']).status === 0)('a file-size limit (ulimit -f)', () => {
  /** The built CLI in a shell that limits the size of the files it writes to `blocks` of 512 bytes (POSIX sh). */
  const limitedCli = (blocks: number, args: readonly string[]) =>
    spawnSync('sh', ['-c', `ulimit -f ${blocks}; exec "$0" "$@"`, process.execPath, CLI, ...args], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
  const exported = async (store: string) => (await runCli(['export', '--store', store, '--run', 'r', '--format', 'jsonl'])).stdout;
  /** A study's stored rows, without the run's id (two stores number their runs apart). */
  const rowsOf = (sql: string) => async (store: string) => {
    const database = new Database(store, { readonly: true });
    try {
      return database.prepare(sql).all();
    } finally {
      database.close();
    }
  };
  const answers = rowsOf(
    'SELECT model, domain, claim_index, sample_index, score, attempts, unusable, raw, call_hash FROM consistency_samples ORDER BY 1, 2, 3, 4',
  );
  const labels = rowsOf('SELECT conversation_id, turn_index, judge, role, labels, problem, attempts, raw, call_hash FROM turn_labels ORDER BY 1, 2, 3');
  const tournament = (store: string) => ['run', '--models', 'sim/stubborn,sim/open-minded', '--claims', 'examples', '--store', store, '--run', 'r'];
  /** A finished tournament `t` in the store, made without a limit; analyze then writes about 300 KB more than the limit lets it. */
  const withTournament = async (store: string) => {
    expect((await runCli(['run', '--models', 'sim/stubborn,sim/open-minded', '--claims', 'examples', '--store', store, '--run', 't'])).code).toBe(0);
    return Math.ceil(statSync(store).size / 512) + 600;
  };
  interface LimitCase {
    readonly start: (store: string) => string[];
    readonly resume: string[];
    readonly recordsOf: (store: string) => Promise<unknown>;
    /** Prepares the store and gives the limit in blocks of 512 bytes (2,400 unless it does). */
    readonly prepare?: (store: string) => Promise<number>;
  }
  const cases: Array<[string, LimitCase]> = [
    ['run', { start: tournament, resume: ['run', '--run', 'r'], recordsOf: exported }],
    [
      'consistency',
      {
        start: (store) => [
          'consistency',
          '--models',
          'sim/stubborn,sim/open-minded',
          '--claims',
          'examples',
          '--answers',
          '4',
          '--store',
          store,
          '--study',
          'r',
        ],
        resume: ['consistency', '--study', 'r'],
        recordsOf: answers,
      },
    ],
    [
      'analyze',
      {
        start: (store) => ['analyze', '--run', 't', '--judge', 'sim/judge', '--store', store, '--study', 'r'],
        resume: ['analyze', '--study', 'r'],
        recordsOf: labels,
        prepare: withTournament,
      },
    ],
  ];

  it.each(cases)(
    '%s: reached mid-run, it reads as a full disk (exit 2, interrupted (disk full)), and --resume without the limit completes the run as one that never stopped',
    async (command, { start, resume, recordsOf, prepare }) => {
      const store = join(folder, `limited-${command}.db`);
      const limited = limitedCli((await prepare?.(store)) ?? 2_400, start(store));
      expect(limited.status, limited.stderr).toBe(2);
      expect(limited.stderr.trim().split('\n').at(-1)).toMatch(
        new RegExp(
          `^pmiyc: the disk is full \\(or a size limit was reached\\): free space, then --resume; ${store} could not be written \\(SQLITE_(FULL|IOERR\\w*)\\), and nothing stored so far is lost`,
        ),
      );
      expect(limited.stderr).not.toContain('unexpected');
      expect((await runCli(['runs', '--store', store])).stdout).toMatch(/^r\s+\S+\s+interrupted \(disk full\)\s/m);
      const resumed = await runCli([...resume, '--store', store, '--resume']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect((await runCli(['runs', '--store', store])).stdout).toMatch(/^r\s+\S+\s+completed\s/m);
      // The same run made in one go stores the same records.
      const whole = join(folder, `whole-${command}.db`);
      await prepare?.(whole);
      expect((await runCli(start(whole))).code).toBe(0);
      const expected = await recordsOf(whole);
      expect(JSON.stringify(expected).length).toBeGreaterThan(1_000);
      expect(await recordsOf(store)).toEqual(expected);
    },
    120_000,
  );
});
