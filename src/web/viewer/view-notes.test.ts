import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handRecord } from '../../../test/support/hand-records.js';
import { HOSTILE } from '../../../test/support/hostile-records.js';
import type { LeaseWorld } from '../../runner/run-lease.js';
import { openStore, ResultStore, type Store } from '../../store/result-store.js';
import type { ConversationPage } from '../../studies/tournament/tournament-browse.js';
import { SESSION_TOKEN_HEADER } from '../wire/page-session.js';
import type { NoteAnswer, NotesAnswer } from '../wire/view-answers.js';
import { ViewServer } from './view-server.js';

const world = (): LeaseWorld => ({ pid: process.pid, host: 'test-host', nowMs: Date.parse('2026-05-01T12:00:00Z'), isProcessAlive: () => true });
const TOKEN = 'token-of-this-start-0123456789';
const NOW = new Date('2026-12-02T04:00:00.000Z');

const A = 'sim/zeta-a';
const B = 'sim/zeta-b';
const first = handRecord({ run: 'noted', persuader: A, persuadee: B, claim: 'c1 Zanzibar cloves', turns: 3, persuadeeScores: [3], final: 4 });
const second = handRecord({ run: 'noted', persuader: B, persuadee: A, claim: 'c2 Quokkas smile', turns: 5, persuadeeScores: [2, 2], final: 1 });
/** A conversation only the other store has. */
const elsewhere = handRecord({ run: 'other', persuader: A, persuadee: B, claim: 'c3 elsewhere only', turns: 3, persuadeeScores: [3], final: 3 });

let folder: string;
let storePath: string;
let reader: Store;
let writer: Store;
let server: ViewServer;

function makeStore(path: string, run: string, records: ReturnType<typeof handRecord>[]): void {
  const store = ResultStore.open(path);
  const created = store.createRun({ name: run, seed: 1, packageVersion: 'test', config: { command: 'run' } });
  for (const record of records) store.saveConversation(created.id, { ...record, run });
  store.setRunStatus(created.id, 'completed');
  store.close();
}

async function send(method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await fetch(new URL(path, server.url), {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token === undefined ? {} : { [SESSION_TOKEN_HEADER]: options.token }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const notesOf = async (query = '') => (await send('GET', `/api/runs/noted/notes${query}`)).body as unknown as NotesAnswer;
const conversationsWith = async (query: string) =>
  ((await send('GET', `/api/runs/noted/conversations?${query}`)).body as unknown as ConversationPage).items.map((item) => item.conversationId);

describe('research notes in pmiyc view (issue 32)', () => {
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-view-notes-'));
    storePath = join(folder, 'noted.db');
    makeStore(storePath, 'noted', [first, second]);
    makeStore(join(folder, 'other.db'), 'other', [elsewhere]);
    reader = openStore(storePath, { access: 'read' });
    writer = openStore(storePath, { access: 'write' });
    server = await ViewServer.start({ source: reader, port: 0, world, notes: { token: TOKEN, book: writer.notes }, now: () => NOW });
  });
  afterAll(async () => {
    await server?.close();
    reader?.close();
    writer?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const note = { conversationId: first.conversationId, turn: 2, tag: 'odd-argument', grade: 4, note: `reads as sincere ${HOSTILE.script}` };

  it('refuses a write without the token, with a wrong one, and from another site, storing nothing', async () => {
    const refusals = [
      await send('POST', '/api/runs/noted/notes', { body: note }),
      await send('POST', '/api/runs/noted/notes', { body: note, token: `${TOKEN}x` }),
      await send('POST', '/api/runs/noted/notes', { body: note, token: TOKEN.replace('0', '1') }),
      await send('POST', '/api/runs/noted/notes', { body: note, token: TOKEN, headers: { origin: 'http://evil.example' } }),
      await send('POST', '/api/runs/noted/notes', { body: note, token: TOKEN, headers: { 'sec-fetch-site': 'cross-site' } }),
    ];
    expect(refusals.map((answer) => answer.status)).toEqual([403, 403, 403, 403, 403]);
    expect(refusals[0]!.body['error']).toContain('open the address that `pmiyc view` printed');
    expect(refusals[3]!.body['error']).toBe('requests from other sites are refused');
    expect((await notesOf()).notes).toEqual([]);
  });

  it("refuses a note for another store's run or conversation, or a turn the conversation lacks", async () => {
    const otherRun = await send('POST', '/api/runs/other/notes', { body: { ...note, conversationId: elsewhere.conversationId }, token: TOKEN });
    expect(otherRun.status).toBe(404);
    expect(otherRun.body['error']).toContain('notes are written only to the store the viewer serves');
    const otherConversation = await send('POST', '/api/runs/noted/notes', { body: { ...note, conversationId: elsewhere.conversationId }, token: TOKEN });
    expect(otherConversation.status).toBe(404);
    expect(otherConversation.body['error']).toContain(`run noted of this store has no conversation ${elsewhere.conversationId}`);
    const noTurn = await send('POST', '/api/runs/noted/notes', { body: { ...note, turn: 40 }, token: TOKEN });
    expect(noTurn.status).toBe(404);
    const badGrade = await send('POST', '/api/runs/noted/notes', { body: { ...note, grade: 6 }, token: TOKEN });
    expect(badGrade.status).toBe(400);
    expect(badGrade.body['error']).toContain('grade');
    const empty = await send('POST', '/api/runs/noted/notes', {
      body: { conversationId: first.conversationId, turn: null, tag: ' ', grade: null, note: '' },
      token: TOKEN,
    });
    expect(empty.body['error']).toBe('a note needs a tag, a grade or some text');
    expect((await notesOf()).notes).toEqual([]);
  });

  it('adds, lists, filters, edits and deletes notes with the token; hostile text comes back as the same text', async () => {
    const added = await send('POST', '/api/runs/noted/notes', { body: note, token: TOKEN });
    expect(added.status).toBe(201);
    const stored = (added.body as unknown as NoteAnswer).note;
    expect(stored).toEqual({ id: stored.id, run: 'noted', ...note, createdAt: NOW.toISOString(), updatedAt: NOW.toISOString() });
    const whole = await send('POST', '/api/runs/noted/notes', {
      body: { conversationId: second.conversationId, turn: null, tag: 'check', grade: null, note: '' },
      token: TOKEN,
    });
    expect(whole.status).toBe(201);

    const listed = await notesOf();
    expect(listed.writing).toEqual({ writable: true, why: null });
    expect(listed.notes.map((entry) => [entry.conversationId, entry.turn, entry.tag, entry.grade])).toEqual([
      [first.conversationId, 2, 'odd-argument', 4],
      [second.conversationId, null, 'check', null],
    ]);
    expect(listed.tags).toEqual([
      { tag: 'check', notes: 1 },
      { tag: 'odd-argument', notes: 1 },
    ]);
    expect((await notesOf('?grade=4')).notes.map((entry) => entry.id)).toEqual([stored.id]);
    expect((await notesOf(`?conversation=${encodeURIComponent(second.conversationId)}`)).notes.map((entry) => entry.tag)).toEqual(['check']);

    // The conversation list filters by them, with every other filter.
    expect(await conversationsWith('tag=odd-argument')).toEqual([first.conversationId]);
    expect(await conversationsWith('grade=4')).toEqual([first.conversationId]);
    expect(await conversationsWith('grade=3')).toEqual([]);
    expect((await conversationsWith('hasNote=1')).sort()).toEqual([first.conversationId, second.conversationId].sort());
    expect(await conversationsWith(`hasNote=1&persuader=${encodeURIComponent(B)}`)).toEqual([second.conversationId]);
    expect((await send('GET', '/api/runs/noted/conversations?grade=9')).status).toBe(400);

    const edited = await send('PUT', `/api/runs/noted/notes/${stored.id}`, { body: { tag: null, grade: 2, note: 'on second thought' }, token: TOKEN });
    expect(edited.status).toBe(200);
    expect((edited.body as unknown as NoteAnswer).note).toMatchObject({ id: stored.id, tag: null, grade: 2, note: 'on second thought', turn: 2 });
    expect(await conversationsWith('tag=odd-argument')).toEqual([]);
    expect((await send('PUT', `/api/runs/noted/notes/${stored.id}`, { body: { grade: 2 } })).status).toBe(403);
    expect((await send('DELETE', `/api/runs/noted/notes/${stored.id}`)).status).toBe(403);
    expect((await send('DELETE', `/api/runs/noted/notes/${stored.id}`, { token: TOKEN })).body).toEqual({ deleted: stored.id });
    expect((await send('DELETE', `/api/runs/noted/notes/${stored.id}`, { token: TOKEN })).status).toBe(404);
    expect((await notesOf()).notes.map((entry) => entry.tag)).toEqual(['check']);
  });

  it('keeps a note across a reopening of the store', () => {
    const again = openStore(storePath, { access: 'read' });
    try {
      const run = again.findRun('noted');
      expect(again.notes.list(run.id).map((entry) => [entry.conversationId, entry.tag])).toEqual([[second.conversationId, 'check']]);
    } finally {
      again.close();
    }
  });

  it('says why when notes cannot be written, and refuses writes even with a token', async () => {
    const readOnly = await ViewServer.start({ source: reader, port: 0, world, notes: { why: 'pmiyc view was started with --read-only' } });
    try {
      const listed = (await (await fetch(`${readOnly.url}api/runs/noted/notes`)).json()) as NotesAnswer;
      expect(listed.writing).toEqual({ writable: false, why: 'pmiyc view was started with --read-only' });
      const refused = await fetch(`${readOnly.url}api/runs/noted/notes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SESSION_TOKEN_HEADER]: TOKEN },
        body: JSON.stringify(note),
      });
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: string }).error).toBe('notes cannot be written here: pmiyc view was started with --read-only');
    } finally {
      await readOnly.close();
    }
  });
});
