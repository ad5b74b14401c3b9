import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/result-store.js';
import type { ConversationPage } from '../src/studies/tournament/tournament-browse.js';
import { ViewApi } from '../src/web/viewer/view-api.js';
import { runCli } from './cli-helpers.js';

/**
 * A store whose pages were damaged under SQLite's nose (issue 41): a conversation's stored record no
 * longer decodes (here: its bytes cut in half, and in a second run its JSON text cut short), while
 * SQLite itself reports nothing. Every reader says the store is damaged in the words and with the exit
 * code of SQLITE_CORRUPT, naming the run and the conversation; `export --skip-damaged` writes the
 * others and says how many it left out; analyze writes nothing before it fails; the viewer's list shows
 * the other conversations and the damaged one as damaged.
 */

let folder: string;
let store: string;
/** The damaged conversations: of run-1 (a deflated record cut in half) and run-2 (JSON text cut short). */
let damagedBlob: string;
let damagedText: string;

/** The rows a store holds per table, and its runs whole: what a command that must not write is checked against. */
function storeContents(): { counts: Record<string, number>; runs: unknown[] } {
  const database = new Database(store, { readonly: true });
  try {
    const tables = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
    const counts = Object.fromEntries(tables.map((table) => [table, database.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number]));
    return { counts, runs: database.prepare('SELECT * FROM runs ORDER BY id').all() };
  } finally {
    database.close();
  }
}

/** Damages the record of run `run`'s conversation at `offset` (in rowid order); its id. Two runs of one design share ids: each damages another. */
function damage(run: string, offset: number, cut: (database: Database.Database, rowid: number) => void): string {
  const database = new Database(store);
  try {
    const row = database
      .prepare('SELECT c.rowid AS rowid, c.id AS id FROM conversations c JOIN runs r ON r.id = c.run_id WHERE r.name = ? ORDER BY c.rowid LIMIT 1 OFFSET ?')
      .get(run, offset) as { rowid: number; id: string };
    cut(database, row.rowid);
    return row.id;
  } finally {
    database.close();
  }
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-damaged-'));
  store = join(folder, 'store.db');
  // Two runs, named run-1 and run-2 by the store.
  for (let run = 1; run <= 2; run++) {
    const made = await runCli(['run', '--persuaders', 'sim/eloquent', '--persuadees', 'sim/stubborn', '--limit', '3', '--store', store]);
    expect(made.code, made.stderr).toBe(0);
  }
  damagedBlob = damage('run-1', 1, (database, rowid) =>
    database.prepare('UPDATE conversations SET record = substr(record, 1, length(record) / 2) WHERE rowid = ?').run(rowid),
  );
  // A store written before records were compact keeps them as JSON text: cut short, it is not JSON.
  damagedText = damage('run-2', 3, (database, rowid) =>
    database.prepare(`UPDATE conversations SET record = '{"conversationId": "x", "turns": [{"index": 1,' WHERE rowid = ?`).run(rowid),
  );
}, 120_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const damagedMessage = (id: string, run: string) =>
  new RegExp(
    `^pmiyc: ${store.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is damaged \\(conversation ${id} of run ${run} cannot be read: [^\\n]+\\): restore it from a copy, or pass another --store`,
    'm',
  );

describe('a store with a record that does not decode', () => {
  it('export, report and show say the store is damaged, naming the run and the conversation, with exit 2 (as SQLITE_CORRUPT)', async () => {
    for (const [run, id] of [
      ['run-1', damagedBlob],
      ['run-2', damagedText],
    ] as const) {
      const exported = await runCli(['export', '--store', store, '--run', run]);
      expect(exported.code).toBe(2);
      expect(exported.stderr).toMatch(damagedMessage(id, run));
      expect(exported.stderr).not.toContain('unexpected error');
      expect(exported.stderr).toContain('pmiyc export --skip-damaged');
      const report = await runCli(['report', '--store', store, '--run', run, '--out', join(folder, `report-${run}`)]);
      expect(report.code).toBe(2);
      expect(report.stderr).toMatch(damagedMessage(id, run));
    }
    const shown = await runCli(['show', damagedBlob, '--store', store]);
    expect(shown.code).toBe(2);
    expect(shown.stderr).toMatch(damagedMessage(damagedBlob, 'run-1'));
  });

  it('export --skip-damaged writes every other conversation and says how many it left out', async () => {
    const whole = await runCli(['export', '--store', store, '--run', 'run-1', '--skip-damaged']);
    expect(whole.code, whole.stderr).toBe(0);
    const ids = whole.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { conversationId: string }).conversationId);
    expect(ids).toHaveLength(5);
    expect(ids).not.toContain(damagedBlob);
    expect(whole.stderr).toContain(`skipped 1 damaged conversation of run run-1 whose records cannot be read (${damagedBlob})`);
  });

  it('analyze fails the same way before writing anything to the store', async () => {
    const before = storeContents();
    const analyzed = await runCli(['analyze', '--store', store, '--run', 'run-1', '--judge', 'sim/judge', '--study', 'labels']);
    expect(analyzed.code).toBe(2);
    expect(analyzed.stderr).toMatch(damagedMessage(damagedBlob, 'run-1'));
    expect(storeContents()).toEqual(before);
  });

  it("shows the viewer's list page with the other conversations, and the damaged one as damaged", () => {
    const opened = openStore(store, { access: 'read' });
    try {
      const api = new ViewApi(opened, () => ({ pid: process.pid, host: 'test-host', nowMs: Date.now(), isProcessAlive: () => false }));
      const answer = api.answer('/api/runs/run-1/conversations', new URLSearchParams({ limit: '50' }));
      expect(answer.status).toBe(200);
      const page = answer.body as ConversationPage;
      expect(page.total).toBe(6);
      expect(page.items.map((item) => item.conversationId)).not.toContain(damagedBlob);
      expect(page.items).toHaveLength(5);
      expect(page.damaged).toEqual([
        { conversationId: damagedBlob, problem: expect.stringMatching(/is damaged \(conversation \w+ of run run-1 cannot be read/) },
      ]);
      const searched = api.answer('/api/runs/run-1/conversations', new URLSearchParams({ limit: '50', q: 'the' }));
      expect(searched.status).toBe(200);
      const single = api.answer(`/api/conversations/${damagedBlob}`, new URLSearchParams({ run: 'run-1' }));
      expect(single.status).not.toBe(500);
      expect((single.body as { error: string }).error).toMatch(/is damaged \(conversation \w+ of run run-1 cannot be read/);
    } finally {
      opened.close();
    }
  });
});
