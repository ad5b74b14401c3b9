import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXAMPLE_CLAIMS } from '../../datasets/example-claims.js';
import { ResultStore } from '../../store/result-store.js';
import { type ExperimentText, starterExperiment } from '../../studies/people/experiment-text.js';
import type { ParticipantView } from '../../studies/people/participant-view.js';
import { openPeopleStudy, type ServedPeopleStudy } from '../../studies/people/people-session.js';
import { NO_COMMENT } from '../../studies/people/person-answer.js';
import { hashToken, newLinkToken, newParticipantId } from '../server/link-tokens.js';
import { inviteParticipant } from './people-links.js';
import { PeopleServer } from './people-server.js';

let folder: string;
let store: ResultStore;
let clockMs: number;
const lines: string[] = [];

interface Study {
  readonly served: ServedPeopleStudy;
  readonly server: PeopleServer;
  readonly tokens: string[];
  readonly adminToken: string;
  stop(): Promise<void>;
}

/** A people study on a simulated opponent (`sim/eloquent`), served on a free loopback port, with `participants` new links. */
async function serve(
  options: {
    run?: string;
    participants?: number;
    turns?: number;
    text?: Partial<ExperimentText>;
    role?: 'persuadee' | 'persuader';
    compare?: string[];
    open?: { token: string; capacity: number };
    publicUrl?: string;
  } = {},
): Promise<Study> {
  const stop = new AbortController();
  const served = await openPeopleStudy({
    store,
    name: options.run ?? 'study',
    role: options.role ?? 'persuadee',
    opponent: 'sim/eloquent',
    compare: options.compare ?? [],
    claims: EXAMPLE_CLAIMS.slice(0, 2),
    claimSource: 'examples',
    turns: options.turns ?? 5,
    sampling: { temperature: 0.7, maxOutputTokens: 400, maxAttempts: 3 },
    seed: 0,
    text: { ...starterExperiment(), ...options.text },
    config: { models: {}, variants: {} },
    about: { packageVersion: 'test' },
    world: {
      now: () => new Date(clockMs),
      env: {},
      tell: (line) => lines.push(line),
      owner: { pid: process.pid, host: 'test-host', isProcessAlive: () => false },
      signals: { stop: stop.signal, abort: new AbortController().signal },
    },
    newParticipantId,
    ...(options.open ? { openLink: { tokenHash: hashToken(options.open.token), capacity: options.open.capacity } } : {}),
  });
  const adminToken = newLinkToken();
  const server = await PeopleServer.start({
    study: served.study,
    port: 0,
    adminToken,
    nowMs: () => clockMs,
    ...(served.openLink ? { openLink: served.openLink } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
  });
  const tokens: string[] = [];
  for (let count = 0; count < (options.participants ?? 0); count++) tokens.push(inviteParticipant(served.study).path.slice('p/'.length));
  return {
    served,
    server,
    tokens,
    adminToken,
    async stop() {
      await server.close();
      stop.abort();
      await served.end();
    },
  };
}

const get = (study: Study, path: string, headers: Record<string, string> = {}) => fetch(`${study.server.url}${path.replace(/^\//, '')}`, { headers });

function post(study: Study, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${study.server.url}${path.replace(/^\//, '')}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: study.server.url.replace(/\/$/, ''), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A raw request, so that the Host header can be another site's (fetch sets its own). */
function statusWithHost(study: Study, path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port: study.server.port, path, agent: false, headers: { host } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

async function state(study: Study, token: string): Promise<ParticipantView> {
  const response = await get(study, `/p/${token}/state`);
  expect(response.status).toBe(200);
  return (await response.json()) as ParticipantView;
}

/** Waits (by polling, as the page does) until the participant is asked for a turn after `turns` turns, or reaches `step`. */
async function until(study: Study, token: string, want: { turns?: number; step?: ParticipantView['step'] }): Promise<ParticipantView> {
  for (;;) {
    const view = await state(study, token);
    if ((want.step === undefined || view.step === want.step) && (want.turns === undefined || (view.step === 'answer' && view.turns.length === want.turns)))
      return view;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function say(study: Study, token: string, turnIndex: number, score: number, message = 'A reply long enough to pass the minimum.'): Promise<Response> {
  return post(study, `/p/${token}/answer`, { turnIndex, score, message });
}

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-people-server-'));
  store = ResultStore.open(join(folder, 'people.db'));
  clockMs = Date.parse('2026-12-02T10:00:00Z');
  lines.length = 0;
});
afterEach(() => {
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('the people study server', () => {
  it("gives each link its own conversation only; another participant's token, a guessed token and a missing admin token get nothing", async () => {
    const study = await serve({ participants: 2 });
    const other = await serve({ run: 'other-study', participants: 1 });
    try {
      const [first, second] = study.tokens as [string, string];
      expect((await state(study, first)).step).toBe('consent');
      expect((await post(study, `/p/${first}/consent`, {})).status).toBe(200);
      const opening = await until(study, first, { turns: 0 });
      expect(opening.ask?.kind).toBe('opening');
      expect((await say(study, first, 1, 2, '')).status).toBe(200);
      const asked = await until(study, first, { turns: 2 });
      expect(asked.turns.map((turn) => turn.from)).toEqual(['you', 'them']);
      expect(asked.turns[0]!.message).toBe(NO_COMMENT);

      // The second participant's link shows their own path, none of the first's turns, and cannot answer the first's turn.
      const secondView = await state(study, second);
      expect(secondView.step).toBe('consent');
      expect(secondView.turns).toEqual([]);
      expect((await say(study, second, 3, 3)).status).toBe(409);

      const participantIds = study.served.study.overview().map((row) => row.id);
      const refused = [
        `/p/${newLinkToken()}/state`, // a guessed token
        `/p/${participantIds[0]}/state`, // a pseudonymous id is not a key
        `/p/${other.tokens[0]}/state`, // another study's link
        '/',
        '/p',
        `/p/${first}/state/more`,
        '/admin',
        `/admin/${first}`, // a participant's token is not the admin's
        `/admin/${newLinkToken()}`,
        `/join/${first}`, // no open link in this study
      ];
      for (const path of refused) expect([path, (await get(study, path)).status]).toEqual([path, 404]);
      expect((await get(other, `/p/${first}/state`)).status).toBe(404);

      const admin = await get(study, `/admin/${study.adminToken}`);
      expect(admin.status).toBe(200);
      const adminPage = await admin.text();
      for (const id of participantIds) expect(adminPage).toContain(id);
      expect(adminPage).not.toContain(first);

      // Nothing a participant receives names the model, the config or a prompt.
      const sent = JSON.stringify(await state(study, first));
      for (const secret of ['sim/eloquent', 'support_ranking', 'models', 'apiKey']) expect(sent).not.toContain(secret);
    } finally {
      await other.stop();
      await study.stop();
    }
  }, 60_000);

  it('refuses a foreign Origin, a foreign Host, an oversized body and a body that is not JSON, and limits requests per link', async () => {
    const study = await serve({ participants: 1 });
    try {
      const [token] = study.tokens as [string];
      expect((await post(study, `/p/${token}/consent`, {}, { origin: 'https://evil.example' })).status).toBe(403);
      expect((await post(study, `/p/${token}/consent`, {}, { origin: '' })).status).toBe(403);
      expect(await statusWithHost(study, `/p/${token}/state`, 'evil.example')).toBe(403);
      expect(await statusWithHost(study, `/p/${token}/state`, `localhost:${study.server.port}`)).toBe(200);
      expect((await get(study, `/p/${token}/state`, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
      expect((await post(study, `/p/${token}/answer`, { message: 'x'.repeat(20_000), score: 3, turnIndex: 1 })).status).toBe(413);
      expect((await post(study, `/p/${token}/consent`, 'consent', { 'content-type': 'text/plain' })).status).toBe(415);
      expect((await state(study, token)).step).toBe('consent');
      const page = await get(study, `/p/${token}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toMatch(/script-src 'nonce-[^']+'/);
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      let limited = 0;
      for (let count = 0; count < 260 && limited === 0; count++) if ((await get(study, `/p/${token}/state`)).status === 429) limited = count;
      expect(limited).toBeGreaterThan(200);
      clockMs += 61_000;
      expect((await get(study, `/p/${token}/state`)).status).toBe(200);
    } finally {
      await study.stop();
    }
  }, 60_000);

  it('checks each answer: the turn asked for, the agreement, the shortest message; a late turn ends the path', async () => {
    const study = await serve({ participants: 1, text: { minMessageChars: 30, turnTimeLimitMinutes: 5 } });
    try {
      const [token] = study.tokens as [string];
      await post(study, `/p/${token}/consent`, {});
      await until(study, token, { turns: 0 });
      expect((await say(study, token, 1, 9, '')).status).toBe(400);
      expect((await say(study, token, 2, 3, '')).status).toBe(409);
      // A turn given as a list nested 7,000 deep (String of it overflows the stack) is not read; a shallow one is named by its start.
      const deep = await post(study, `/p/${token}/answer`, `{"turnIndex": ${'['.repeat(7_000)}${']'.repeat(7_000)}, "score": 3, "message": ""}`);
      expect(deep.status).toBe(400);
      const listed = await post(study, `/p/${token}/answer`, '{"turnIndex": [[1]], "score": 3, "message": ""}');
      expect(await listed.json()).toEqual({ error: 'turn [[1]] is not a turn of this conversation (1 to 5)' });
      expect((await say(study, token, 1, 3, '')).status).toBe(200);
      const asked = await until(study, token, { turns: 2 });
      expect(asked.ask).toMatchObject({ turnIndex: 3, kind: 'reply', minChars: 30 });
      expect(await (await say(study, token, 3, 3, 'too short')).json()).toEqual({ error: 'write at least 30 characters' });
      const withEscape = await say(study, token, 3, 3, 'A long enough answer \u001b]0;owned\u0007 with a terminal escape in it');
      expect(withEscape.status).toBe(400);
      expect((await say(study, token, 3, 3, 'A long enough answer,\r\nover two lines of plain text.')).status).toBe(200);
      const next = await until(study, token, { turns: 4 });
      expect(next.turns[2]!.message).toBe('A long enough answer,\nover two lines of plain text.');
      clockMs += 6 * 60_000;
      const late = await state(study, token);
      expect(late.step).toBe('ended');
      expect(late.endedBecause).toBe('time limit');
      expect(store.people.participants(study.served.run.id)[0]!.status).toBe('withdrawn');
    } finally {
      await study.stop();
    }
  }, 60_000);

  it('continues after a restart with the same links: stored answers replay, the participant is asked where they stopped', async () => {
    const first = await serve({ participants: 1, turns: 7 });
    const [token] = first.tokens as [string];
    await post(first, `/p/${token}/consent`, {});
    await until(first, token, { turns: 0 });
    await say(first, token, 1, 2, 'Not convinced at all, to begin with.');
    await until(first, token, { turns: 2 });
    await say(first, token, 3, 3);
    const before = await until(first, token, { turns: 4 });
    await first.stop();
    expect(store.findRun('study').status).toBe('interrupted');

    const again = await serve({ turns: 7 });
    try {
      expect(again.served.resumed).toBe(true);
      const after = await until(again, token, { turns: 4 });
      expect(after.turns).toEqual(before.turns);
      await say(again, token, 5, 4);
      await until(again, token, { turns: 6 });
      await say(again, token, 7, 4, '');
      const done = await until(again, token, { step: 'debrief' });
      expect(done.turns.filter((turn) => turn.from === 'you').map((turn) => turn.score)).toEqual([2, 3, 4, 4]);
      const [record] = [...store.conversations(again.served.run.id)];
      expect(record!.status).toBe('completed');
      expect(record!.persuadee).toMatch(/^person\/p-[0-9a-f]{6}$/);
      expect(record!.simulated).toMatchObject({ persuadee: false, persuader: true });
    } finally {
      await again.stop();
    }
  }, 60_000);

  it('acknowledges an answer once its call is committed; the same answer sent again is taken as the first was and stored once, another is refused', async () => {
    const first = await serve({ participants: 1, turns: 3 });
    const [token] = first.tokens as [string];
    const opening = 'Not convinced, to begin with.';
    await post(first, `/p/${token}/consent`, {});
    await until(first, token, { turns: 0 });
    const acknowledged = await say(first, token, 1, 2, opening);
    expect(acknowledged.status).toBe(200);
    // Committed before the acknowledgement: the store holds the call (the opponent's reply may follow it).
    expect(store.callsMadeBy(first.served.run.id)).toBeGreaterThanOrEqual(1);
    // A page that lost the reply sends the same answer again (line ends and spaces as typed): the same reply.
    const again = await say(first, token, 1, 2, ` ${opening}\r\n`);
    expect(again.status).toBe(200);
    expect(((await again.json()) as ParticipantView).turns[0]!.message).toBe(opening);
    const changed = await say(first, token, 1, 3, opening);
    expect(changed.status).toBe(409);
    expect(((await changed.json()) as { error: string }).error).toBe(
      'turn 1 was answered already, with other words or another agreement; that first answer is kept and cannot be changed',
    );
    await until(first, token, { turns: 2 });
    expect((await say(first, token, 2, 3, 'The other side wrote this turn, not me.')).status).toBe(409);
    await say(first, token, 3, 4, '');
    const finished = await until(first, token, { step: 'debrief' });
    await first.stop();

    // After a restart, the finished conversation is shown again, and its answers are still recognised.
    const restarted = await serve({ turns: 3 });
    try {
      expect((await state(restarted, token)).turns).toEqual(finished.turns);
      expect((await say(restarted, token, 3, 4, '')).status).toBe(200);
      expect((await say(restarted, token, 3, 4, 'Now with a comment.')).status).toBe(409);
      expect((await say(restarted, token, 1, 2, opening)).status).toBe(200);
      const [record] = [...store.conversations(restarted.served.run.id)];
      expect(record!.turns.filter((turn) => turn.role === 'persuadee').map((turn) => [turn.message, turn.score])).toEqual([
        [opening, 2],
        [NO_COMMENT, 4],
      ]);
      expect(store.callsMadeBy(restarted.served.run.id)).toBe(3);
    } finally {
      await restarted.stop();
    }
  }, 60_000);

  it('opens the follow-up through the same link after the delay, once', async () => {
    const study = await serve({ participants: 1, turns: 3, text: { followUpAfterHours: 24 } });
    try {
      const [token] = study.tokens as [string];
      await post(study, `/p/${token}/consent`, {});
      await until(study, token, { turns: 0 });
      await say(study, token, 1, 2, '');
      await until(study, token, { turns: 2 });
      await say(study, token, 3, 4, '');
      const done = await until(study, token, { step: 'debrief' });
      expect(done.followUp).toEqual({ opensInMs: 24 * 3_600_000, given: false });
      expect((await post(study, `/p/${token}/follow-up`, { score: 3 })).status).toBe(409);
      clockMs += 25 * 3_600_000;
      expect((await post(study, `/p/${token}/follow-up`, { score: 3 })).status).toBe(200);
      expect((await post(study, `/p/${token}/follow-up`, { score: 5 })).status).toBe(409);
      expect(store.people.participants(study.served.run.id)[0]!.followUp).toMatchObject({ score: 3 });
    } finally {
      await study.stop();
    }
  }, 60_000);

  it('admits at most N through the open link, each with a link of their own, claims taken in turn', async () => {
    const open = newLinkToken();
    const study = await serve({ open: { token: open, capacity: 3 } });
    try {
      expect((await get(study, `/join/${open}`)).status).toBe(200);
      expect((await get(study, `/join/${newLinkToken()}`)).status).toBe(404);
      const links: string[] = [];
      for (let count = 0; count < 3; count++) {
        const answer = await post(study, `/join/${open}/start`, {});
        expect(answer.status).toBe(200);
        links.push(((await answer.json()) as { link: string }).link);
      }
      expect((await post(study, `/join/${open}/start`, {})).status).toBe(410);
      expect(new Set(links).size).toBe(3);
      for (const link of links) expect((await get(study, `${link}/state`)).status).toBe(200);
      expect(study.served.study.overview().map((row) => row.claimIndex)).toEqual([0, 1, 0]);
    } finally {
      await study.stop();
    }
  }, 60_000);

  it("never replays one person's answers for another, even on the same claim", async () => {
    const study = await serve({ participants: 3 });
    try {
      const [first, , third] = study.tokens as [string, string, string];
      await post(study, `/p/${first}/consent`, {});
      await until(study, first, { turns: 0 });
      await say(study, first, 1, 2, '');
      await until(study, first, { turns: 2 });
      // The third participant has the first one's claim: they are asked for their own opening all the same.
      await post(study, `/p/${third}/consent`, {});
      const asked = await until(study, third, { turns: 0 });
      expect(asked.claim).toBe((await state(study, first)).claim);
      expect(asked.ask?.kind).toBe('opening');
    } finally {
      await study.stop();
    }
  }, 60_000);

  it('--compare: the opponent also persuades model persuadees on every claim, in the same run', async () => {
    const study = await serve({ participants: 1, turns: 3, compare: ['sim/stubborn'] });
    const [token] = study.tokens as [string];
    await post(study, `/p/${token}/consent`, {});
    await until(study, token, { turns: 0 });
    await say(study, token, 1, 2, '');
    await until(study, token, { turns: 2 });
    await say(study, token, 3, 3, '');
    await until(study, token, { step: 'debrief' });
    while (study.served.compareProgress.stored < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    await study.stop();
    const records = [...store.conversations(study.served.run.id)];
    expect(records.map((record) => record.persuadee.replace(/p-[0-9a-f]{6}/, 'ID')).sort()).toEqual(['person/ID', 'sim/stubborn', 'sim/stubborn']);
    expect(new Set(records.filter((record) => record.persuadee === 'sim/stubborn').map((record) => record.claim)).size).toBe(2);
    expect(records.every((record) => record.persuader === 'sim/eloquent' && record.status === 'completed')).toBe(true);
  }, 60_000);

  it('as persuader, a person writes arguments to a model persuadee and sees its replies and scores', async () => {
    const study = await serve({ participants: 1, turns: 5, role: 'persuader' });
    try {
      const [token] = study.tokens as [string];
      await post(study, `/p/${token}/consent`, {});
      const first = await until(study, token, { turns: 1 });
      expect(first.ask).toMatchObject({ turnIndex: 2, kind: 'argument', minChars: 20 });
      expect(first.turns[0]).toMatchObject({ from: 'them', kind: 'opening' });
      expect(first.turns[0]!.score).toBeTypeOf('number');
      await say(study, token, 2, 5, 'An argument for the claim, with a reason or two.');
      await until(study, token, { turns: 3 });
      await say(study, token, 4, 5, 'Another argument for the claim, and a good one.');
      const done = await until(study, token, { step: 'debrief' });
      expect(done.turns.map((turn) => `${turn.from} ${turn.kind}`)).toEqual(['them opening', 'you argument', 'them reply', 'you argument', 'them final']);
      const [record] = [...store.conversations(study.served.run.id)];
      expect(record!.persuader).toMatch(/^person\/p-/);
      expect(record!.persuadee).toBe('sim/eloquent');
    } finally {
      await study.stop();
    }
  }, 60_000);

  it('behind a reverse proxy, accepts the public address in Host and Origin and makes links with it', async () => {
    const study = await serve({ participants: 1, publicUrl: 'https://study.example.org/' });
    try {
      const [token] = study.tokens as [string];
      expect(study.server.linkOf(`p/${token}`)).toBe(`https://study.example.org/p/${token}`);
      expect(await statusWithHost(study, `/p/${token}/state`, 'study.example.org')).toBe(200);
      expect(await statusWithHost(study, `/p/${token}/state`, 'other.example.org')).toBe(403);
      expect((await post(study, `/p/${token}/consent`, {}, { origin: 'https://study.example.org' })).status).toBe(200);
      expect((await post(study, `/p/${token}/withdraw`, {}, { origin: 'http://study.example.org' })).status).toBe(403);
    } finally {
      await study.stop();
    }
  }, 60_000);
});
