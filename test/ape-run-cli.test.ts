import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APE_HARMFUL_CATEGORIES } from '../src/protocols/ape/ape-facts.js';
import { apeScoredConversationOf } from '../src/protocols/ape/run/ape-record.js';
import { runCli, spawnCli } from './cli-helpers.js';
import { APE_FIXTURE_TOPICS, apeLoopbackAnswer, apeMessagesOf, apeRunArgs, readApeRecords, writeApeModelsConfig } from './support/ape-loopback.js';
import { FakeProviderServer, RESPONSE_SHAPES, type RecordedRequest } from './support/fake-provider-server.js';

/**
 * `pmiyc run --protocol ape` end to end against a loopback OpenAI-compatible server that answers as persuader,
 * persuadee and evaluator (issue 45), over the 12 fixture topics given as a user's own topic file: the run
 * completes and its records read back; planted refusals and attempts show in the closing rates; a second run
 * replays every call; a run killed with -9 then resumed asks no call twice.
 */

const HARMFUL: ReadonlySet<string> = new Set(APE_HARMFUL_CATEGORIES);

let folder: string;
let server: FakeProviderServer;
let config: string;
/** While set, every request is held unanswered (a request on the wire when the process is killed). */
let holding = false;
let held = 0;
/** Answered requests by what they are (model, messages, seed): a call asked twice shows as a count of 2. */
const answered = new Map<string, number>();

const requestKey = (request: RecordedRequest) => JSON.stringify([request.body['model'], apeMessagesOf(request), request.body['seed']]);

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-ape-run-'));
  server = await FakeProviderServer.start();
  server.answerWith((request) => {
    if (holding) {
      held += 1;
      return 'hang';
    }
    answered.set(requestKey(request), (answered.get(requestKey(request)) ?? 0) + 1);
    return { status: 200, body: RESPONSE_SHAPES.openaiChat(apeLoopbackAnswer(request)) };
  });
  config = writeApeModelsConfig(folder, server.url);
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

const apeArgs = (store: string, ...more: string[]) => apeRunArgs(store, config, ...more);
const readRecords = (store: string, runName: string) => readApeRecords(store, runName).map((entry) => entry.record);

function storedRecords(store: string): number {
  let database: Database.Database | undefined;
  try {
    database = new Database(store, { readonly: true, fileMustExist: true });
    return database.prepare('SELECT count(*) FROM protocol_records').pluck().get() as number;
  } catch {
    return 0;
  } finally {
    database?.close();
  }
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('pmiyc run --protocol ape against a loopback server', () => {
  const store = () => join(folder, 'ape.db');

  it('runs every persuader on every topic, stores each conversation, and shows the planted rates by turn', async () => {
    const result = await runCli(apeArgs(store(), '--run', 'ape-a'));
    expect(result.code, result.stderr).toBe(0);
    const records = readRecords(store(), 'ape-a');
    expect(records).toHaveLength(24);
    expect(records.every((record) => record.turns.length === 3 && record.persuadee === 'person' && record.evaluator === 'judge')).toBe(true);
    // Both persuaders met the same start on each topic (paired), at the benchmark's temperature.
    const starts = (persuader: string) =>
      records.filter((record) => record.persuader === persuader).map((record) => [record.topicIndex, record.startingBelief]);
    expect(starts('willing')).toEqual(starts('careful'));
    const careful = records.filter((record) => record.persuader === 'careful').map(apeScoredConversationOf);
    const harmful = careful.filter((conversation) => HARMFUL.has(conversation.category));
    expect(harmful).toHaveLength(4);
    expect(harmful.every((conversation) => conversation.turns.every((turn) => turn.turnClass === 'refusal'))).toBe(true);
    expect(server.requests.every((request) => request.body['temperature'] === 0.5)).toBe(true);

    expect(result.stdout).toMatch(/^willing: 12 conversations on 12 topics$/m);
    expect(result.stdout).toMatch(/^ {2}turn 1: attempt 100\.0%.* refusal 0\.0%/m);
    const carefulBlock = result.stdout.slice(result.stdout.indexOf('careful: 12 conversations'));
    expect(carefulBlock).toMatch(/turn 1: attempt 66\.7% \[[\d.]+%, [\d.]+%\]\s+refusal 33\.3% \[[\d.]+%, [\d.]+%\]\s+no attempt 0\.0%/);
    expect(carefulBlock).toMatch(/turn 2: attempt 0\.0%.*refusal 33\.3%.*no attempt 66\.7%/);
    expect(carefulBlock).toMatch(/headline, turn-1 attempts on the harmful categories: 0\.0%/);
  }, 120_000);

  it('asks the second refusal check of every persuader message when the run names a model for it, and stores its reading; --state-degree tells the degree', async () => {
    const result = await runCli(apeArgs(store(), '--run', 'ape-check', '--refusal-check', 'judge', '--categories', 'UnderminingControl', '--state-degree'));
    expect(result.code, result.stderr).toBe(0);
    const records = readRecords(store(), 'ape-check');
    expect(records).toHaveLength(4);
    for (const record of records) {
      expect(record.refusalCheck).toBe('judge');
      // --state-degree: the persuader was told the degree drawn for the conversation.
      expect(record.degree).toBe(record.drawnDegree);
      for (const turn of record.turns) {
        expect(turn.refusalCheck).toMatchObject({ status: 'read', value: { refused: record.persuader === 'careful' } });
      }
    }
  }, 60_000);

  it('replays every call of an identical second run: no request reaches the server', async () => {
    server.requests.length = 0;
    const again = await runCli(apeArgs(store(), '--run', 'ape-b'));
    expect(again.code, again.stderr).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(readRecords(store(), 'ape-b').map((record) => record.turns.map((turn) => turn.persuader.message))).toEqual(
      readRecords(store(), 'ape-a').map((record) => record.turns.map((turn) => turn.persuader.message)),
    );
  }, 120_000);

  it('resumes a run killed with -9 without asking any call twice, and ends with every conversation', async () => {
    const killedStore = join(folder, 'killed.db');
    answered.clear();
    const first = spawnCli(apeArgs(killedStore, '--run', 'killed', '--concurrency', '1'));
    await waitFor(() => storedRecords(killedStore) >= 5 || first.child.exitCode !== null);
    holding = true;
    await waitFor(() => held > 0 || first.child.exitCode !== null);
    expect(first.child.exitCode, 'the run ended before it was killed').toBeNull();
    first.child.kill('SIGKILL');
    expect((await first.done).code).toBe(137);
    holding = false;
    const before = storedRecords(killedStore);
    expect(before).toBeLessThan(24);

    // A dry run of the resume skips the stored conversations and prices only the rest.
    const asked = server.requests.length;
    const dry = await runCli(apeArgs(killedStore, '--run', 'killed', '--resume', '--dry-run'));
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`run killed holds ${before} of the conversations already, skipped`);
    const toMake = Number(/^Calls to make: (\d+) /m.exec(dry.stdout)?.[1]);
    expect(toMake).toBeGreaterThan(0);
    expect(toMake).toBeLessThanOrEqual((24 - before) * 9 + 12);
    expect(server.requests).toHaveLength(asked);

    const resumed = await runCli(apeArgs(killedStore, '--run', 'killed', '--resume'));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`${before} already stored`);
    expect(readRecords(killedStore, 'killed')).toHaveLength(24);
    expect([...answered.values()].every((count) => count === 1)).toBe(true);
  }, 180_000);

  it("--dry-run prices every call of the run, the evaluator's and the refusal check's included, and calls nothing", async () => {
    server.requests.length = 0;
    const priced = join(folder, 'priced.yaml');
    const prices: Record<string, readonly [number, number]> = { willing: [2, 8], careful: [1, 4], person: [0.5, 1], judge: [5, 15] };
    const entry = (name: string) =>
      `  ${name}: { provider: openai-compatible, model: ${name}-model, baseURL: "${server.url}/v1", inputUsdPerMillion: ${prices[name]![0]}, outputUsdPerMillion: ${prices[name]![1]} }\n`;
    writeFileSync(priced, `models:\n${Object.keys(prices).map(entry).join('')}`);
    // The priced config given last replaces the unpriced one.
    const dry = await runCli(
      apeArgs(join(folder, 'dry.db'), '--refusal-check', 'judge', '--categories', 'conspiracy,UnderminingControl', '--dry-run', '--config', priced),
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('2 persuaders x 4 topics');
    expect(dry.stdout).toContain('= 8 conversations of 3 persuader turns, at temperature 0.5');
    const rows = new Map(
      [...dry.stdout.matchAll(/^(\w+)\s+(\d+)\s+([\d,]+)\s+([\d,]+)\s+\$(\d+\.\d\d)$/gm)].map((row) => {
        const [, model, calls, input, output] = row;
        return [model!, { calls: Number(calls), input: Number(input!.replaceAll(',', '')), output: Number(output!.replaceAll(',', '')) }];
      }),
    );
    // The persuadee: 4 openings (one per topic, shared by both persuaders) and 24 replies; the judge evaluates and checks every persuader turn (2 x 24).
    expect(Object.fromEntries([...rows].map(([model, row]) => [model, row.calls]))).toEqual({ person: 28, willing: 12, careful: 12, judge: 48 });
    const total = [...rows].reduce((sum, [model, row]) => sum + (row.input * prices[model]![0] + row.output * prices[model]![1]) / 1e6, 0);
    const printed = /^Total cost: about \$(\d+\.\d\d)\.$/m.exec(dry.stdout)?.[1];
    expect(Math.abs(Number(printed) - total)).toBeLessThanOrEqual(0.01);
    // The judge's calls cost something: its evaluations and checks are priced.
    expect(total).toBeGreaterThan(0.1);
    expect(dry.stdout).toContain(`Calls to make: ${28 + 12 + 12 + 48} `);
    expect(server.requests).toHaveLength(0);
  }, 60_000);

  it('--dry-run of a run whose calls the store holds already prices nothing: each is replayed', async () => {
    server.requests.length = 0;
    const dry = await runCli(apeArgs(store(), '--run', 'ape-c', '--dry-run'));
    expect(dry.code, dry.stderr).toBe(0);
    // ape-a's 24 conversations: 12 openings, and 3 persuader turns of 3 calls each.
    expect(dry.stdout).toContain('In the store already: 228 calls, replayed for free, not counted below (24 of the 24 conversations need no new call).');
    expect(dry.stdout).toContain('Nothing to call: the store holds every call of the plan.');
    expect(dry.stdout).toContain('Total cost: about $0.00.');
    const fresh = await runCli(apeArgs(store(), '--run', 'ape-c', '--dry-run', '--no-cache'));
    expect(fresh.stdout).toContain('Nothing in the store is reused: --no-cache reuses no call of an earlier run.');
    expect(fresh.stdout).toContain('Calls to make: 228 ');
    expect(server.requests).toHaveLength(0);
  }, 60_000);

  it('refuses to resume a run whose own topic file has changed since it started, or with another --topics', async () => {
    const own = join(folder, 'my-topics.jsonl');
    writeFileSync(own, readFileSync(APE_FIXTURE_TOPICS, 'utf8'));
    const ownStore = join(folder, 'own.db');
    const args = ['run', '--protocol', 'ape', '--models', 'willing', '--persuadee', 'person', '--evaluator', 'judge', '--store', ownStore, '--config', config];
    const started = await runCli([...args, '--topics', own, '--limit', '1', '--run', 'own']);
    expect(started.code, started.stderr).toBe(0);
    const other = await runCli([...args, '--topics', APE_FIXTURE_TOPICS, '--run', 'own', '--resume']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`--topics is ${APE_FIXTURE_TOPICS}, but run own has ${own}`);
    writeFileSync(
      own,
      `${readFileSync(APE_FIXTURE_TOPICS, 'utf8')}{"category": "Conspiracy", "short_title": "New", "text": "A new statement.", "subject": "s"}\n`,
    );
    const changed = await runCli([...args, '--run', 'own', '--resume']);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain(`the topic file ${own} has changed since the run started`);
  }, 60_000);

  it('refuses an APE flag without --protocol ape, and a resume whose flags differ from the run', async () => {
    const stray = await runCli(['run', '--models', 'sim/eloquent', '--evaluator', 'judge', '--store', join(folder, 'stray.db')]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--evaluator is for --protocol ape');
    const tournamentFlag = await runCli(apeArgs(join(folder, 'stray.db'), '--setting', 'multi'));
    expect(tournamentFlag.code).toBe(2);
    expect(tournamentFlag.stderr).toContain('--setting is not for --protocol ape');
    const changed = await runCli(apeArgs(store(), '--run', 'ape-a', '--resume', '--persuadee', 'judge'));
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain('--persuadee is judge, but run ape-a has person');
  }, 60_000);
});
