import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTurnJudgeRequest } from '../src/protocol/turn-judge-prompt.js';
import { openStore } from '../src/store/result-store.js';
import type { StoredTurnLabels } from '../src/studies/analysis/analysis-results.js';
import { runCli, spawnCli } from './cli-helpers.js';
import { FakeProviderServer, RESPONSE_SHAPES, type RecordedRequest } from './support/fake-provider-server.js';
import { nestedJson } from './support/hostile-json.js';

/**
 * `pmiyc analyze --grain turn` (one call per turn) against a loopback OpenAI-compatible judge (issue 29's
 * Done-when; the conversation grain has test/analyze-conversation-judge-cli.test.ts): every label is
 * stored, a kill -9 and `--resume` ask no turn twice, and a second study with the same judge replays
 * everything. Also a malformed answer asked again with the reminder, and ids outside the taxonomy.
 */

type Message = { role: string; content: string };

let folder: string;
let server: FakeProviderServer;
let store: string;
let config: string;
/** While set, the judge holds every request unanswered (a request on the wire when the process is killed). */
let holding = false;
let held = 0;
/** While set, the flaky judge's provider fails every request for a conversation's opening. */
let flakyDown = true;
/** Answered requests per turn (the turn as the request shows it: the claim and the conversation up to it). */
const answered = new Map<string, number>();

const messagesOf = (request: RecordedRequest) => request.body['messages'] as Message[];
/** The labelled turn's request: its first user message (the claim and the conversation up to the turn). */
const turnRequest = (request: RecordedRequest) => messagesOf(request).find((message) => message.role === 'user')?.content ?? '';
/**
 * A turn's identity in a request: the conversation up to it, and its seed (conversations that share an
 * opening show the judge the same turn, each in a request of its own seed).
 */
const turnKey = (request: RecordedRequest) => `${turnRequest(request)}\u0000${String(request.body['seed'])}`;

const validAnswer = (role: string) =>
  role === 'persuader' ? JSON.stringify({ techniques: ['logos'], unethical: [], refused: false, leftRole: false }) : JSON.stringify({ leftRole: false });

/**
 * What the picky judge answers: turn 2 (the first argument) first in prose, then (after the reminder)
 * valid; every later persuader turn always with an id outside the taxonomy.
 */
function pickyAnswer(index: number, role: string, messages: readonly Message[]): string {
  if (index === 2) return messages.length === 2 ? 'The turn mostly appeals to logic (logos).' : validAnswer(role);
  if (role === 'persuader') return JSON.stringify({ techniques: ['mind-control'], unethical: [], refused: false, leftRole: false });
  return validAnswer(role);
}

/** What the chatty judge answers: every key asked for, and one more (a technique list on a persuadee turn, a reason on a persuader's). */
const chattyAnswer = (role: string) =>
  role === 'persuader'
    ? JSON.stringify({ techniques: ['logos'], unethical: [], refused: false, leftRole: false, why: 'It argues from reasons.' })
    : JSON.stringify({ leftRole: false, techniques: ['logos'] });

/** What the deep judge answers for every turn 2: its techniques a list nested 100,000 deep (JSON.parse reads it; JSON.stringify overflowed). */
const DEEP_ANSWER = `{"techniques": ${nestedJson(100_000, 'list')}, "unethical": [], "refused": false, "leftRole": false}`;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-analyze-judge-'));
  store = join(folder, 'store.db');
  server = await FakeProviderServer.start();
  server.answerWith((request) => {
    const shown = readTurnJudgeRequest(turnRequest(request));
    if (shown === undefined) return { status: 400, body: { error: { message: 'not a turn judge request' } } };
    if (holding) {
      held += 1;
      return 'hang';
    }
    if (request.body['model'] === 'flaky-model' && flakyDown && shown.index === 1) return { status: 500, body: { error: { message: 'overloaded' } } };
    const messages = messagesOf(request);
    const text =
      request.body['model'] === 'chatty-model'
        ? chattyAnswer(shown.turn.role)
        : request.body['model'] === 'picky-model'
          ? pickyAnswer(shown.index, shown.turn.role, messages)
          : request.body['model'] === 'deep-model' && shown.index === 2
            ? DEEP_ANSWER
            : validAnswer(shown.turn.role);
    if (request.body['model'] === 'judge-model') answered.set(turnKey(request), (answered.get(turnKey(request)) ?? 0) + 1);
    return { status: 200, body: RESPONSE_SHAPES.openaiChat(text) };
  });
  config = join(folder, 'models.yaml');
  writeFileSync(
    config,
    `models:
  judge: { provider: openai-compatible, model: judge-model, baseURL: "${server.url}/v1", maxRetries: 0 }
  picky: { provider: openai-compatible, model: picky-model, baseURL: "${server.url}/v1", maxRetries: 0 }
  flaky: { provider: openai-compatible, model: flaky-model, baseURL: "${server.url}/v1", maxRetries: 0 }
  deep: { provider: openai-compatible, model: deep-model, baseURL: "${server.url}/v1", maxRetries: 0 }
  chatty: { provider: openai-compatible, model: chatty-model, baseURL: "${server.url}/v1", maxRetries: 0 }
`,
  );
  const run = await runCli([
    'run',
    '--persuaders',
    'sim/eloquent,sim/weak',
    '--persuadees',
    'sim/stubborn',
    '--limit',
    '3',
    '--setting',
    'multi',
    '--store',
    store,
  ]);
  expect(run.code).toBe(0);
}, 120_000);
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Labels stored so far, read as another process reads the store while a study writes it. */
function storedLabels(): number {
  const database = new Database(store, { readonly: true, fileMustExist: true });
  try {
    return database.prepare('SELECT count(*) FROM turn_labels').pluck().get() as number;
  } catch {
    return 0;
  } finally {
    database.close();
  }
}

function readStore(study: string) {
  const opened = openStore(store, { access: 'read' });
  try {
    const conversations = [...opened.conversations(opened.findRun('run-1').id, 'completed')];
    const labels: StoredTurnLabels[] = [...opened.analysis.labels(opened.findRun(study).id)];
    return { conversations, labels };
  } finally {
    opened.close();
  }
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('pmiyc analyze --grain turn against a loopback judge', () => {
  it('stores every label, survives kill -9 and --resume without asking any turn twice, and a second study replays everything', async () => {
    const first = spawnCli(['analyze', '--store', store, '--config', config, '--judge', 'judge', '--grain', 'turn', '--study', 'killed', '--concurrency', '1']);
    await waitFor(() => storedLabels() >= 10 || first.child.exitCode !== null);
    holding = true;
    // Killed once a request is on the wire and every answered one is stored: what a kill -9 could lose is only unanswered.
    const answeredCount = () => [...answered.values()].reduce((sum, count) => sum + count, 0);
    await waitFor(() => (held > 0 && storedLabels() === answeredCount()) || first.child.exitCode !== null);
    expect(first.child.exitCode, 'the study ended before it was killed').toBeNull();
    first.child.kill('SIGKILL');
    expect((await first.done).code).toBe(137);
    holding = false;

    const resumed = await runCli(['analyze', '--store', store, '--config', config, '--study', 'killed', '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const { conversations, labels } = readStore('killed');
    const turns = conversations.reduce((sum, record) => sum + record.turns.length, 0);
    expect(labels.length).toBe(turns);
    expect(labels.every((label) => label.labels !== null && label.judge === 'judge')).toBe(true);
    expect(answered.size).toBe(turns);
    expect([...answered.values()].every((count) => count === 1)).toBe(true);

    server.requests.length = 0;
    const second = await runCli(['analyze', '--store', store, '--config', config, '--judge', 'judge', '--grain', 'turn', '--study', 'again']);
    expect(second.code).toBe(0);
    expect(server.requests.length).toBe(0);
    expect(second.stdout).toContain('calls made: 0 this session');
    expect(second.stdout).toContain(`replayed ${turns} (killed: ${turns}) from earlier runs`);
    expect(readStore('again').labels.length).toBe(turns);
  }, 180_000);

  it('asks a malformed answer again with the reminder, and fails a turn whose ids are outside the taxonomy after --max-attempts, with its reason', async () => {
    server.requests.length = 0;
    const result = await runCli(['analyze', '--store', store, '--config', config, '--judge', 'picky', '--grain', 'turn', '--study', 'picky', '--sample', '2']);
    expect(result.code).toBe(0);
    const { labels } = readStore('picky');
    const seconds = labels.filter((label) => label.turn === 2);
    expect(seconds).toHaveLength(2);
    for (const second of seconds) expect(second).toMatchObject({ attempts: 2, problem: null, labels: { role: 'persuader', techniques: ['logos'] } });
    const reasked = server.requests.find((request) => readTurnJudgeRequest(turnRequest(request))?.index === 2 && messagesOf(request).length === 4)!;
    expect(messagesOf(reasked).at(-2)?.content).toBe('The turn mostly appeals to logic (logos).');
    expect(messagesOf(reasked).at(-1)?.content).toMatch(/^I could not read labels in that answer \(the reply is not one JSON object\)/);
    const later = labels.filter((label) => label.role === 'persuader' && label.turn > 2);
    expect(later.length).toBeGreaterThan(0);
    for (const turn of later) {
      expect(turn).toMatchObject({ attempts: 3, labels: null });
      expect(turn.problem).toMatch(/"mind-control", which is not one of the taxonomy's techniques/);
    }
    expect(labels.filter((label) => label.labels === null)).toHaveLength(later.length);
    expect(result.stderr).toMatch(/pmiyc: the analysis of turn \d+ of c\w+ by picky failed: no usable answer in 3 attempts \(techniques holds "mind-control"/);
    const reason = `techniques holds "mind-control", which is not one of the taxonomy's techniques (${later.length})`;
    expect(result.stdout).toMatch(new RegExp(`picky\\s+\\d+\\s+${later.length}\\s+${reason.replace(/[()]/g, '\\$&')}`));
  }, 120_000);

  it('reads past keys a judge adds, asks no answer again for them, says so, and makes the calls its dry run counted', async () => {
    const study = ['--store', store, '--config', config, '--judge', 'chatty', '--grain', 'turn', '--study', 'chatty'];
    const dry = await runCli(['analyze', ...study, '--dry-run', '--no-cache']);
    expect(dry.code, dry.stderr).toBe(0);
    const counted = Number(/\bchatty\s+([\d,]+)\s/.exec(dry.stdout)?.[1]?.replaceAll(',', ''));
    expect(dry.stdout).toContain('keys it adds are read past, not asked again');
    server.requests.length = 0;
    const result = await runCli(['analyze', ...study, '--no-cache']);
    expect(result.code, result.stderr).toBe(0);
    const { labels } = readStore('chatty');
    expect(labels.every((label) => label.labels !== null && label.attempts === 1)).toBe(true);
    expect(server.requests.length).toBe(labels.length);
    expect(counted).toBe(server.requests.length);
    const persuaderTurns = labels.filter((label) => label.role === 'persuader').length;
    expect(result.stdout).toContain(
      `The judges' answers held keys pmiyc did not ask for ("techniques" in ${labels.length - persuaderTurns} answers, "why" in ${persuaderTurns} answers)`,
    );
  }, 120_000);

  it('labels a turn whose answer nests 100,000 deep null with its reason, completes the study, and --resume asks nothing again', async () => {
    server.requests.length = 0;
    const study = ['--store', store, '--config', config, '--study', 'deep'];
    const result = await runCli(['analyze', ...study, '--judge', 'deep', '--grain', 'turn', '--sample', '2']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('unexpected error');
    const { labels } = readStore('deep');
    const unusable = labels.filter((label) => label.labels === null);
    expect(unusable.map((label) => label.turn)).toEqual([2, 2]);
    for (const label of unusable) {
      expect(label).toMatchObject({ attempts: 3, problem: 'the reply is not one JSON object pmiyc reads: its lists and objects nest more than 128 deep' });
    }
    expect(labels.filter((label) => label.labels !== null).length).toBeGreaterThan(2);
    expect(result.stderr).toMatch(
      /the analysis of turn 2 of c\w+ by deep failed: no usable answer in 3 attempts \(the reply is not one JSON object pmiyc reads/,
    );
    const asked = server.requests.length;
    expect(asked).toBe(labels.length + 2 * 2);

    const resumed = await runCli(['analyze', ...study, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(server.requests.length).toBe(asked);
    expect(readStore('deep').labels).toEqual(labels);
  }, 120_000);

  it('reports a call that failed after its retries, stores nothing for it, and asks it again on --resume', async () => {
    const study = ['--store', store, '--config', config, '--study', 'flaky'];
    const failed = await runCli(['analyze', ...study, '--judge', 'flaky', '--grain', 'turn', '--sample', '2']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/pmiyc: flaky on turn 1 of c\w+ \(api\)/);
    expect(failed.stderr).toContain(`ask them again: pmiyc analyze --store ${store} --study flaky --resume`);
    const turns = (labels: readonly StoredTurnLabels[]) => labels.map((label) => label.turn);
    expect(turns(readStore('flaky').labels)).not.toContain(1);
    flakyDown = false;
    const resumed = await runCli(['analyze', ...study, '--resume']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/\b2 labels stored this session/);
    expect(turns(readStore('flaky').labels).filter((turn) => turn === 1)).toHaveLength(2);
  }, 120_000);
});
