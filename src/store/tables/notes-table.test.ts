import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handRecord } from '../../../test/support/hand-records.js';
import { conversationPageSql } from '../browse/conversation-page-sql.js';
import { openStore, ResultStore } from '../result-store.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-notes-table-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const record = handRecord({ persuader: 'sim/a', persuadee: 'sim/b', claim: 'c1 shared claim', turns: 3, persuadeeScores: [3], final: 4 });
const content = { tag: 'odd', grade: 4 as const, note: 'first reading' };

describe('the notes table', () => {
  it("keeps each run's notes apart, even on a conversation id both runs hold, and never touches the run's records", () => {
    const path = join(folder, 'apart.db');
    const store = ResultStore.open(path);
    const [a, b] = ['a', 'b'].map((name) => {
      const run = store.createRun({ name, seed: 1, packageVersion: 'test', config: { command: 'run' } });
      store.saveConversation(run.id, { ...record, run: name });
      return run;
    });
    const before = [...store.conversations(a!.id)];
    const noteOfA = store.notes.add(a!.id, { conversationId: record.conversationId, turn: 3 }, content, '2026-12-02T04:00:00.000Z');
    expect(store.notes.list(b!.id)).toEqual([]);
    expect(store.notes.update(b!.id, noteOfA.id, { ...content, grade: 1 }, '2026-12-02T04:01:00.000Z')).toBeUndefined();
    expect(store.notes.remove(b!.id, noteOfA.id)).toBe(false);
    expect(store.notes.update(a!.id, noteOfA.id, { tag: null, grade: null, note: 'second reading' }, '2026-12-02T04:02:00.000Z')).toMatchObject({
      tag: null,
      grade: null,
      note: 'second reading',
      createdAt: '2026-12-02T04:00:00.000Z',
      updatedAt: '2026-12-02T04:02:00.000Z',
    });
    expect([...store.conversations(a!.id)]).toEqual(before);
    store.close();

    const reopened = openStore(path, { access: 'read' });
    expect(reopened.notes.listAll().map((note) => [note.run, note.turn, note.note])).toEqual([['a', 3, 'second reading']]);
    reopened.close();
  });

  it('refuses a grade outside 1-5 even from a caller that skips the checks', () => {
    const store = ResultStore.open(join(folder, 'check.db'));
    const run = store.createRun({ name: 'r', seed: 1, packageVersion: 'test', config: { command: 'run' } });
    expect(() => store.notes.add(run.id, { conversationId: 'x', turn: null }, { ...content, grade: 7 as never }, '2026-12-02T04:00:00.000Z')).toThrow(/CHECK/);
    store.close();
  });

  it.each([{ tag: 'odd' }, { grade: 4 as const }, { hasNote: true as const }])('lists conversations by %o from the notes, never walking the run', (notes) => {
    const path = join(folder, 'plan.db');
    ResultStore.open(path).close();
    const database = new Database(path, { readonly: true });
    try {
      const sql = conversationPageSql(1, { sort: 'pair', limit: 50, offset: 0, notes });
      const plan = (statement: string, parameters: unknown[]) =>
        (database.prepare(`EXPLAIN QUERY PLAN ${statement}`).all(...parameters) as Array<{ detail: string }>).map((row) => row.detail).join('\n');
      for (const text of [plan(sql.page, [...sql.parameters, 50, 0]), plan(sql.count, sql.countParameters)]) {
        expect(text).toMatch(/SEARCH n USING COVERING INDEX notes_by_\w+ \(run_id=\?/);
        expect(text).toMatch(/SEARCH conversations USING (COVERING )?INDEX sqlite_autoindex_conversations_1 \(run_id=\? AND id=\?\)/);
        expect(text).not.toContain('conversations_by_pair');
      }
    } finally {
      database.close();
    }
  });
});
