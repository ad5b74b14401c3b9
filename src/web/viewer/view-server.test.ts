import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handRecord } from '../../../test/support/hand-records.js';
import { HOSTILE, hostileRecords } from '../../../test/support/hostile-records.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import type { LeaseWorld } from '../../runner/run-lease.js';
import { openStore, ResultStore, type Store } from '../../store/result-store.js';
import type { CallDetail, ClaimCell, ConversationPage, PairCell } from '../../studies/tournament/tournament-browse.js';
import type { ModelMeans } from './run-overview.js';
import type { ViewRun } from './view-api.js';
import { ViewServer } from './view-server.js';

/** The lease clock is fixed so that the live run stays live however slowly the tests run. */
const HEARTBEAT = '2026-05-01T12:00:00.000Z';
const DEAD_PID = 2_147_483_000;
const world = (): LeaseWorld => ({ pid: process.pid, host: 'test-host', nowMs: Date.parse(HEARTBEAT) + 2_000, isProcessAlive: (pid) => pid !== DEAD_PID });

const A = 'sim/zeta-a';
const B = 'sim/zeta-b';
const ZANZIBAR = 'c1 Zanzibar cloves are the finest';
const QUOKKA = 'c2 Quokkas smile on purpose';
const TOURNAMENT = { command: 'run', design: { persuaders: [B, A], persuadees: [A, B] } };

const RUN_KEYS = [
  'callsMade',
  'completed',
  'costUsd',
  'createdAt',
  'failed',
  'kind',
  'live',
  'models',
  'name',
  'plannedConversations',
  'protocol',
  'replayed',
  'status',
  'statusText',
  'studyItems',
  'why',
];

/** run-alpha, NC by hand: a1 a>b single 3->4 0.5 | a2 a>b multi 3->5 early stop 1 | a3 b>a single 3->2 -0.5 | a4 b>a single failed | a5 b>a multi 2->1 -1 */
const alpha = {
  a1: handRecord({ run: 'run-alpha', persuader: A, persuadee: B, claim: ZANZIBAR, turns: 3, persuadeeScores: [3], final: 4 }),
  a2: handRecord({ run: 'run-alpha', persuader: A, persuadee: B, claim: ZANZIBAR, turns: 5, persuadeeScores: [3, 5], final: 5 }),
  a3: handRecord({ run: 'run-alpha', persuader: B, persuadee: A, claim: ZANZIBAR, turns: 3, persuadeeScores: [3], final: 2 }),
  a4: handRecord({ run: 'run-alpha', persuader: B, persuadee: A, claim: QUOKKA, turns: 3, persuadeeScores: [3], failure: { reason: 'format', attempts: 3 } }),
  a5: handRecord({ run: 'run-alpha', persuader: B, persuadee: A, claim: QUOKKA, turns: 5, persuadeeScores: [2, 2], final: 1 }),
};
/** run-beta: b1 is a1's conversation again (3->5: 1), b3 is a3's (3->3: 0). */
const beta = {
  b1: handRecord({ run: 'run-beta', persuader: A, persuadee: B, claim: ZANZIBAR, turns: 3, persuadeeScores: [3], final: 5 }),
  b3: handRecord({ run: 'run-beta', persuader: B, persuadee: A, claim: ZANZIBAR, turns: 3, persuadeeScores: [3], final: 3 }),
};
const hostile = hostileRecords().map((record): ConversationRecord => ({ ...record, run: 'run-hostile' }));

/** a1 with the call hash of its opening, as the engine records it. */
const a1WithCall: ConversationRecord = {
  ...alpha.a1,
  turns: alpha.a1.turns.map((turn) =>
    turn.index === 1 ? { ...turn, attempts: turn.attempts.map((attempt) => ({ ...attempt, callHash: 'h-a1-opening' })) } : turn,
  ),
};

let folder: string;
let storePath: string;
let store: Store;
let server: ViewServer;

function fillStore(path: string): void {
  const writer = ResultStore.open(path, { now: () => new Date(HEARTBEAT) });
  const run = (name: string, config: unknown) => writer.createRun({ name, seed: 7, packageVersion: '0.1.0', config });
  const alphaRun = run('run-alpha', TOURNAMENT);
  for (const record of [a1WithCall, alpha.a2, alpha.a3, alpha.a4, alpha.a5]) writer.saveConversation(alphaRun.id, record);
  writer.callCache(alphaRun.id).save({
    hash: 'h-a1-opening',
    modelIdentity: B,
    request: { messages: [{ role: 'user', content: ZANZIBAR }], maxOutputTokens: 100, seed: 1 },
    reply: { text: 'message 1', finishReason: 'stop' },
    latencyMs: 250,
    retries: 0,
  });
  writer.setRunStatus(alphaRun.id, 'completed');
  const betaRun = run('run-beta', TOURNAMENT);
  for (const record of Object.values(beta)) writer.saveConversation(betaRun.id, record);
  writer.setRunStatus(betaRun.id, 'completed');
  const holder = (pid: number) => ({ pid, host: 'test-host', command: 'pmiyc run', acquiredAt: HEARTBEAT, heartbeatAt: HEARTBEAT });
  writer.takeLease(run('run-live', { command: 'run' }).id, holder(process.pid), () => {});
  // Stored as running, but its process is gone: an interruption (crash), not a live run.
  writer.takeLease(run('run-crashed', { command: 'run' }).id, holder(DEAD_PID), () => {});
  const hostileRun = run('run-hostile', TOURNAMENT);
  for (const record of hostile) writer.saveConversation(hostileRun.id, record);
  writer.setRunStatus(hostileRun.id, 'completed');
  writer.close();
}

interface Answer<T> {
  readonly status: number;
  readonly contentType: string;
  readonly body: T;
}

/** A GET through fetch, as the page makes it; the body parsed as JSON. */
async function getJson<T>(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer<T>> {
  const response = await fetch(new URL(path, server.url), { method, headers });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', body: (await response.json()) as T };
}

/** A raw request, so that the Host header can be what a browser on another site would send (fetch sets its own). */
function statusWithHost(path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port: server.port, path, agent: false, headers: { host } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const sorted = (keys: Iterable<string>) => [...keys].sort();
const withoutTurns = ({ turns: _turns, ...summary }: ConversationRecord) => summary;
const idOf = (record: ConversationRecord) => encodeURIComponent(record.conversationId);

describe('ViewServer', () => {
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-view-server-'));
    storePath = join(folder, 'pmiyc.db');
    fillStore(storePath);
    store = openStore(storePath, { access: 'read' });
    server = await ViewServer.start({ source: store, port: 0, world });
  });
  afterAll(async () => {
    await server?.close();
    store?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  describe('its JSON API', () => {
    it('lists every run with its honest status, whether it is live, its counts and models', async () => {
      const answer = await getJson<{ store: string; runs: ViewRun[] }>('/api/runs');
      expect(answer.status).toBe(200);
      expect(answer.contentType).toMatch(/^application\/json/);
      expect(sorted(Object.keys(answer.body))).toEqual(['runs', 'store']);
      expect(answer.body.store).toBe(storePath);
      for (const run of answer.body.runs) expect(sorted(Object.keys(run))).toEqual(RUN_KEYS);
      expect(answer.body.runs.map((run) => [run.name, run.kind, run.status, run.why, run.live, run.completed, run.failed, run.callsMade])).toEqual([
        ['run-alpha', 'tournament', 'completed', null, false, 4, 1, 1],
        ['run-beta', 'tournament', 'completed', null, false, 2, 0, 0],
        ['run-live', 'tournament', 'running', null, true, 0, 0, 0],
        ['run-crashed', 'tournament', 'interrupted', 'crash', false, 0, 0, 0],
        ['run-hostile', 'tournament', 'completed', null, false, 4, 0, 0],
      ]);
      expect(answer.body.runs[0]!.models).toEqual([A, B]);
    });

    it("describes a run: its settings, each pair's mean NC over completed conversations, model means and claims", async () => {
      const answer = await getJson<{
        run: Record<string, unknown>;
        conditions: unknown;
        models: string[];
        failureReasons: string[];
        pairs: PairCell[];
        modelMeans: ModelMeans[];
        claims: ClaimCell[];
      }>('/api/runs/run-alpha');
      expect(answer.status).toBe(200);
      expect(sorted(Object.keys(answer.body))).toEqual(['analysis', 'claims', 'conditions', 'failureReasons', 'modelMeans', 'models', 'pairs', 'run']);
      expect(sorted(Object.keys(answer.body.run))).toEqual(sorted([...RUN_KEYS, 'seed', 'packageVersion', 'gitRevision', 'config']));
      expect(answer.body.run).toMatchObject({ name: 'run-alpha', seed: 7, packageVersion: '0.1.0', gitRevision: null, config: TOURNAMENT });
      expect(answer.body.conditions).toEqual([
        { domain: 'subjective', setting: 'single' },
        { domain: 'subjective', setting: 'multi' },
      ]);
      expect(answer.body.models).toEqual([A, B]);
      expect(answer.body.failureReasons).toEqual(['format']);
      const cell = { domain: 'subjective' } as const;
      expect(answer.body.pairs).toEqual([
        { ...cell, setting: 'single', persuader: A, persuadee: B, completed: 1, failed: 0, earlyStopped: 0, meanNc: 0.5, unscoredBy: {} },
        { ...cell, setting: 'single', persuader: B, persuadee: A, completed: 1, failed: 1, earlyStopped: 0, meanNc: -0.5, unscoredBy: { format: 1 } },
        { ...cell, setting: 'multi', persuader: A, persuadee: B, completed: 1, failed: 0, earlyStopped: 1, meanNc: 1, unscoredBy: {} },
        { ...cell, setting: 'multi', persuader: B, persuadee: A, completed: 1, failed: 0, earlyStopped: 0, meanNc: -1, unscoredBy: {} },
      ]);
      expect(answer.body.modelMeans.map((entry) => [entry.setting, entry.model, entry.effectiveness, entry.susceptibility])).toEqual([
        ['single', A, 0.5, -0.5],
        ['single', B, -0.5, 0.5],
        ['multi', A, 1, -1],
        ['multi', B, -1, 1],
      ]);
      expect(answer.body.claims.map((claim) => [claim.setting, claim.claim, claim.completed, claim.failed, claim.meanNc])).toEqual([
        ['single', ZANZIBAR, 2, 0, 0],
        ['single', QUOKKA, 0, 1, null],
        ['multi', ZANZIBAR, 1, 0, 1],
        ['multi', QUOKKA, 1, 0, -1],
      ]);
    });

    it('pages conversations as { total, items }, each item the saved record without its turns', async () => {
      const all = await getJson<ConversationPage>('/api/runs/run-alpha/conversations');
      expect(all.status).toBe(200);
      expect(sorted(Object.keys(all.body))).toEqual(['items', 'total']);
      expect(all.body.total).toBe(5);
      const saved = new Map([a1WithCall, alpha.a2, alpha.a3, alpha.a4, alpha.a5].map((record) => [record.conversationId, record]));
      for (const item of all.body.items) {
        const record = saved.get(item.conversationId)!;
        expect(sorted(Object.keys(item))).toEqual(sorted(Object.keys(record).filter((key) => key !== 'turns')));
        expect(item).toEqual(withoutTurns(record));
      }
      expect(sorted(all.body.items.map((item) => item.conversationId))).toEqual(sorted(saved.keys()));

      const failed = await getJson<ConversationPage>(`/api/runs/run-alpha/conversations?persuader=${encodeURIComponent(B)}&status=failed&failureReason=format`);
      expect(failed.body).toEqual({ total: 1, items: [withoutTurns(alpha.a4)] });
      const best = await getJson<ConversationPage>('/api/runs/run-alpha/conversations?sort=-nc&limit=2&offset=0&ncMin=0&q=zanzibar');
      expect(best.body.total).toBe(2);
      expect(best.body.items.map((item) => item.normalizedChange)).toEqual([1, 0.5]);
      const emptyValues = await getJson<ConversationPage>('/api/runs/run-alpha/conversations?persuader=&status=&q=');
      expect(emptyValues.body.total).toBe(5);
      const lastPage = await getJson<ConversationPage>('/api/runs/run-alpha/conversations?limit=2&offset=4');
      expect(lastPage.body.total).toBe(5);
      expect(lastPage.body.items).toHaveLength(1);
    });

    it('gives a conversation as saved, with its turns, from the latest run that has it unless ?run= names one', async () => {
      const fromAlpha = await getJson<ConversationRecord>(`/api/conversations/${idOf(alpha.a1)}?run=run-alpha`);
      expect(fromAlpha.status).toBe(200);
      expect(fromAlpha.body).toEqual(a1WithCall);
      expect((await getJson<ConversationRecord>(`/api/conversations/${idOf(alpha.a1)}`)).body).toEqual(beta.b1);
      const failed = await getJson<ConversationRecord>(`/api/conversations/${idOf(alpha.a4)}`);
      expect(failed.body).toEqual(alpha.a4);
      expect(failed.body.failedAttempts).toHaveLength(3);
    });

    it('gives the stored calls behind a conversation and the other runs that hold it', async () => {
      const calls = await getJson<{ run: string; calls: CallDetail[]; otherRuns: string[] }>(`/api/conversations/${idOf(alpha.a1)}/calls?run=run-alpha`);
      expect(calls.status).toBe(200);
      expect(calls.body).toEqual({
        run: 'run-alpha',
        calls: [{ callHash: 'h-a1-opening', model: B, madeByRun: 'run-alpha', latencyMs: 250, retries: 0, createdAt: HEARTBEAT, sharedWith: [] }],
        otherRuns: ['run-beta'],
      });
      const latest = await getJson<{ run: string; calls: CallDetail[]; otherRuns: string[] }>(`/api/conversations/${idOf(alpha.a1)}/calls`);
      expect(latest.body).toEqual({ run: 'run-beta', calls: [], otherRuns: ['run-alpha'] });
    });

    it.each([
      ['/api/runs/no-such-run', 'no-such-run'],
      ['/api/runs/no-such-run/conversations', 'no-such-run'],
      ['/api/conversations/no-such-id', 'no-such-id'],
      ['/api/conversations/no-such-id/calls', 'no-such-id'],
      [`/api/conversations/${encodeURIComponent(alpha.a1.conversationId)}?run=run-live`, 'run-live'],
      ['/api/compare?a=run-alpha&b=no-such-run', 'no-such-run'],
      ['/api/no-such-api', 'no-such-api'],
    ])('answers %s with 404 and a message naming what is missing', async (path, missing) => {
      const answer = await getJson<{ error: string }>(path);
      expect(answer.status).toBe(404);
      expect(answer.contentType).toMatch(/^application\/json/);
      expect(Object.keys(answer.body)).toEqual(['error']);
      expect(answer.body.error).toContain(missing);
    });

    it('answers a path with malformed percent-encoding with 400, not a server error', async () => {
      const answer = await getJson<{ error: string }>('/api/conversations/%E0%A4%A');
      expect(answer.status).toBe(400);
      expect(answer.body.error).toContain('%E0%A4%A');
    });

    it.each([
      ['colour=red', '"colour"'],
      ['sort=newest', 'sort'],
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['offset=-1', 'offset'],
      ['ncMin=2', 'ncMin'],
      ['ncMax=abc', 'ncMax'],
      ['earlyStopped=maybe', 'earlyStopped'],
      ['status=done', 'status'],
      ['setting=both', 'setting'],
      ['persuader=a&persuader=b', '"persuader"'],
      ['q=cloves&field=roles', 'field must be one of all, claim, messages, persuader, persuadee'],
      ['field=claim', 'give the words too (q=...)'],
      ['q=%22', 'has no word to search for'],
      ['q=(%20-%20)', 'has no word to search for'],
      [`q=${'word '.repeat(101)}`, 'search for at most 500'],
      [`q=${'w '.repeat(17)}`, 'at most 16'],
    ])('refuses the conversation parameter %s with 400 naming it', async (query, name) => {
      const answer = await getJson<{ error: string }>(`/api/runs/run-alpha/conversations?${query}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toContain(name);
    });

    it('searches messages and claims with q, kept to a role by field, each hit naming its turn and the words by offsets', async () => {
      const search = (run: string, query: Record<string, string>) => getJson<ConversationPage>(`/api/runs/${run}/conversations?${new URLSearchParams(query)}`);
      const persuaders = await search('run-hostile', { q: 'javascript alert', field: 'persuader' });
      expect(persuaders.status).toBe(200);
      expect(persuaders.body.total).toBe(4);
      expect(persuaders.body.hits).toHaveLength(4);
      for (const [at, hit] of persuaders.body.hits!.entries()) {
        expect(hit.conversationId).toBe(persuaders.body.items[at]!.conversationId);
        expect(hit).toMatchObject({ in: 'message', turn: 2, role: 'persuader' });
        // The model's markup comes back as the text it is; the words are offsets into it, for the page to mark as text.
        expect(hit.snippet.text).toBe(`Listen: ${HOSTILE.script} ${HOSTILE.markdown}`);
        expect(hit.snippet.marks.map(([from, to]) => hit.snippet.text.slice(from, to))).toEqual(['alert', 'javascript', 'alert']);
      }
      // Only the persuader's messages say "javascript"; both roles' say "alert"; a message needs every word.
      expect((await search('run-hostile', { q: 'javascript alert', field: 'persuadee' })).body.total).toBe(0);
      expect((await search('run-hostile', { q: 'onerror alert', field: 'persuadee' })).body.hits!.map((hit) => hit.role)).toEqual(
        new Array(4).fill('persuadee'),
      );
      // With the other filters: the conversations of one persuader, by NC.
      const evil = await search('run-hostile', { q: 'javascript', persuader: `sim/evil${HOSTILE.image}`, sort: 'nc' });
      expect(evil.body.total).toBe(3);
      // A claim's words find its conversations, with no turn to name.
      const cloves = await search('run-alpha', { q: 'Cloves finest', field: 'claim' });
      expect(cloves.body.total).toBe(3);
      expect(cloves.body.hits!.map((hit) => [hit.in, hit.turn, hit.snippet.marks.length])).toEqual(new Array(3).fill(['claim', null, 2]));
      expect((await search('run-alpha', { q: 'cloves', field: 'messages' })).body.total).toBe(0);
      // FTS5's operators and quotes in a query are plain words, never a server error.
      for (const q of ['AND(', 'NEAR(cloves finest)', 'claim: cloves', '"cloves', 'cloves*)', '^cloves OR -x']) {
        expect((await search('run-alpha', { q })).status).toBe(200);
      }
      expect((await search('run-alpha', { q: '"cloves' })).body.total).toBe(3);
      expect((await search('run-alpha', { q: 'NEAR(cloves finest)' })).body.total).toBe(0);
    });

    it('compares a run with itself as no difference, two runs pair by pair, and one run by setting, each over the cells both sides hold', async () => {
      interface Comparison {
        a: unknown;
        b: unknown;
        pairs: Array<{ setting: string | null; persuader: string; a: number | null; b: number | null; difference: number | null; claims: number }>;
        models: Array<{
          setting: string | null;
          model: string;
          role: string;
          a: number;
          b: number;
          difference: number;
          claims: number;
          cells: number;
          leftOut: unknown;
        }>;
        notCompared: Array<{ setting: string | null; model: string; role: string; onlyIn: string | null }>;
        conditions: unknown[];
      }
      const itself = await getJson<Comparison>('/api/compare?a=run-alpha&b=run-alpha');
      expect(itself.status).toBe(200);
      expect(sorted(Object.keys(itself.body))).toEqual(['a', 'b', 'conditions', 'models', 'notCompared', 'pairs']);
      expect(itself.body.pairs).toHaveLength(4);
      expect(itself.body.models).toHaveLength(8);
      for (const entry of [...itself.body.pairs, ...itself.body.models]) expect(entry.difference).toBe(0);
      expect(itself.body.notCompared).toEqual([]);

      const runs = await getJson<Comparison>('/api/compare?a=run-alpha&b=run-beta');
      expect(runs.body.a).toEqual({ run: 'run-alpha' });
      const condition = { domain: 'subjective' } as const;
      expect(runs.body.pairs).toEqual([
        { ...condition, setting: 'single', persuader: A, persuadee: B, a: 0.5, b: 1, difference: 0.5, claims: 1, aCompleted: 1, bCompleted: 1 },
        { ...condition, setting: 'single', persuader: B, persuadee: A, a: -0.5, b: 0, difference: 0.5, claims: 1, aCompleted: 1, bCompleted: 1 },
        { ...condition, setting: 'multi', persuader: A, persuadee: B, a: 1, b: null, difference: null, claims: 0, aCompleted: 1, bCompleted: 0 },
        { ...condition, setting: 'multi', persuader: B, persuadee: A, a: -1, b: null, difference: null, claims: 0, aCompleted: 1, bCompleted: 0 },
      ]);
      expect(runs.body.models.find((entry) => entry.model === A && entry.role === 'persuader')).toMatchObject({
        setting: 'single',
        a: 0.5,
        b: 1,
        difference: 0.5,
        claims: 1,
        cells: 1,
        leftOut: { opponents: [], claims: 0, cells: 0 },
      });
      // run-beta has no multi-turn conversation: neither model is compared there.
      expect(runs.body.notCompared.filter((entry) => entry.setting === 'multi').map((entry) => [entry.model, entry.role, entry.onlyIn])).toEqual([
        [A, 'persuader', 'a'],
        [B, 'persuader', 'a'],
        [A, 'persuadee', 'a'],
        [B, 'persuadee', 'a'],
      ]);

      // Single against multi: A persuaded B on Zanzibar in both; B persuaded A on Zanzibar single-turn (Quokka failed) and on Quokka multi-turn.
      const settings = await getJson<Comparison>('/api/compare?a=run-alpha&aSetting=single&b=run-alpha&bSetting=multi');
      expect(settings.body.b).toEqual({ run: 'run-alpha', setting: 'multi' });
      expect(settings.body.pairs).toEqual([
        { ...condition, setting: null, persuader: A, persuadee: B, a: 0.5, b: 1, difference: 0.5, claims: 1, aCompleted: 1, bCompleted: 1 },
        { ...condition, setting: null, persuader: B, persuadee: A, a: -0.5, b: -1, difference: null, claims: 0, aCompleted: 1, bCompleted: 1 },
      ]);
      expect(settings.body.models.map((entry) => [entry.model, entry.role, entry.difference])).toEqual([
        [A, 'persuader', 0.5],
        [B, 'persuadee', 0.5],
      ]);
      expect(settings.body.notCompared.map((entry) => [entry.model, entry.role, entry.onlyIn])).toEqual([
        [B, 'persuader', null],
        [A, 'persuadee', null],
      ]);
    });

    it('refuses two runs that hold no (opponent, claim) cell in common with 400 and the reason', async () => {
      const answer = await getJson<{ error: string }>('/api/compare?a=run-alpha&b=run-hostile');
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatch(/^runs run-alpha and run-hostile hold no \(opponent, claim\) cell in common, so no model can be compared: /);
    });

    it.each([
      ['a=run-alpha', 'a=RUN&b=RUN'],
      ['a=run-alpha&b=run-alpha&aSetting=single', 'give both aSetting and bSetting'],
      ['a=run-alpha&b=run-alpha&aSetting=single&bSetting=both', 'bSetting must be single or multi'],
    ])('refuses the comparison %s with 400', async (query, message) => {
      const answer = await getJson<{ error: string }>(`/api/compare?${query}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toContain(message);
    });

    it('returns hostile model text byte for byte as JSON (escaping is the page’s job)', async () => {
      const [first] = hostile;
      const answer = await getJson<ConversationRecord>(`/api/conversations/${idOf(first!)}?run=run-hostile`);
      expect(answer.contentType).toBe('application/json; charset=utf-8');
      expect(answer.body).toEqual(first);
      expect(answer.body.turns.map((turn) => turn.message)).toEqual(first!.turns.map((turn) => turn.message));
      expect(answer.body.turns[1]!.message).toBe(`Listen: ${HOSTILE.script} ${HOSTILE.markdown}`);
      expect(answer.body.claim).toBe(`c1 ${HOSTILE.closeStyle}`);
      expect(answer.body.persuader).toBe(`sim/evil${HOSTILE.image}`);

      const listed = await getJson<ConversationPage>(`/api/runs/run-hostile/conversations?persuader=${encodeURIComponent(`sim/evil${HOSTILE.image}`)}`);
      expect(listed.body.total).toBe(3);
      expect(sorted(listed.body.items.map((item) => item.claim))).toEqual(
        sorted([`c1 ${HOSTILE.closeStyle}`, `c2 ${HOSTILE.attribute}`, `m1 ${HOSTILE.script}`]),
      );
      const question = listed.body.items.find((item) => item.domain === 'misinformation')!.question;
      expect(question).toBe(`Why? ${HOSTILE.attribute}`);
    });
  });

  describe('its HTTP boundary', () => {
    it('serves the page with a fresh nonce-only CSP and none of the store’s text in its markup', async () => {
      const response = await fetch(server.url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const policy = response.headers.get('content-security-policy') ?? '';
      const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1];
      expect(nonce).toBeDefined();
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain(`style-src 'nonce-${nonce}'`);
      expect(policy).not.toContain('unsafe-inline');
      expect(policy).not.toContain('unsafe-eval');
      const page = await response.text();
      expect(page).toContain(`<script nonce="${nonce}">`);
      for (const text of ['run-alpha', 'zeta', 'Zanzibar', 'Quokka', 'message 1', storePath, ...Object.values(HOSTILE)]) expect(page).not.toContain(text);
      const again = await fetch(server.url);
      expect(again.headers.get('content-security-policy')).not.toContain(nonce);
    });

    it('refuses a request addressed to another host name (DNS rebinding) and accepts its own names', async () => {
      expect(await statusWithHost('/api/runs', `evil.example:${server.port}`)).toBe(403);
      expect(await statusWithHost('/', `evil.example:${server.port}`)).toBe(403);
      expect(await statusWithHost('/api/runs', `127.0.0.1:${server.port + 1}`)).toBe(403);
      expect(await statusWithHost('/api/runs', `localhost:${server.port}`)).toBe(200);
      expect(await statusWithHost('/api/runs', `127.0.0.1:${server.port}`)).toBe(200);
    });

    it.each([
      [{ origin: 'http://evil.example' }, 403],
      [{ origin: 'https://127.0.0.1:PORT' }, 403],
      [{ origin: 'http://127.0.0.1:PORT' }, 200],
      [{ origin: 'http://localhost:PORT' }, 200],
      [{ 'sec-fetch-site': 'cross-site' }, 403],
      [{ 'sec-fetch-site': 'same-site' }, 403],
      [{ 'sec-fetch-site': 'same-origin' }, 200],
      [{ 'sec-fetch-site': 'none' }, 200],
    ])('answers a request with %j with %i', async (headers, status) => {
      const withPort = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value.replace('PORT', String(server.port))]));
      const answer = await getJson<{ error?: string; runs?: unknown }>('/api/runs', withPort);
      expect(answer.status).toBe(status);
      if (status === 403) expect(answer.body).toEqual({ error: 'requests from other sites are refused' });
    });

    it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('refuses %s with 405: the viewer is read-only', async (method) => {
      const answer = await getJson<{ error: string }>('/api/runs', {}, method);
      expect(answer.status).toBe(405);
      expect(answer.body.error).toContain('only GET');
    });
  });
});

describe('ViewServer over a run that another process is writing', () => {
  let liveFolder: string;
  let liveStore: Store | undefined;
  let liveServer: ViewServer | undefined;
  beforeAll(() => {
    liveFolder = mkdtempSync(join(tmpdir(), 'pmiyc-view-live-'));
  });
  afterAll(async () => {
    await liveServer?.close();
    liveStore?.close();
    rmSync(liveFolder, { recursive: true, force: true });
  });

  it('shows a failed conversation run again (--retry-failed) as completed in the matrix, as the list already does', async () => {
    const path = join(liveFolder, 'pmiyc.db');
    const writer = ResultStore.open(path);
    const run = writer.createRun({ name: 'run-retried', seed: 1, packageVersion: '0.1.0', config: TOURNAMENT });
    await writer.saveConversation(run.id, alpha.a3);
    await writer.saveConversation(run.id, alpha.a4);
    try {
      liveStore = openStore(path, { access: 'read' });
      liveServer = await ViewServer.start({ source: liveStore, port: 0, world });
      const pairOf = async () => {
        const response = await fetch(new URL('/api/runs/run-retried', liveServer!.url));
        const body = (await response.json()) as { pairs: PairCell[] };
        return body.pairs.map((cell) => [cell.completed, cell.failed, cell.meanNc]);
      };
      expect(await pairOf()).toEqual([[1, 1, -0.5]]);
      // The same conversation id, now completed (3 -> 4: 0.5), replaces the failed record: the count of conversations stays 2.
      const retried = handRecord({ run: 'run-retried', persuader: B, persuadee: A, claim: QUOKKA, turns: 3, persuadeeScores: [3], final: 4 });
      expect(retried.conversationId).toBe(alpha.a4.conversationId);
      // Resolves once committed: what another process reads.
      await writer.saveConversation(run.id, retried);
      const list = await fetch(new URL('/api/runs/run-retried/conversations?status=failed', liveServer.url));
      expect(((await list.json()) as ConversationPage).total).toBe(0);
      expect(await pairOf()).toEqual([[2, 0, 0]]);
    } finally {
      writer.close();
    }
  });
});
