import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handRecord } from '../../test/support/hand-records.js';
import { InputError } from '../domain/errors/input-error.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { ResultStore } from './result-store.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-open-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const opens = [ResultStore.open, ResultStore.openExisting, ResultStore.openReadOnly];
const snapshot = (path: string) => ({ bytes: readFileSync(path).toString('hex'), mtimeMs: statSync(path).mtimeMs });

/** A store as pmiyc wrote it before schema 4 (one call per request hash, no leases). */
function schemaThreeStore(path: string): void {
  const database = new Database(path);
  for (const sql of MIGRATIONS.slice(0, 3)) database.exec(sql);
  database.pragma('user_version = 3');
  database.prepare("INSERT INTO runs (name, created_at, seed, package_version, config, status) VALUES ('old', 'now', 0, '0', '{}', 'stopped')").run();
  database
    .prepare(
      "INSERT INTO calls (hash, model, run_id, request, reply_text, finish_reason, cost_usd, latency_ms, retries, created_at) VALUES ('h1', 'm', 1, x'00', 'hello', 'stop', 0.5, 1, 0, 'now')",
    )
    .run();
  database.close();
}

describe('opening a store', () => {
  it('refuses a SQLite file that pmiyc did not make, and leaves it exactly as it was', () => {
    const path = join(folder, 'foreign.db');
    const database = new Database(path);
    database.exec('CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES (1)');
    database.close();
    const before = snapshot(path);
    for (const open of opens) {
      expect(() => open(path)).toThrow(InputError);
      expect(() => open(path)).toThrow(
        `${path} is an SQLite database but not a pmiyc store: pass another --store (pmiyc never changes a file it did not make)`,
      );
    }
    expect(snapshot(path)).toEqual(before);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('refuses a file that is not SQLite, and one that is damaged, with one line', () => {
    const text = join(folder, 'notes.db');
    writeFileSync(text, 'these are my notes, not a database\n'.repeat(200));
    for (const open of opens) expect(() => open(text)).toThrow(`${text} is not a pmiyc store (not an SQLite database): pass the right --store`);

    const damaged = join(folder, 'damaged.db');
    ResultStore.open(damaged).close();
    const bytes = readFileSync(damaged);
    bytes.fill(0xff, 100, 4096 * 2);
    writeFileSync(damaged, bytes);
    for (const open of opens) expect(() => open(damaged)).toThrow(/is damaged \(SQLite reports SQLITE_CORRUPT|is not a pmiyc store/);
  });

  it('reads a store read-only: no migration, no journal files, not a byte or a timestamp changed', () => {
    const path = join(folder, 'store.db');
    const store = ResultStore.open(path);
    store.createRun({ name: 'r', seed: 0, packageVersion: '0', config: {} });
    store.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
    const before = snapshot(path);
    const reader = ResultStore.openReadOnly(path);
    expect(reader.listRuns().map((run) => run.name)).toEqual(['r']);
    reader.close();
    expect(snapshot(path)).toEqual(before);
    expect(existsSync(`${path}-wal`) || existsSync(`${path}-shm`)).toBe(false);
  });

  it('asks for `pmiyc upgrade` instead of migrating an older store read-only, and a writer upgrades it keeping every call', () => {
    const path = join(folder, 'old.db');
    schemaThreeStore(path);
    expect(() => ResultStore.openReadOnly(path)).toThrow(
      `${path} was written by an older pmiyc (store schema 3, this one reads ${SCHEMA_VERSION}): upgrade it once with \`pmiyc upgrade --store ${path}\`, then try again`,
    );
    const store = ResultStore.openExisting(path);
    const run = store.findRun('old');
    expect(run.status).toBe('interrupted');
    expect(store.callsMadeBy(run.id)).toBe(1);
    expect(store.spentUsd(run.id)).toBe(0.5);
    expect(store.callCache(run.id).lookup('h1')).toEqual({ reply: { text: 'hello', finishReason: 'stop', costUsd: 0.5 } });
    store.close();
    expect(ResultStore.openReadOnly(path).listRuns()).toHaveLength(1);
  });

  it('does not create a store for a reader, and says how to make one', () => {
    const path = join(folder, 'none.db');
    expect(() => ResultStore.openReadOnly(path)).toThrow(`no store at ${path}`);
    expect(() => ResultStore.openExisting(path)).toThrow(`no store at ${path}`);
    expect(existsSync(path)).toBe(false);
  });
});

describe('upgrading to schema 5 (browsing)', () => {
  it('fills the new columns, the run claims and the id index from the stored records, so an old conversation can be shown', () => {
    const path = join(folder, 'four.db');
    const database = new Database(path);
    for (const sql of MIGRATIONS.slice(0, 4)) database.exec(sql);
    database.pragma('user_version = 4');
    database.prepare("INSERT INTO runs (name, created_at, seed, package_version, config, status) VALUES ('old', 'now', 0, '0', '{}', 'completed')").run();
    const record = handRecord({ persuader: 'A', persuadee: 'B', claim: 'c7', turns: 5, persuadeeScores: [2, 5], final: 5, persuaderStance: 4 });
    database
      .prepare(
        "INSERT INTO conversations (run_id, id, domain, setting, persuader, persuadee, claim_index, status, nc, record) VALUES (1, ?, 'subjective', 'multi', 'A', 'B', 7, 'completed', 1, ?)",
      )
      .run(record.conversationId, JSON.stringify({ ...record, run: 'old' }));
    database.close();

    ResultStore.openExisting(path).close();
    const upgraded = new Database(path, { readonly: true });
    expect(upgraded.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(upgraded.prepare('SELECT early_stopped, failure_reason FROM conversations').get()).toEqual({ early_stopped: 1, failure_reason: null });
    expect(upgraded.prepare('SELECT domain, claim_index, claim, question FROM run_claims').all()).toEqual([
      { domain: 'subjective', claim_index: 7, claim: 'c7', question: null },
    ]);
    upgraded.close();
    const store = ResultStore.openReadOnly(path);
    expect(store.conversationsWithId(record.conversationId).map((entry) => entry.run)).toEqual(['old']);
    store.close();
  });
});
