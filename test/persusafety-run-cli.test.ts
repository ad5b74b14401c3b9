import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPersusafetyJudgeSystemPrompt } from '../src/protocols/persusafety/conversation/persusafety-judge.js';
import { runCli, spawnCli } from './cli-helpers.js';
import { FakeProviderServer, RESPONSE_SHAPES, type RecordedRequest } from './support/fake-provider-server.js';
import {
  persusafetyLoopbackAnswer,
  persusafetyMessagesOf,
  readPersusafetyRecords,
  writePersusafetyDataset,
  writePersusafetyModelsConfig,
} from './support/persusafety-loopback.js';

/**
 * `pmiyc run --protocol persusafety` end to end against a loopback OpenAI-compatible server that answers as
 * persuader, persuadee and judge, on the fixture's 3 harmful tasks and 2 neutral scenes given as a dataset folder:
 * the run completes and its records read back in the import's shape; the planted task refusals (by harmfulness
 * level) and strategy use show in the records and the closing text; the judge is asked once per conversation with
 * a JSON Schema; a second run replays every call; a run killed with -9 then resumed asks no call twice.
 */

let folder: string;
let server: FakeProviderServer;
let config: string;
let dataset: { readonly path: string; readonly levels: ReadonlyMap<string, string> };
/** While set, every request is held unanswered (a request on the wire when the process is killed). */
let holding = false;
let held = 0;
/** Answered requests by what they are (model, messages, seed): a call asked twice shows as a count of 2. */
const answered = new Map<string, number>();

const requestKey = (request: RecordedRequest) => JSON.stringify([request.body['model'], persusafetyMessagesOf(request), request.body['seed']]);

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-persusafety-run-'));
  dataset = writePersusafetyDataset(folder);
  server = await FakeProviderServer.start();
  server.answerWith((request) => {
    if (holding) {
      held += 1;
      return 'hang';
    }
    answered.set(requestKey(request), (answered.get(requestKey(request)) ?? 0) + 1);
    return { status: 200, body: RESPONSE_SHAPES.openaiChat(persusafetyLoopbackAnswer(request, dataset.levels)) };
  });
  config = writePersusafetyModelsConfig(folder, server.url);
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Both planted persuaders on every scene, two profiles, the profile shown and hidden, at most 4 turns. */
const runArgs = (store: string, ...more: string[]) => [
  'run',
  '--protocol',
  'persusafety',
  '--models',
  'willing,careful',
  '--persuadee',
  'person',
  '--judge',
  'judge',
  '--dataset',
  dataset.path,
  '--profiles',
  'Resilient,Anxious',
  '--turns',
  '4',
  '--store',
  store,
  '--config',
  config,
  ...more,
];
const readRecords = (store: string, runName: string) => readPersusafetyRecords(store, runName).map((entry) => entry.record);

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

describe('pmiyc run --protocol persusafety against a loopback server', () => {
  const store = () => join(folder, 'persusafety.db');

  it('plays every persuader on every scene, profile and condition, stores each conversation, and shows the planted refusals and strategy use', async () => {
    const result = await runCli(runArgs(store(), '--run', 'ps-a'));
    expect(result.code, result.stderr).toBe(0);
    const records = readRecords(store(), 'ps-a');
    // (3 harmful tasks + 2 neutral scenes) x 2 profiles x 2 conditions x 2 persuaders.
    expect(records).toHaveLength(40);
    const careful = records.filter((record) => record.persuader === 'careful');
    const declined = careful.filter((record) => record.played?.stop === 'task-declined');
    expect(new Set(declined.map((record) => record.scene.harmfulness))).toEqual(new Set(['Medium', 'High']));
    expect(declined).toHaveLength(8);
    expect(declined.every((record) => record.scene.taskProbe?.flag === -1 && record.judgement.status === 'not-asked' && record.messages.length === 1)).toBe(
      true,
    );
    // The rest were played to the persuadee's acceptance on its third reply and judged once.
    const played = records.filter((record) => record.played?.stop !== 'task-declined');
    expect(played.every((record) => record.played?.stop === 'accepted' && record.finalDecision === 'ACCEPT' && record.decisions.length === 3)).toBe(true);
    expect(played.every((record) => record.judgement.status === 'read' && !record.judgement.published && record.judgement.judge === 'judge')).toBe(true);
    const guilt = (record: (typeof records)[number]) => record.judgement.scores.find((score) => score.strategy === 'Guilt Tripping')?.score;
    expect(played.map((record) => [record.persuader, guilt(record)])).toEqual(
      played.map((record) => [record.persuader, record.persuader === 'willing' ? 2 : 0]),
    );
    // The agents at the benchmark's temperature 1, the judge at 0 with the judgement's JSON Schema.
    const judged = server.requests.filter((request) => isPersusafetyJudgeSystemPrompt(persusafetyMessagesOf(request)[0]!.content));
    expect(judged).toHaveLength(played.length);
    expect(judged.every((request) => request.body['temperature'] === 0 && (request.body['response_format'] as { type: string }).type === 'json_schema')).toBe(
      true,
    );
    expect(server.requests.filter((request) => !judged.includes(request)).every((request) => request.body['temperature'] === 1)).toBe(true);

    expect(result.stdout).toContain('Persuadee person, judge judge.');
    expect(result.stdout).toMatch(/^careful: 20 conversations on 5 scenes$/m);
    expect(result.stdout).toMatch(
      /^ {2}task declined: Low 0\.0%.*Medium 100\.0%.*High 100\.0%.*all harmful 66\.7% \[[\d.]+%, [\d.]+%\] \(8 of 12\).*neutral 0\.0%/m,
    );
    const willingBlock = result.stdout.slice(result.stdout.indexOf('willing: 20 conversations'));
    expect(willingBlock).toMatch(/task declined: Low 0\.0% .*High 0\.0%/);
    expect(willingBlock).toMatch(/^ {4}Guilt Tripping +100\.0% \[100\.0%, 100\.0%\] +100\.0% \[100\.0%, 100\.0%\] +100\.0% +100\.0% +\+0\.0%/m);
  }, 20_000);

  it("is read by export and show: each line keeps the run's name beside the record's own part of a run", async () => {
    const exported = await runCli(['export', '--store', store(), '--run', 'ps-a', '--format', 'jsonl']);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = exported.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { run: string; item: string; protocol: string; played: { persuadee: string; stop: string } });
    expect(lines).toHaveLength(40);
    expect(lines.every((line) => line.run === 'ps-a' && line.protocol === 'persusafety' && line.played.persuadee === 'person')).toBe(true);
    const declined = lines.find((line) => line.played.stop === 'task-declined')!;
    const shown = await runCli(['show', declined.item, '--store', store(), '--run', 'ps-a']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('task probe flag (1: took the task): -1');
  }, 20_000);

  it('replays every call of an identical second run: no request reaches the server', async () => {
    server.requests.length = 0;
    const again = await runCli(runArgs(store(), '--run', 'ps-b'));
    expect(again.code, again.stderr).toBe(0);
    expect(server.requests).toHaveLength(0);
    const messages = (run: string) => readRecords(store(), run).map((record) => record.messages);
    expect(messages('ps-b')).toEqual(messages('ps-a'));
  }, 20_000);

  it('resumes a run killed with -9 without asking any call twice, and ends with every conversation', async () => {
    const killedStore = join(folder, 'killed.db');
    answered.clear();
    const first = spawnCli(runArgs(killedStore, '--run', 'killed', '--concurrency', '1', '--seed', '5'));
    await waitFor(() => storedRecords(killedStore) >= 5 || first.child.exitCode !== null);
    holding = true;
    await waitFor(() => held > 0 || first.child.exitCode !== null);
    expect(first.child.exitCode, 'the run ended before it was killed').toBeNull();
    first.child.kill('SIGKILL');
    expect((await first.done).code).toBe(137);
    holding = false;
    const before = storedRecords(killedStore);
    expect(before).toBeLessThan(40);

    const resumed = await runCli(runArgs(killedStore, '--run', 'killed', '--resume'));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`${before} already stored`);
    expect(readRecords(killedStore, 'killed')).toHaveLength(40);
    expect([...answered.values()].every((count) => count === 1)).toBe(true);
    // Equal to an uninterrupted run of the same seed in a store of its own (nothing to replay): the same records.
    const wholeStore = join(folder, 'whole.db');
    const whole = await runCli(runArgs(wholeStore, '--run', 'whole', '--seed', '5'));
    expect(whole.code, whole.stderr).toBe(0);
    const keyed = (path: string, run: string) => readPersusafetyRecords(path, run).map(({ itemKey, record }) => [itemKey, record]);
    expect(keyed(killedStore, 'killed')).toEqual(keyed(wholeStore, 'whole'));
  }, 20_000);

  it('--dry-run prices the most calls of each model from the config, replays what the store holds, and calls nothing', async () => {
    server.requests.length = 0;
    const priced = writePersusafetyModelsConfig(folder, server.url, 'priced.yaml', ', inputUsdPerMillion: 1, outputUsdPerMillion: 4');
    // The later --config wins: the same models, priced.
    const dry = await runCli([
      ...runArgs(join(folder, 'dry.db'), '--scenes', 'neutral', '--constraints', 'none,benefit-pressure', '--dry-run'),
      '--config',
      priced,
    ]);
    expect(dry.code, dry.stderr).toBe(0);
    // 2 neutral scenes x 2 constraints x 2 profiles x 2 conditions = 16 conversations a persuader.
    expect(dry.stdout).toContain('= 32 conversations, 4 turns at most, at temperature 1.');
    expect(dry.stdout).toContain('Nothing in the store is reused: there is no run in a store at');
    // Each persuader: a probe and 4 messages a conversation; the persuadee 4 replies; the judge 1; each row priced.
    const row = (model: string) => new RegExp(`^${model} +(\\d+) +([\\d,]+) +([\\d,]+) +\\$(\\d+\\.\\d\\d)$`, 'm').exec(dry.stdout)!.slice(1);
    expect(row('willing')[0]).toBe('80');
    expect(row('person')[0]).toBe('128');
    expect(row('judge')[0]).toBe('32');
    // 80 persuader calls: 16 probes of 20 tokens and 64 messages of 100 (half of 200); at $4 a million output tokens and $1 input.
    const [, input, output, cost] = row('willing');
    expect(output).toBe(String(16 * 20 + 64 * 100).replace(/\B(?=(\d{3})+$)/g, ','));
    expect(Number(cost)).toBeCloseTo((Number(input!.replaceAll(',', '')) + 4 * Number(output!.replaceAll(',', ''))) / 1e6, 2);
    expect(dry.stdout).toMatch(/^Total cost, at most: about \$\d+\.\d\d\.$/m);
    // The store of the first run holds every call of the same plan: nothing is left to call.
    const replayed = await runCli([...runArgs(store(), '--dry-run')]);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stdout).toMatch(/In the store already: [\d,]+ calls, replayed for free, not counted below \(40 of the 40 conversations need no new call\)/);
    expect(replayed.stdout).toContain('Nothing to call: the store holds every call of the plan.');
    expect(server.requests).toHaveLength(0);
  }, 20_000);

  it('refuses flags of other protocols, a resume whose flags differ, and a dataset file changed since the run started', async () => {
    const other = join(folder, 'other.db');
    const ape = await runCli(runArgs(other, '--evaluator', 'judge'));
    expect(ape.code).toBe(2);
    expect(ape.stderr).toContain('--evaluator is not for --protocol persusafety');
    const tournament = await runCli(runArgs(other, '--setting', 'multi'));
    expect(tournament.code).toBe(2);
    expect(tournament.stderr).toContain('--setting is not for --protocol persusafety');
    const stray = await runCli(['run', '--models', 'sim/a', '--judge', 'judge', '--store', other]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--judge is for --protocol persusafety');
    // --turns is the tournament's too, and it still takes only an odd count of at least 3 there.
    const even = await runCli(['run', '--models', 'sim/a', '--turns', '4', '--store', other]);
    expect(even.code).toBe(2);
    expect(even.stderr).toContain('--turns: turns must be odd');
    const onApe = await runCli([
      'run',
      '--protocol',
      'ape',
      '--models',
      'sim/a',
      '--persuadee',
      'sim/b',
      '--evaluator',
      'sim/c',
      '--profiles',
      'Anxious',
      '--store',
      other,
    ]);
    expect(onApe.code).toBe(2);
    expect(onApe.stderr).toContain('--profiles is not for --protocol ape');

    const changed = await runCli(runArgs(store(), '--run', 'ps-a', '--resume', '--judge', 'person'));
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain('--judge is person, but run ps-a has judge');
    const visibility = await runCli(runArgs(store(), '--run', 'ps-a', '--resume', '--profile-visibility', 'hidden'));
    expect(visibility.code).toBe(2);
    expect(visibility.stderr).toContain('--profile-visibility is hidden, but run ps-a has visible,hidden');

    const harmful = join(dataset.path, 'harmful_scenarios_full.json');
    const original = readFileSync(harmful, 'utf8');
    writeFileSync(harmful, original.replace('Convince', 'Persuade'));
    try {
      const edited = await runCli(runArgs(store(), '--run', 'ps-a', '--resume'));
      expect(edited.code).toBe(2);
      expect(edited.stderr).toContain(`${harmful} has changed since the run started`);
    } finally {
      writeFileSync(harmful, original);
    }
  }, 20_000);
});
