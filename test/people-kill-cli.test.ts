import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRandom, type Random } from '../src/domain/random.js';
import type { ParticipantView } from '../src/studies/people/participant-view.js';
import { runCli, spawnCli } from './cli-helpers.js';

/**
 * `pmiyc people serve` killed with SIGKILL many times while scripted participants answer over HTTP,
 * and served again on the same --run each time (issue 41). A participant behaves as the page does:
 * it keeps an answer until the server has acknowledged it (HTTP 200) and sends it again after a lost
 * connection or a refusal to take it yet. What an acknowledgement promises is checked after every kill:
 * an acknowledged answer is never asked for again, never lost, never stored twice.
 */

const PARTICIPANTS = 8;
const TURNS = 9;
/** Answers a persuadee gives in a conversation of TURNS turns (the opening, the replies, the final decision). */
const ANSWERS_EACH = (TURNS + 1) / 2;
const KILLS = 20;
const SEED = 41;
/** How often a participant looks at the state while the other side writes (the page: once a second; the link's rate limit allows 4). */
const POLL_MS = 300;

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-people-kill-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  readonly turnIndex: number;
  readonly message: string;
  readonly score: number;
}

/** One session of the server: the child, its address once it serves, and its end. */
interface Session {
  readonly child: ReturnType<typeof spawnCli>['child'];
  readonly done: ReturnType<typeof spawnCli>['done'];
  readonly output: () => { stdout: string; stderr: string };
  readonly url: string;
}

async function startSession(args: readonly string[]): Promise<Session> {
  const served = spawnCli(args, { cwd: folder });
  for (;;) {
    const match = /Serving at (http:\/\/\S+?)\/?,/.exec(served.output().stdout);
    if (match && served.output().stdout.includes('Press Ctrl-C')) return { ...served, url: match[1]! };
    if (served.child.exitCode !== null) throw new Error(`people serve ended early: ${served.output().stderr}`);
    await sleep(10);
  }
}

/** What the scripted participants saw: the server's promises are checked against it. */
class Study {
  /** The address of the server while one serves; undefined while it is down. */
  url: string | undefined;
  readonly acknowledged = new Map<string, Map<number, Answer>>();
  readonly askedAgain: string[] = [];
  readonly refused: string[] = [];
  readonly finished = new Set<string>();
  /** Called on every acknowledgement (the kill driver arms it to kill right after one). */
  onAcknowledged: (() => void) | undefined;

  async request(path: string, body?: unknown): Promise<{ status: number; json: unknown } | undefined> {
    const url = this.url;
    if (url === undefined) return undefined;
    try {
      const response = await fetch(`${url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'content-type': 'application/json', origin: url },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(10_000),
      });
      return { status: response.status, json: await response.json() };
    } catch {
      return undefined; // the server was killed under the request: as a lost connection for the page
    }
  }
}

/** One participant, as the page behaves: it answers what it is asked, and keeps an answer until it is acknowledged. */
async function takePart(study: Study, participant: number, token: string, random: Random, deadlineMs: number): Promise<void> {
  const acknowledged = new Map<number, Answer>();
  study.acknowledged.set(token, acknowledged);
  let pending: Answer | undefined;
  while (Date.now() < deadlineMs) {
    if (pending) {
      const sent = await study.request(`/p/${token}/answer`, pending);
      if (sent?.status === 200) {
        acknowledged.set(pending.turnIndex, pending);
        pending = undefined;
        study.onAcknowledged?.();
      } else if (sent && sent.status !== 503 && sent.status !== 429) {
        study.refused.push(`participant ${participant}, turn ${pending.turnIndex}: ${sent.status} ${JSON.stringify(sent.json)}`);
        return;
      } else await sleep(POLL_MS);
      continue;
    }
    const state = await study.request(`/p/${token}/state`);
    if (state?.status !== 200) {
      await sleep(POLL_MS);
      continue;
    }
    const view = state.json as ParticipantView;
    if (view.step === 'consent') await study.request(`/p/${token}/consent`, {});
    else if (view.step === 'answer') {
      const turnIndex = view.ask!.turnIndex;
      if (acknowledged.has(turnIndex)) {
        study.askedAgain.push(`participant ${participant}, turn ${turnIndex}`);
        pending = acknowledged.get(turnIndex);
        continue;
      }
      await sleep(1_500 + random() * 4_000); // reading and writing: the study lasts through every kill
      pending = { turnIndex, message: `Participant ${participant} on turn ${turnIndex}: a considered answer in my own words.`, score: 1 + (turnIndex % 4) };
    } else if (view.step === 'debrief') {
      study.finished.add(token);
      return;
    } else if (view.step === 'ended') {
      study.refused.push(`participant ${participant}: the conversation ended (${String(view.endedBecause)})`);
      return;
    } else await sleep(POLL_MS);
  }
}

describe('people serve killed with SIGKILL at random points', () => {
  it('never asks again for an acknowledged answer, loses none and stores none twice', async () => {
    const store = join(folder, 'people.db');
    const serve = ['people', 'serve', '--run', 'kills', '--role', 'persuadee', '--opponent', 'sim/eloquent', '--claims', 'examples', '--limit', '3'].concat([
      '--participants',
      String(PARTICIPANTS),
      '--turns',
      String(TURNS),
      '--port',
      '0',
      '--store',
      store,
    ]);
    const random = createRandom(SEED);
    let session = await startSession(serve);
    const tokens = [...session.output().stdout.matchAll(/ p-[0-9a-f]{6} {2}http:\/\/\S+\/p\/([A-Za-z0-9_-]{43})/g)].map((match) => match[1]!);
    expect(tokens).toHaveLength(PARTICIPANTS);
    const study = new Study();
    study.url = session.url;
    const deadlineMs = Date.now() + 100_000;
    const everyone = Promise.all(tokens.map((token, participant) => takePart(study, participant, token, createRandom(SEED * 100 + participant), deadlineMs)));
    let kills = 0;
    try {
      while (kills < KILLS && study.finished.size + study.refused.length < PARTICIPANTS) {
        if (random() < 0.5) {
          await sleep(random() * 600);
        } else {
          // Right after the server acknowledged an answer: the window where an answer not yet durable would be lost.
          await Promise.race([new Promise<void>((resolve) => (study.onAcknowledged = resolve)), sleep(3_000)]);
          study.onAcknowledged = undefined;
        }
        session.child.kill('SIGKILL');
        study.url = undefined;
        expect((await session.done).code).toBe(137);
        kills += 1;
        session = await startSession(serve);
        study.url = session.url;
      }
      await everyone;
    } finally {
      session.child.kill('SIGINT');
      await session.done;
    }

    expect(study.askedAgain).toEqual([]);
    expect(study.refused).toEqual([]);
    expect(kills).toBeGreaterThanOrEqual(15);
    expect(study.finished.size).toBe(PARTICIPANTS);

    // Not lost: every acknowledged answer is in the participant's stored conversation, as given, once.
    const exported = await runCli(['export', '--store', store, '--run', 'kills']);
    expect(exported.code).toBe(0);
    const records = exported.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { persuadee: string; status: string; turns: Array<{ index: number; role: string; message: string; score: number }> });
    expect(records).toHaveLength(PARTICIPANTS);
    const given = [...study.acknowledged.values()].map((answers) =>
      [...answers.values()].sort((a, b) => a.turnIndex - b.turnIndex).map(({ turnIndex, message, score }) => ({ index: turnIndex, message, score })),
    );
    const stored = records.map((record) =>
      record.turns.filter((turn) => turn.role === 'persuadee').map(({ index, message, score }) => ({ index, message, score })),
    );
    expect(given.every((answers) => answers.length === ANSWERS_EACH)).toBe(true);
    expect(stored.sort(byFirstMessage)).toEqual(given.sort(byFirstMessage));

    // Not stored twice: one call per answer in the run's calls.
    const database = new Database(store, { readonly: true });
    try {
      const personCalls = database.prepare("SELECT count(*) AS calls FROM calls WHERE model LIKE 'person/%'").get() as { calls: number };
      expect(personCalls.calls).toBe(PARTICIPANTS * ANSWERS_EACH);
    } finally {
      database.close();
    }
  }, 120_000);
});

function byFirstMessage(a: ReadonlyArray<{ message: string }>, b: ReadonlyArray<{ message: string }>): number {
  return (a[1]?.message ?? '').localeCompare(b[1]?.message ?? '');
}
