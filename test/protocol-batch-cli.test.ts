import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from './cli-helpers.js';
import { FakeBatchServer } from './support/fake-batch-server.js';
import { persusafetyLoopbackAnswer, readPersusafetyRecords, writePersusafetyDataset } from './support/persusafety-loopback.js';
import { pathMaker, storedRun } from './support/run-fixtures.js';
import { readSyconRecords, syconLoopbackAnswer, syconRunArgs } from './support/sycon-loopback.js';

/**
 * `pmiyc run --protocol persusafety --batch` and `--protocol sycon --batch` against the loopback OpenAI batch service
 * (docs/design/batches.md, docs/design/protocols.md "Batches"), as APE's (test/ape-batch-cli.test.ts): every call of
 * the run goes through batches, in waves, each request paid once, and the run keeps --batch; a run killed with -9
 * while a batch is pending re-attaches to it on --resume instead of paying again; the dry run prices the run at batch
 * prices and counts its waves.
 */

const ENV = { OPENAI_API_KEY: 'sk-test' };
const BATCH = ', batch: { pollSeconds: 0.05, quietSeconds: 0.3 }';

let folder: string;
let dataset: { readonly path: string; readonly levels: ReadonlyMap<string, string> };
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-protocol-batch-'));
  dataset = writePersusafetyDataset(folder);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const fresh = pathMaker(() => folder);

let server: FakeBatchServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The models at the fake's address, OpenAI's (whose batch service the fake speaks). */
function writeBatchConfig(baseURL: string, models: readonly string[], extra = ''): string {
  const path = `${fresh('config')}.yaml`;
  const entry = (name: string) => `  ${name}: { provider: openai, model: ${name}-model, baseURL: "${baseURL}/v1", maxRetries: 2${extra} }\n`;
  writeFileSync(path, `models:\n${models.map(entry).join('')}`);
  return path;
}

const PERSUSAFETY_MODELS = ['willing', 'careful', 'person', 'judge'];
const SYCON_MODELS = ['steady', 'pliant', 'judge', 'pusher'];

/** Both planted persuaders on the fixture's 5 scenes, one profile shown and hidden, at most 4 turns: 20 conversations. */
const persusafetyArgs = (config: string, store: string, ...more: string[]) => [
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
  'Resilient',
  '--turns',
  '4',
  '--store',
  store,
  '--config',
  config,
  ...more,
];

/** How many calls the store holds, how many distinct request hashes its batches carried, and its records. */
function storedCounts(store: string): { calls: number; batched: number; records: number } {
  const database = new Database(store, { readonly: true });
  try {
    return {
      calls: database.prepare('SELECT count(*) FROM calls').pluck().get() as number,
      batched: database.prepare('SELECT count(DISTINCT hash) FROM batch_requests').pluck().get() as number,
      records: database.prepare('SELECT count(*) FROM protocol_records').pluck().get() as number,
    };
  } finally {
    database.close();
  }
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Every call went through batches, each request once, none to the direct endpoint, in fewer batches than calls. */
function expectAllBatchedOnce(active: FakeBatchServer, store: string, records: number): void {
  const submitted = active.submittedIds();
  expect(submitted.length).toBeGreaterThan(0);
  expect(new Set(submitted).size).toBe(submitted.length);
  expect(storedCounts(store)).toEqual({ calls: submitted.length, batched: submitted.length, records });
  expect(active.requests.some((request) => /chat\/completions$/.test(request.path))).toBe(false);
  expect(active.batches.length).toBeLessThan(submitted.length / 4);
}

describe('pmiyc run --protocol persusafety --batch against a fake OpenAI batch service', () => {
  it('completes the run with every call sent once, all through batches, in waves, and keeps --batch with the run', async () => {
    server = await FakeBatchServer.start({ format: 'openai', answer: (body) => persusafetyLoopbackAnswer({ body }, dataset.levels) });
    const store = `${fresh('store')}.db`;
    const result = await runCli([...persusafetyArgs(writeBatchConfig(server.url, PERSUSAFETY_MODELS, BATCH), store, '--run', 'p'), '--batch'], { env: ENV });
    expect(result.code, result.stderr).toBe(0);
    expect(storedRun(store, 'p')).toMatchObject({ status: 'completed', config: { command: 'protocol', protocol: 'persusafety', batch: true } });
    const records = readPersusafetyRecords(store, 'p').map((entry) => entry.record);
    expect(records).toHaveLength(20);
    // The planted judge's scores came back through the batches: willing guilt-trips wherever it played the task.
    const played = records.filter((record) => record.persuader === 'willing');
    expect(played.every((record) => record.judgement.status === 'read')).toBe(true);
    expectAllBatchedOnce(server, store, 20);
  }, 120_000);

  it('--dry-run prices the run at batch prices next to the direct cost, and counts its waves; nothing is called', async () => {
    server = await FakeBatchServer.start({ format: 'openai', answer: (body) => persusafetyLoopbackAnswer({ body }, dataset.levels) });
    const config = writeBatchConfig(server.url, PERSUSAFETY_MODELS, ', inputUsdPerMillion: 2, outputUsdPerMillion: 8');
    const dry = await runCli([...persusafetyArgs(config, `${fresh('store')}.db`), '--batch', '--dry-run'], { env: ENV });
    expect(dry.code, dry.stderr).toBe(0);
    const direct = /^Total cost, at most: about \$(\d+\.\d+)\.$/m.exec(dry.stdout)?.[1];
    const batched = /^Cost at batch prices: about \$(\d+\.\d+) \(direct: about \$(\d+\.\d+)\)\./m.exec(dry.stdout);
    expect(batched?.[2]).toBe(direct);
    expect(Number(batched?.[1])).toBeCloseTo(Number(direct) / 2, 1);
    expect(dry.stdout).toContain("Batched through the provider's batch service: willing, careful, person, judge.");
    // The task probe, the persuader and the persuadee on each of 4 turns, the judge: 2 + 2 x 4.
    expect(dry.stdout).toMatch(/^Waves: about 10 \(10 calls in sequence per conversation\)/m);
    expect(server.requests).toHaveLength(0);
  }, 60_000);

  it('refuses --batch for a model whose provider has no batch service pmiyc speaks, before anything is made', async () => {
    const store = `${fresh('store')}.db`;
    const args = ['run', '--protocol', 'persusafety', '--models', 'sim/eloquent', '--persuadee', 'sim/stubborn', '--judge', 'sim/eloquent'];
    const result = await runCli([...args, '--dataset', dataset.path, '--store', store, '--batch'], { env: ENV });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('cannot batch: only openai and anthropic models without providerOptions can');
    expect(existsSync(store)).toBe(false);
  }, 60_000);
});

describe('pmiyc run --protocol sycon --batch against a fake OpenAI batch service', () => {
  /** Both planted models on 3 questions of each setting: 12 conversations of 4 pressure turns. */
  const RECORDS = 12;

  it('completes the run with every call sent once, all through batches, in waves, and keeps --batch with the run', async () => {
    server = await FakeBatchServer.start({ format: 'openai', answer: (body) => syconLoopbackAnswer({ body }) });
    const store = `${fresh('store')}.db`;
    const result = await runCli([...syconRunArgs(store, writeBatchConfig(server.url, SYCON_MODELS, BATCH), '--run', 's'), '--batch'], { env: ENV });
    expect(result.code, result.stderr).toBe(0);
    expect(storedRun(store, 's')).toMatchObject({ status: 'completed', config: { command: 'protocol', protocol: 'sycon', batch: true } });
    const records = readSyconRecords(store, 's').map((entry) => entry.record);
    expect(records).toHaveLength(RECORDS);
    // The first answer and 4 pressure turns, each reply labelled: the planted labels came back through the batches.
    expect(records.every((record) => record.turns.length === 5)).toBe(true);
    expectAllBatchedOnce(server, store, RECORDS);
  }, 120_000);

  it('re-attaches to a batch left pending by kill -9 on --resume, which keeps --batch, and pays for no request twice', async () => {
    server = await FakeBatchServer.start({ format: 'openai', answer: (body) => syconLoopbackAnswer({ body }) });
    server.hold = true;
    const store = `${fresh('store')}.db`;
    const config = writeBatchConfig(server.url, SYCON_MODELS, BATCH);
    const running = spawnCli([...syconRunArgs(store, config, '--run', 's'), '--batch'], { env: ENV });
    // The first wave (every first answer) is submitted and polled, so its id is stored: kill the run while the provider holds it.
    await waitFor(() => server!.requests.some((request) => request.method === 'GET' && /\/batches\//.test(request.path)) || running.child.exitCode !== null);
    running.child.kill('SIGKILL');
    expect((await running.done).code).toBe(137);
    const pending = server.batches.map((batch) => batch.id);
    expect(pending.length).toBeGreaterThan(0);

    server.hold = false;
    const before = server.requests.length;
    // Resumed without --batch typed: the run keeps it (a direct call would reach /chat/completions, which the fake does not serve).
    const resumed = await runCli(['run', '--protocol', 'sycon', '--store', store, '--run', 's', '--resume'], { env: ENV });
    expect(resumed.code, resumed.stderr).toBe(0);
    for (const id of pending) expect(server.requests.slice(before).some((request) => request.method === 'GET' && request.path.endsWith(`/${id}`))).toBe(true);
    expectAllBatchedOnce(server, store, RECORDS);
    expect(storedRun(store, 's').status).toBe('completed');
  }, 120_000);

  it('--dry-run prices the run at batch prices next to the direct cost, and counts its waves with a pressure agent; nothing is called', async () => {
    server = await FakeBatchServer.start({ format: 'openai', answer: (body) => syconLoopbackAnswer({ body }) });
    const config = writeBatchConfig(server.url, SYCON_MODELS, ', inputUsdPerMillion: 2, outputUsdPerMillion: 8');
    const dry = await runCli([...syconRunArgs(`${fresh('store')}.db`, config, '--pressure', 'pusher'), '--batch', '--dry-run'], { env: ENV });
    expect(dry.code, dry.stderr).toBe(0);
    const direct = /^Total cost: about \$(\d+\.\d+)\.$/m.exec(dry.stdout)?.[1];
    const batched = /^Cost at batch prices: about \$(\d+\.\d+) \(direct: about \$(\d+\.\d+)\)\./m.exec(dry.stdout);
    expect(batched?.[2]).toBe(direct);
    expect(Number(batched?.[1])).toBeCloseTo(Number(direct) / 2, 1);
    // The first answer and its label, then per pressure turn the agent's push-back, the reply and its label: 2 + 4 x 3.
    expect(dry.stdout).toMatch(/^Waves: about 14 \(14 calls in sequence per conversation\)/m);
    expect(server.requests).toHaveLength(0);
  }, 60_000);
});
