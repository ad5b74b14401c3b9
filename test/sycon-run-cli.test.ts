import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelOf } from '../src/protocols/sycon/run/sycon-record.js';
import { turnOfFlip } from '../src/protocols/sycon/sycon-flips.js';
import { SYCON_FIXED_PUSH_BACK, SYCON_JUDGEMENT_FORMAT_NAME, syconRoleOfSystemPrompt } from '../src/protocols/sycon/sycon-prompts.js';
import { runCli, spawnCli } from './cli-helpers.js';
import { FakeProviderServer, RESPONSE_SHAPES, type RecordedRequest } from './support/fake-provider-server.js';
import { SYCON_FIXTURE_FOLDER } from './support/sycon-fixture.js';
import { readSyconRecords, syconLoopbackAnswer, syconMessagesOf, syconRunArgs, writeSyconModelsConfig } from './support/sycon-loopback.js';

/**
 * `pmiyc run --protocol sycon` end to end against a loopback OpenAI-compatible server that answers as the models
 * under test, the judge and the pressure agent (test/support/sycon-loopback.ts), over 3 questions of each setting of
 * the fixture given as a user's folder: the planted Turn of Flip, Number of Flip and flip rates come back exactly; an
 * unreadable judge's answer is kept as unread; a second run replays every call; a run killed with -9 then resumed
 * ends equal to an uninterrupted one, asking no call twice.
 */

let folder: string;
let server: FakeProviderServer;
let config: string;
/** While set, every request is held unanswered (a request on the wire when the process is killed). */
let holding = false;
let held = 0;
/** Answered requests by what they are (model, messages, seed): a call asked twice shows as a count of 2. */
const answered = new Map<string, number>();

const requestKey = (request: RecordedRequest) => JSON.stringify([request.body['model'], syconMessagesOf(request), request.body['seed']]);

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-sycon-run-'));
  server = await FakeProviderServer.start();
  server.answerWith((request) => {
    if (holding) {
      held += 1;
      return 'hang';
    }
    answered.set(requestKey(request), (answered.get(requestKey(request)) ?? 0) + 1);
    return { status: 200, body: RESPONSE_SHAPES.openaiChat(syconLoopbackAnswer(request)) };
  });
  config = writeSyconModelsConfig(folder, server.url);
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

const syconArgs = (store: string, ...more: string[]) => syconRunArgs(store, config, ...more);
const readRecords = (store: string, runName: string) => readSyconRecords(store, runName).map((entry) => entry.record);
const roleOf = (request: RecordedRequest) => syconRoleOfSystemPrompt(syconMessagesOf(request)[0]?.content ?? '') ?? 'persuadee';

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

describe('pmiyc run --protocol sycon against a loopback server', () => {
  const store = () => join(folder, 'sycon.db');

  it('pushes every model under every defence on every question, and gives back the planted Turn and Number of Flip', async () => {
    server.requests.length = 0;
    const result = await runCli(syconArgs(store(), '--run', 'sycon-a', '--defences', 'independent'));
    expect(result.code, result.stderr).toBe(0);
    const records = readRecords(store(), 'sycon-a');
    // 2 models x 2 defences x (3 debate + 3 false-presupposition questions).
    expect(records).toHaveLength(24);
    expect(records.every((record) => record.turns.length === 5 && record.judge === 'judge')).toBe(true);
    // The false-presupposition questions are pushed with the benchmark's own push-backs, the debates with the fixed line.
    const sources = (setting: string) =>
      new Set(records.filter((record) => record.setting === setting).flatMap((record) => record.turns.map((turn) => turn.pressure?.source)));
    expect(sources('debate')).toEqual(new Set([undefined, 'fixed']));
    expect(sources('false-presupposition')).toEqual(new Set([undefined, 'benchmark']));
    expect(records.find((record) => record.setting === 'debate')!.turns[1]!.pressure!.message).toBe(SYCON_FIXED_PUSH_BACK);
    // Every call at the benchmark's temperature 0; the judge asked for its JSON by a schema.
    expect(server.requests.every((request) => request.body['temperature'] === 0)).toBe(true);
    const judged = server.requests.filter((request) => roleOf(request) === 'judge');
    expect(judged.every((request) => JSON.stringify(request.body['response_format']).includes(SYCON_JUDGEMENT_FORMAT_NAME))).toBe(true);

    const pliant = records.filter((record) => record.persuadee === 'pliant');
    expect(pliant.every((record) => turnOfFlip(record.turns.map(labelOf)) === 2)).toBe(true);
    const mumbled = pliant.filter((record) => record.setting === 'false-presupposition').map((record) => record.turns[4]!.judgement);
    expect(mumbled.map((judgement) => [judgement.status, judgement.status === 'unread' ? judgement.problem : ''])).toEqual(
      Array(6).fill(['unread', 'the reply is not one JSON object']),
    );

    expect(result.stdout).toContain('Judge judge, no pressure agent.');
    expect(result.stdout).toMatch(/^steady, defence baseline: 6 conversations on 6 questions$/m);
    expect(result.stdout).toMatch(/^ {2}Turn of Flip 5\.00 \[5\.00, 5\.00\] of 5 {2}Number of Flip 0\.00 \[0\.00, 0\.00\] {2}held throughout 100\.0%/m);
    const pliantBlock = result.stdout.slice(result.stdout.indexOf('pliant, defence baseline'));
    expect(pliantBlock).toMatch(
      /^pliant, defence baseline: 6 conversations on 6 questions; an unread label leaves Turn of Flip unknown in 0, Number of Flip in 3$/m,
    );
    expect(pliantBlock).toMatch(/Turn of Flip 2\.00 \[2\.00, 2\.00\] of 5 {2}Number of Flip 2\.00 \[2\.00, 2\.00\] {2}held throughout 0\.0%/);
    expect(pliantBlock).toMatch(/flip rate by pressure turn: t1 0\.0% \[0\.0%, 0\.0%\] {2}t2 100\.0% \[100\.0%, 100\.0%\] {2}t3 - {2}t4 -/);
    expect(result.stdout).toMatch(/pliant, independent - baseline, Turn of Flip: 0\.00 .*on 6 questions, p \(Holm\)/);
    expect(result.stdout).toMatch(/pliant, independent - baseline, Number of Flip: 0\.00 .*on 3 questions, p \(Holm\)/);
  }, 20_000);

  it("writes the pressure agent's push-backs where the question has none of the benchmark's, and the fifth pressure turn", async () => {
    server.requests.length = 0;
    const result = await runCli(
      syconArgs(store(), '--run', 'sycon-agent', '--models', 'steady', '--pressure', 'pusher', '--pressure-turns', '5', '--limit', '1'),
    );
    expect(result.code, result.stderr).toBe(0);
    const records = readRecords(store(), 'sycon-agent');
    const sourcesOf = (setting: string) => records.find((record) => record.setting === setting)!.turns.map((turn) => turn.pressure?.source ?? null);
    expect(sourcesOf('debate')).toEqual([null, 'agent', 'agent', 'agent', 'agent', 'agent']);
    expect(sourcesOf('false-presupposition')).toEqual([null, 'benchmark', 'benchmark', 'benchmark', 'benchmark', 'agent']);
    expect(server.requests.filter((request) => roleOf(request) === 'persuader')).toHaveLength(6);
    expect(result.stdout).toContain('Judge judge, pressure agent pusher.');
  }, 20_000);

  it('replays every call of an identical second run: no request reaches the server, and the records are the same', async () => {
    server.requests.length = 0;
    const again = await runCli(syconArgs(store(), '--run', 'sycon-b', '--defences', 'independent'));
    expect(again.code, again.stderr).toBe(0);
    expect(server.requests).toHaveLength(0);
    const texts = (run: string) => readRecords(store(), run).map((record) => record.turns.map((turn) => [turn.reply.message, labelOf(turn)]));
    expect(texts('sycon-b')).toEqual(texts('sycon-a'));
  }, 20_000);

  it('resumes a run killed with -9 without asking any call twice, and ends equal to the uninterrupted run', async () => {
    const killedStore = join(folder, 'killed.db');
    answered.clear();
    const first = spawnCli(syconArgs(killedStore, '--run', 'killed', '--defences', 'independent', '--concurrency', '1'));
    await waitFor(() => storedRecords(killedStore) >= 5 || first.child.exitCode !== null);
    holding = true;
    await waitFor(() => held > 0 || first.child.exitCode !== null);
    expect(first.child.exitCode, 'the run ended before it was killed').toBeNull();
    first.child.kill('SIGKILL');
    expect((await first.done).code).toBe(137);
    holding = false;
    const before = storedRecords(killedStore);
    expect(before).toBeLessThan(24);

    const resumed = await runCli(syconArgs(killedStore, '--run', 'killed', '--resume'));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`${before} already stored`);
    expect([...answered.values()].every((count) => count === 1)).toBe(true);
    const stored = (path: string, run: string) =>
      readSyconRecords(path, run).map(({ itemKey, record }) => [
        itemKey,
        record.turns.map((turn) => [turn.pressure?.message, turn.reply.message, labelOf(turn)]),
      ]);
    expect(stored(killedStore, 'killed')).toEqual(stored(store(), 'sycon-a'));
  }, 20_000);

  it('--dry-run says the plan, what the store replays, and the calls, tokens and cost of each model, and calls nothing', async () => {
    server.requests.length = 0;
    const priced = join(folder, 'priced.yaml');
    writeFileSync(priced, readFileSync(config, 'utf8').replaceAll('maxRetries: 0 }', 'maxRetries: 0, inputUsdPerMillion: 1, outputUsdPerMillion: 2 }'));
    const dry = await runCli([
      ...syconArgs(join(folder, 'dry.db'), '--defences', 'independent,persona', '--pressure', 'pusher', '--dry-run'),
      '--config',
      priced,
    ]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('2 models x 3 defences (baseline, independent, persona) x 6 questions');
    expect(dry.stdout).toContain('= 36 conversations of 4 pressure turns, at temperature 0.');
    expect(dry.stdout).toContain('Nothing in the store is reused: there is no run in a store at');
    // Each model: 18 conversations of 5 replies; the judge labels all 180; the agent pushes 4 turns on each debate (2 x 3 x 3 x 4).
    expect(dry.stdout).toMatch(/^steady +90 +[\d,]+ +18,000 +\$\d+\.\d\d$/m);
    expect(dry.stdout).toMatch(/^judge +180 /m);
    expect(dry.stdout).toMatch(/^pusher +72 /m);
    expect(dry.stdout).toMatch(/^Total cost: about \$\d+\.\d\d\.$/m);

    // Over the store of the first run, the same plan replays every call but the persona's: the 240 of its 24
    // conversations and the judge's 12 re-asks of its unreadable answers (two more for each of 6 replies).
    const again = await runCli([...syconArgs(store(), '--defences', 'independent,persona', '--dry-run'), '--config', priced]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/In the store already: 252 calls, replayed for free, not counted below \(24 of the 36 conversations need no new call\)/);
    expect(again.stdout).toMatch(/^steady +30 /m);
    expect(server.requests).toHaveLength(0);
  }, 20_000);

  it('refuses a resume whose flags differ from the run, or whose question folder has changed since it started', async () => {
    const changed = await runCli(syconArgs(store(), '--run', 'sycon-a', '--resume', '--judge', 'pusher'));
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain('--judge is pusher, but run sycon-a has judge');
    const own = join(folder, 'own-questions');
    cpSync(SYCON_FIXTURE_FOLDER, own, { recursive: true });
    const ownArgs = (...more: string[]) => [
      ...syconArgs(join(folder, 'own.db'), '--models', 'steady', '--limit', '1', '--run', 'own'),
      '--questions',
      own,
      ...more,
    ];
    expect((await runCli(ownArgs())).code).toBe(0);
    writeFileSync(join(own, 'debate-setting/data/arguments.txt'), 'Another stance.\n'.repeat(10));
    const resumed = await runCli(ownArgs('--resume'));
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain(`${join(own, 'debate-setting/data/arguments.txt')} has changed since the run started`);
  }, 20_000);

  it('runs the experiment of a config whose experiment says protocol: sycon, its shared keys filled in, and refuses an APE key there', async () => {
    const experiment = join(folder, 'experiment.yaml');
    const models = readFileSync(config, 'utf8');
    writeFileSync(experiment, `${models}experiment:\n  protocol: sycon\n  models: [steady]\n  topics: { limit: 1 }\n`);
    const refused = await runCli(['run', '--config', experiment, '--store', join(folder, 'experiment.db')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('is for protocol: ape, and this experiment is protocol: sycon');
    writeFileSync(experiment, `${models}experiment:\n  protocol: sycon\n  models: [steady]\n  repetitions: 2\n`);
    const result = await runCli([
      'run',
      '--config',
      experiment,
      '--judge',
      'judge',
      '--questions',
      SYCON_FIXTURE_FOLDER,
      '--limit',
      '1',
      '--store',
      join(folder, 'experiment.db'),
      '--run',
      'from-file',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const records = readRecords(join(folder, 'experiment.db'), 'from-file');
    expect(records.map((record) => [record.persuadee, record.repetition])).toEqual([
      ['steady', 0],
      ['steady', 1],
      ['steady', 0],
      ['steady', 1],
    ]);
  }, 20_000);

  it("refuses SYCON's flags without --protocol sycon, and another protocol's flags with it", async () => {
    const stray = await runCli(['run', '--models', 'sim/eloquent', '--judge', 'judge', '--store', join(folder, 'stray.db')]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--judge is for --protocol persusafety or sycon: add --protocol persusafety or sycon, or drop it');
    const ape = await runCli(syconArgs(join(folder, 'stray.db'), '--evaluator', 'judge'));
    expect(ape.code).toBe(2);
    expect(ape.stderr).toContain('--evaluator is not for --protocol sycon');
    const tournament = await runCli(syconArgs(join(folder, 'stray.db'), '--setting', 'multi'));
    expect(tournament.code).toBe(2);
    expect(tournament.stderr).toContain('--setting is not for --protocol sycon');
    const turns = await runCli(syconArgs(join(folder, 'stray.db'), '--pressure-turns', '6'));
    expect(turns.code).toBe(2);
    expect(turns.stderr).toContain('SYCON-Bench pushes at most 5 times');
  }, 20_000);
});
