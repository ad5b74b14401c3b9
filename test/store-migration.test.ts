import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/stores/schema-6-interrupted.db', import.meta.url));
const DESIGN = ['--models', 'sim/eloquent,sim/stubborn', '--claims', 'examples', '--limit', '2', '--seed', '3'];

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-migration-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const exported = async (store: string, run: string) =>
  (await runCli(['export', '--store', store, '--run', run, '--format', 'jsonl'])).stdout
    .trim()
    .split('\n')
    .map((line) => {
      const { run: _run, ...record } = JSON.parse(line) as Record<string, unknown>;
      return record;
    })
    .sort((a, b) => String(a['conversationId']).localeCompare(String(b['conversationId'])));

describe('a store written before calls and records were stored compactly', () => {
  it('is read, resumed and replayed unchanged', async () => {
    const store = join(folder, 'old.db');
    copyFileSync(FIXTURE, store);
    const old = new Database(store, { readonly: true });
    const before = new Map(
      (old.prepare('SELECT id, record FROM conversations').all() as Array<{ id: string; record: string }>).map((row) => [row.id, JSON.parse(row.record)]),
    );
    old.close();
    expect(before.size).toBe(10);

    // The interrupted run resumes: its 6 missing conversations are rebuilt from its stored calls, none asked again.
    const resumed = await runCli(['run', '--store', store, '--resume']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('Run before in');
    expect(resumed.stdout).toContain('10 conversations were already done.');
    expect(resumed.stdout).toMatch(/^conversations finished\s+6\s+16 of 16$/m);
    expect(resumed.stdout).toMatch(/^calls made\s+0\s/m);
    const records = await exported(store, 'before');
    expect(records).toHaveLength(16);
    for (const record of records) {
      const earlier = before.get(String(record['conversationId']));
      if (earlier) expect({ ...earlier, run: undefined }).toEqual({ ...record, run: undefined });
    }

    // A new run of the same design replays every call of the old one and ends with the same conversations.
    const again = await runCli(['run', '--store', store, '--run', 'again', ...DESIGN]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^calls made\s+0\s+0$/m);
    expect(again.stdout).toContain('Nothing was asked of any model this session');
    expect(await exported(store, 'again')).toEqual(records);
    expect((await runCli(['report', '--store', store, '--run', 'again', '--out', join(folder, 'report'), '--format', 'json'])).code).toBe(0);
  });
});

describe('pmiyc upgrade on a store written before the search index', () => {
  it("indexes the old conversations' messages, says so, and a second upgrade has nothing left to do", async () => {
    const store = join(folder, 'to-search.db');
    copyFileSync(FIXTURE, store);
    const upgraded = await runCli(['upgrade', '--store', store]);
    expect(upgraded.code).toBe(0);
    expect(upgraded.stdout).toMatch(/^Indexed the messages of 10 conversations for search in \d+\.\d s\.$/m);
    expect(upgraded.stderr).toContain('indexing messages for search: 10 of 10 conversations');
    const again = await runCli(['upgrade', '--store', store]);
    expect(again.stdout).toBe(`${store} is up to date for this pmiyc.\n`);
  });
});
