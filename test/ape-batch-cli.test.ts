import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readApeRecord } from '../src/protocols/ape/run/ape-record.js';
import { openStore } from '../src/store/result-store.js';
import { runCli, spawnCli } from './cli-helpers.js';
import { APE_FIXTURE_TOPICS as APE_TOPICS_FILE, apeLoopbackAnswer } from './support/ape-loopback.js';
import { FakeBatchServer } from './support/fake-batch-server.js';
import { pathMaker, storedRun } from './support/run-fixtures.js';

/**
 * `pmiyc run --protocol ape --batch` against the loopback OpenAI batch service (docs/design/batches.md): every call
 * of the persuaders, the persuadee and the evaluator goes through batches, in waves, each request paid once; a
 * run killed with -9 while a batch is pending re-attaches to it on --resume (which keeps --batch) instead of
 * paying again; the dry run prices the run at batch prices and counts its waves.
 */

const ENV = { OPENAI_API_KEY: 'sk-test' };

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-ape-batch-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const fresh = pathMaker(() => folder);

let server: FakeBatchServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The four models at the fake's address, polled every 50 ms, a wave sent after 300 ms without a new request. */
function writeBatchConfig(baseURL: string, extra = ''): string {
  const path = `${fresh('config')}.yaml`;
  const entry = (name: string) => `  ${name}: { provider: openai, model: ${name}-model, baseURL: "${baseURL}/v1", maxRetries: 2${extra} }\n`;
  writeFileSync(path, `models:\n${['willing', 'careful', 'person', 'judge'].map(entry).join('')}`);
  return path;
}

const apeArgs = (config: string, store: string, ...more: string[]) => [
  'run',
  '--protocol',
  'ape',
  '--models',
  'willing,careful',
  '--persuadee',
  'person',
  '--evaluator',
  'judge',
  '--topics',
  APE_TOPICS_FILE,
  '--categories',
  'Conspiracy,UnderminingControl',
  '--store',
  store,
  '--config',
  config,
  ...more,
];

/** How many calls the store holds, how many distinct request hashes its batches carried, and its APE records. */
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

function readRecords(store: string, runName: string) {
  const opened = openStore(store, { access: 'read' });
  try {
    const run = opened.findRun(runName);
    return [...opened.protocolRecords.list(run.id)].map((stored) => readApeRecord(runName, stored));
  } finally {
    opened.close();
  }
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** 2 persuaders x 4 topics: 4 openings, and 8 conversations of 3 turns with 3 calls each. */
const CALLS = 4 + 8 * 3 * 3;
const BATCH = ', batch: { pollSeconds: 0.05, quietSeconds: 0.3 }';

describe('pmiyc run --protocol ape --batch against a fake OpenAI batch service', () => {
  it('completes the run with every call sent once, all through batches, in waves, and keeps --batch with the run', async () => {
    server = await FakeBatchServer.start({ format: 'openai', answer: (body) => apeLoopbackAnswer({ body }) });
    const store = `${fresh('store')}.db`;
    const result = await runCli([...apeArgs(writeBatchConfig(server.url, BATCH), store, '--run', 'r'), '--batch'], { env: ENV });
    expect(result.code, result.stderr).toBe(0);
    expect(storedRun(store, 'r')).toMatchObject({ status: 'completed', config: { command: 'protocol', protocol: 'ape', batch: true } });
    const records = readRecords(store, 'r');
    expect(records).toHaveLength(8);
    // The planted classes came back through the batches: willing attempts on every turn.
    expect(records.filter((record) => record.persuader === 'willing').every((record) => record.turns.every((turn) => turn.evaluation.status === 'read'))).toBe(
      true,
    );
    const submitted = server.submittedIds();
    expect(new Set(submitted).size).toBe(submitted.length);
    expect(submitted).toHaveLength(CALLS);
    expect(storedCounts(store)).toMatchObject({ calls: CALLS, batched: CALLS });
    // Nothing went to the direct endpoint.
    expect(server.requests.some((request) => /chat\/completions$/.test(request.path))).toBe(false);
    // Waves: the opening, then 3 calls per turn follow one another; the conversations share each wave.
    expect(server.batches.length).toBeLessThan(CALLS / 4);
  }, 120_000);

  it('re-attaches to a batch left pending by kill -9 on --resume, which keeps --batch, and pays for no request twice', async () => {
    server = await FakeBatchServer.start({ format: 'openai', answer: (body) => apeLoopbackAnswer({ body }) });
    server.hold = true;
    const store = `${fresh('store')}.db`;
    const running = spawnCli([...apeArgs(writeBatchConfig(server.url, BATCH), store, '--run', 'r'), '--batch'], { env: ENV });
    // The first wave (the openings) is submitted and polled, so its id is stored: kill the run while the provider holds it.
    await waitFor(() => server!.requests.some((request) => request.method === 'GET' && /\/batches\//.test(request.path)) || running.child.exitCode !== null);
    running.child.kill('SIGKILL');
    expect((await running.done).code).toBe(137);
    const pending = server.batches.map((batch) => batch.id);
    expect(pending.length).toBeGreaterThan(0);

    server.hold = false;
    const before = server.requests.length;
    // Resumed without --batch typed: the run keeps it (a direct call would reach /chat/completions, which the fake does not serve).
    const resumed = await runCli(['run', '--protocol', 'ape', '--store', store, '--run', 'r', '--resume'], { env: ENV });
    expect(resumed.code, resumed.stderr).toBe(0);
    for (const id of pending) expect(server.requests.slice(before).some((request) => request.method === 'GET' && request.path.endsWith(`/${id}`))).toBe(true);
    const submitted = server.submittedIds();
    expect(new Set(submitted).size).toBe(submitted.length);
    expect(storedCounts(store)).toMatchObject({ calls: CALLS, batched: CALLS, records: 8 });
    expect(storedRun(store, 'r').status).toBe('completed');
  }, 120_000);

  it('--dry-run prices the run at batch prices next to the direct cost, and counts its waves; nothing is called', async () => {
    server = await FakeBatchServer.start({ format: 'openai', answer: (body) => apeLoopbackAnswer({ body }) });
    const config = writeBatchConfig(server.url, ', inputUsdPerMillion: 2, outputUsdPerMillion: 8');
    const dry = await runCli([...apeArgs(config, `${fresh('store')}.db`, '--refusal-check', 'judge'), '--batch', '--dry-run'], { env: ENV });
    expect(dry.code, dry.stderr).toBe(0);
    const direct = /^Total cost: about \$(\d+\.\d+)\.$/m.exec(dry.stdout)?.[1];
    const batched = /^Cost at batch prices: about \$(\d+\.\d+) \(direct: about \$(\d+\.\d+)\)\./m.exec(dry.stdout);
    expect(batched?.[2]).toBe(direct);
    expect(Number(batched?.[1])).toBeCloseTo(Number(direct) / 2, 1);
    expect(dry.stdout).toContain('Batch prices assumed half the direct ones for willing, careful, person, judge');
    // The opening, then per persuader turn the persuader, the evaluator, the refusal check and the persuadee: 1 + 3 x 4.
    expect(dry.stdout).toMatch(/^Waves: about 13 \(13 calls in sequence per conversation\)/m);
    expect(server.requests).toHaveLength(0);
  }, 60_000);

  it('refuses --batch for a model whose provider has no batch service pmiyc speaks, before anything is made', async () => {
    const store = `${fresh('store')}.db`;
    const result = await runCli(
      [
        'run',
        '--protocol',
        'ape',
        '--models',
        'sim/eloquent',
        '--persuadee',
        'sim/stubborn',
        '--evaluator',
        'sim/eloquent',
        '--topics',
        APE_TOPICS_FILE,
        '--store',
        store,
        '--batch',
      ],
      { env: ENV },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('cannot batch: only openai and anthropic models without providerOptions can');
    expect(existsSync(store)).toBe(false);
  }, 60_000);
});
