import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RHETORIC_TAXONOMY } from '../src/config/taxonomy/rhetoric-taxonomy.js';
import type { Role } from '../src/domain/roles.js';
import { simulatedTurnLabels } from '../src/models/sim/sim-techniques.js';
import { isConversationJudgeSystemPrompt, readConversationJudgeRequest } from '../src/protocol/conversation-judge-prompt.js';
import { readTurnJudgeRequest } from '../src/protocol/turn-judge-prompt.js';
import { openStore } from '../src/store/result-store.js';
import type { StoredTurnLabels } from '../src/studies/analysis/analysis-results.js';
import { runCli, spawnCli } from './cli-helpers.js';
import { FakeBatchServer } from './support/fake-batch-server.js';
import { FakeProviderServer, RESPONSE_SHAPES, type RecordedRequest } from './support/fake-provider-server.js';

/**
 * `pmiyc analyze` in its default grain (one call per conversation and judge that labels every turn)
 * against a loopback OpenAI-compatible judge that labels each turn from the marks simulated agents
 * write: one call per conversation, every turn stored, kill -9 and `--resume` asking no conversation
 * twice, a second study replaying every call, a turn left out asked again once, the grains agreeing
 * exactly, a resume that would change the grain refused, and the conversation grain through a batch service.
 */

type Message = { role: string; content: string };

const PLANTED = 'sim/p?technique.logos=0.5:0.2&technique.pathos=0.4:0.1&unethical.deception=0.3&refuse=0.15';
const OTHER = 'sim/q?technique.ethos=0.5:0.1&leaveRole=0.2';

let folder: string;
let server: FakeProviderServer;
let store: string;
let config: string;
/** While set, the judge holds every request unanswered (a request on the wire when the process is killed). */
let holding = false;
let held = 0;
/** Answered conversation requests of the well-behaved judge, by request (the conversation shown, and the seed), and the turns they held. */
const answered = new Map<string, number>();
let answeredTurns = 0;

const messagesOf = (request: RecordedRequest) => request.body['messages'] as Message[];
const userText = (request: RecordedRequest) => messagesOf(request).find((message) => message.role === 'user')?.content ?? '';
const systemText = (request: RecordedRequest) => messagesOf(request).find((message) => message.role === 'system')?.content ?? '';
const techniqueIds = RHETORIC_TAXONOMY.techniques.map((item) => item.id);
const unethicalIds = RHETORIC_TAXONOMY.unethical.map((item) => item.id);

/** A turn's labels as the marks in its message say, without error: what a scripted judge answers in either grain. */
function labelsFromMarks(message: string, role: Role): Record<string, unknown> {
  const { role: _role, ...labels } = simulatedTurnLabels(message, role, techniqueIds, 0, () => 0.5, unethicalIds);
  return labels;
}

/** The answer text of the scripted judge `model` to one request of either grain; undefined: not a judge request. */
function scriptedAnswer(model: string, request: RecordedRequest): string | undefined {
  const whole = isConversationJudgeSystemPrompt(systemText(request)) ? readConversationJudgeRequest(userText(request)) : undefined;
  if (whole) {
    // The omitting judge leaves turn 2 out of its first answer to each conversation.
    const omitted = model === 'omitting-model' && messagesOf(request).length === 2 ? 2 : undefined;
    const entries = whole.turns.filter((turn) => turn.index !== omitted).map((turn) => [String(turn.index), labelsFromMarks(turn.message, turn.role)]);
    // The chatty judge adds a reason to each persuader turn and a summary of the conversation.
    if (model === 'chatty-model')
      return JSON.stringify({
        ...Object.fromEntries(entries.map(([key, labels]) => [key, 'techniques' in (labels as object) ? { ...(labels as object), why: 'reasons' } : labels])),
        summary: 'A polite exchange.',
      });
    return JSON.stringify(Object.fromEntries(entries));
  }
  const shown = readTurnJudgeRequest(userText(request));
  return shown ? JSON.stringify(labelsFromMarks(shown.turn.message, shown.turn.role)) : undefined;
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-analyze-conversation-'));
  store = join(folder, 'store.db');
  server = await FakeProviderServer.start();
  server.answerWith((request) => {
    const model = String(request.body['model']);
    const text = scriptedAnswer(model, request);
    if (text === undefined) return { status: 400, body: { error: { message: 'not a judge request' } } };
    if (holding) {
      held += 1;
      return 'hang';
    }
    const whole = readConversationJudgeRequest(userText(request));
    if (model === 'judge-model' && whole) {
      const key = `${userText(request)}\u0000${String(request.body['seed'])}`;
      answered.set(key, (answered.get(key) ?? 0) + 1);
      answeredTurns += whole.turns.length;
    }
    return { status: 200, body: RESPONSE_SHAPES.openaiChat(text) };
  });
  config = join(folder, 'models.yaml');
  writeFileSync(
    config,
    `models:
  judge: { provider: openai-compatible, model: judge-model, baseURL: "${server.url}/v1", maxRetries: 0 }
  omitting: { provider: openai-compatible, model: omitting-model, baseURL: "${server.url}/v1", maxRetries: 0 }
  chatty: { provider: openai-compatible, model: chatty-model, baseURL: "${server.url}/v1", maxRetries: 0 }
`,
  );
  const run = await runCli([
    'run',
    '--persuaders',
    `${PLANTED},${OTHER}`,
    '--persuadees',
    'sim/stubborn',
    '--limit',
    '4',
    '--setting',
    'multi',
    '--store',
    store,
  ]);
  expect(run.code, run.stderr).toBe(0);
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
    return { conversations, labels, turns: conversations.reduce((sum, record) => sum + record.turns.length, 0) };
  } finally {
    opened.close();
  }
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** What a label says, apart from how it was asked (its answer, call and attempts). */
const readings = (labels: readonly StoredTurnLabels[]) =>
  labels.map(({ conversationId, turn, judge, role, labels: read, problem }) => ({ conversationId, turn, judge, role, labels: read, problem }));

describe('pmiyc analyze (one call per conversation) against a loopback judge', () => {
  it('asks each conversation once, stores every turn, survives kill -9 and --resume asking no conversation twice, and a second study replays every call', async () => {
    const first = spawnCli(['analyze', '--store', store, '--config', config, '--judge', 'judge', '--study', 'killed', '--concurrency', '1']);
    await waitFor(() => storedLabels() > 0 || first.child.exitCode !== null);
    holding = true;
    // Killed once a request is on the wire and every answered conversation is stored whole.
    await waitFor(() => (held > 0 && storedLabels() === answeredTurns) || first.child.exitCode !== null);
    expect(first.child.exitCode, 'the study ended before it was killed').toBeNull();
    first.child.kill('SIGKILL');
    expect((await first.done).code).toBe(137);
    holding = false;

    const resumed = await runCli(['analyze', '--store', store, '--config', config, '--study', 'killed', '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('one call per conversation and judge, labelling every turn (--grain conversation)');
    const { conversations, labels, turns } = readStore('killed');
    expect(conversations.length).toBeGreaterThan(2);
    expect(labels.length).toBe(turns);
    expect(labels.every((label) => label.labels !== null && label.attempts === 1 && label.judge === 'judge')).toBe(true);
    expect(answered.size).toBe(conversations.length);
    expect([...answered.values()].every((count) => count === 1)).toBe(true);
    // Each row keeps its own turn's entry of the answer, and the one call that answered its conversation.
    for (const label of labels)
      expect(JSON.parse(label.raw)).toEqual(
        labelsFromMarks(conversations.find((c) => c.conversationId === label.conversationId)!.turns[label.turn - 1]!.message, label.role),
      );
    for (const record of conversations) {
      const hashes = new Set(labels.filter((label) => label.conversationId === record.conversationId).map((label) => label.callHash));
      expect(hashes.size).toBe(1);
    }

    server.requests.length = 0;
    const second = await runCli(['analyze', '--store', store, '--config', config, '--judge', 'judge', '--study', 'again']);
    expect(second.code, second.stderr).toBe(0);
    expect(server.requests.length).toBe(0);
    expect(second.stdout).toContain(`replayed ${conversations.length} (killed: ${conversations.length}) from earlier runs`);
    expect(readings(readStore('again').labels)).toEqual(readings(labels));

    // The report says how its study's judges were asked.
    const out = join(folder, 'report');
    const report = await runCli(['report', '--store', store, '--run', 'run-1', '--analysis', 'killed', '--format', 'json', '--out', out]);
    expect(report.code, report.stderr).toBe(0);
    const document = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { techniques: { grain: string } };
    expect(document.techniques.grain).toBe('conversation');
  }, 180_000);

  it('sends the whole conversation once with a schema of one required key per turn and an output limit of --max-tokens per turn', async () => {
    server.requests.length = 0;
    const result = await runCli([
      'analyze',
      '--store',
      store,
      '--config',
      config,
      '--judge',
      'judge',
      '--study',
      'shape',
      '--sample',
      '1',
      '--no-cache',
      '--max-tokens',
      '300',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    const shown = readConversationJudgeRequest(userText(request!))!;
    const keys = shown.turns.map((turn) => String(turn.index));
    const format = request!.body['response_format'] as { json_schema: { schema: { required: string[]; additionalProperties: boolean } } };
    expect(format.json_schema.schema).toMatchObject({ required: keys, additionalProperties: false });
    expect(request!.body['max_tokens']).toBe(300 * keys.length);
    expect(readStore('shape').labels).toHaveLength(keys.length);
  }, 120_000);

  it('labels every turn as the per-turn grain does, with a judge that reads the marks, at one call per conversation instead of one per turn', async () => {
    server.requests.length = 0;
    const perTurn = await runCli(['analyze', '--store', store, '--config', config, '--judge', 'judge', '--grain', 'turn', '--study', 'per-turn']);
    expect(perTurn.code, perTurn.stderr).toBe(0);
    expect(perTurn.stdout).toContain('one call per turn and judge (--grain turn)');
    const { labels, turns } = readStore('per-turn');
    expect(server.requests).toHaveLength(turns);
    expect(readings(labels)).toEqual(readings(readStore('killed').labels));
    // Not agreement by emptiness: the planted techniques and strategy are there.
    expect(labels.filter((label) => label.labels?.role === 'persuader' && label.labels.techniques.length > 0).length).toBeGreaterThan(2);
    expect(labels.some((label) => label.labels?.role === 'persuader' && label.labels.unethical.includes('deception'))).toBe(true);
  }, 120_000);

  it('asks a conversation again once when its answer left a turn out, with a reminder naming it, and keeps the turns already read', async () => {
    server.requests.length = 0;
    const result = await runCli(['analyze', '--store', store, '--config', config, '--judge', 'omitting', '--study', 'omitting', '--sample', '2']);
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(4);
    const reasked = server.requests.filter((request) => messagesOf(request).length === 4);
    expect(reasked).toHaveLength(2);
    for (const request of reasked)
      expect(messagesOf(request).at(-1)?.content).toMatch(/^I could not read the labels of turn 2 in that answer \(turn 2: no entry for it\)\./);
    const { labels } = readStore('omitting');
    expect(labels.every((label) => label.labels !== null)).toBe(true);
    expect(labels.filter((label) => label.attempts === 2).map((label) => label.turn)).toEqual([2, 2]);
    expect(labels.filter((label) => label.turn !== 2).every((label) => label.attempts === 1)).toBe(true);
  }, 120_000);

  it('refuses --resume --grain turn on a study made per conversation, naming both, with exit code 2', async () => {
    const refused = await runCli(['analyze', '--store', store, '--config', config, '--study', 'killed', '--resume', '--grain', 'turn']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--grain is turn, but study killed has conversation');
    expect((await runCli(['analyze', '--store', store, '--config', config, '--study', 'killed', '--resume', '--grain', 'conversation'])).code).toBe(0);
  }, 120_000);

  it('counts in its dry run the calls a study makes: one per conversation and judge', async () => {
    const study = ['--store', store, '--config', config, '--judge', 'judge', '--study', 'counted', '--no-cache'];
    const dry = await runCli(['analyze', ...study, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('Asked one call per conversation and judge, labelling every turn (--grain conversation)');
    const counted = Number(/\bjudge\s+([\d,]+)\s/.exec(dry.stdout)?.[1]?.replaceAll(',', ''));
    server.requests.length = 0;
    expect((await runCli(['analyze', ...study])).code).toBe(0);
    expect(counted).toBe(server.requests.length);
    expect(counted).toBe(readStore('counted').conversations.length);
  }, 120_000);

  it('reads past keys a judge adds, in a turn or beside the turns, asks nothing again for them, says so, and makes the calls its dry run counted', async () => {
    const study = ['--store', store, '--config', config, '--judge', 'chatty', '--study', 'chatty', '--no-cache'];
    const dry = await runCli(['analyze', ...study, '--dry-run']);
    const counted = Number(/\bchatty\s+([\d,]+)\s/.exec(dry.stdout)?.[1]?.replaceAll(',', ''));
    server.requests.length = 0;
    const result = await runCli(['analyze', ...study]);
    expect(result.code, result.stderr).toBe(0);
    const { conversations, labels, turns } = readStore('chatty');
    expect(server.requests).toHaveLength(conversations.length);
    expect(counted).toBe(server.requests.length);
    expect(labels).toHaveLength(turns);
    expect(labels.every((label) => label.labels !== null && label.attempts === 1)).toBe(true);
    const persuaderTurns = labels.filter((label) => label.role === 'persuader').length;
    expect(result.stdout).toContain(
      `The judges' answers held keys pmiyc did not ask for ("why" in ${persuaderTurns} answers, "summary" in ${conversations.length} answers)`,
    );
  }, 120_000);
});

describe('pmiyc analyze --batch, one call per conversation', () => {
  it("sends every conversation's call once, through the provider's batch service, and stores every turn", async () => {
    const batchServer = await FakeBatchServer.start({
      format: 'openai',
      answer: (body) => {
        const messages = body['messages'] as Message[];
        const whole = readConversationJudgeRequest(messages.find((message) => message.role === 'user')?.content ?? '');
        if (!whole) return 'not a conversation judge request';
        return JSON.stringify(Object.fromEntries(whole.turns.map((turn) => [String(turn.index), labelsFromMarks(turn.message, turn.role)])));
      },
    });
    try {
      const batchConfig = join(folder, 'batch.yaml');
      writeFileSync(
        batchConfig,
        `models:\n  judge: { provider: openai, model: judge-model, baseURL: "${batchServer.url}/v1", maxRetries: 2, batch: { pollSeconds: 0.05, quietSeconds: 0.3 } }\n`,
      );
      const env = { OPENAI_API_KEY: 'sk-test' };
      const result = await runCli(['analyze', '--store', store, '--config', batchConfig, '--judge', 'judge', '--study', 'batched', '--batch', '--no-cache'], {
        env,
      });
      expect(result.code, result.stderr).toBe(0);
      const { conversations, labels, turns } = readStore('batched');
      const submitted = batchServer.submittedIds();
      expect(submitted).toHaveLength(conversations.length);
      expect(new Set(submitted).size).toBe(submitted.length);
      expect(batchServer.requests.some((request) => /chat\/completions$/.test(request.path))).toBe(false);
      expect(labels).toHaveLength(turns);
      expect(readings(labels)).toEqual(readings(readStore('killed').labels));
    } finally {
      await batchServer.close();
    }
  }, 120_000);
});
