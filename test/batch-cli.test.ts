import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from './cli-helpers.js';
import { FakeBatchServer } from './support/fake-batch-server.js';
import { startFakeChatServer } from './support/fake-chat-server.js';
import { pathMaker, storedRun, writeClaims } from './support/run-fixtures.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-batch-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const fresh = pathMaker(() => folder);

let server: FakeBatchServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const FORMATS = [
  { format: 'openai', provider: 'openai', env: { OPENAI_API_KEY: 'sk-test' } },
  { format: 'anthropic', provider: 'anthropic', env: { ANTHROPIC_API_KEY: 'sk-ant-test' } },
] as const;

/** Two models of one provider at the fake's address, polled every 50 ms, a wave sent after 300 ms without a new request (`null`: not batched). */
function writeBatchConfig(provider: string, baseURL: string, batch: string | null = 'pollSeconds: 0.05, quietSeconds: 0.3'): string {
  const path = `${fresh('config')}.yaml`;
  const batching = batch === null ? '' : `, batch: { ${batch} }`;
  const entry = (model: string) => `{ provider: ${provider}, model: ${model}, baseURL: "${baseURL}/v1", maxRetries: 2${batching} }`;
  writeFileSync(path, `models:\n  alpha: ${entry('alpha-model')}\n  beta: ${entry('beta-model')}\n`);
  return path;
}

/** How many calls the store holds, and how many distinct request hashes its batches carried. */
function storedCounts(store: string): { calls: number; batched: number; batches: number } {
  const database = new Database(store, { readonly: true });
  try {
    return {
      calls: database.prepare('SELECT count(*) FROM calls').pluck().get() as number,
      batched: database.prepare('SELECT count(DISTINCT hash) FROM batch_requests').pluck().get() as number,
      batches: database.prepare('SELECT count(*) FROM batches').pluck().get() as number,
    };
  } finally {
    database.close();
  }
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe.each(FORMATS)('pmiyc run --batch against a fake $format batch service', ({ format, provider, env }) => {
  it('completes the tournament with every call sent once, all through batches, in waves', async () => {
    server = await FakeBatchServer.start({ format });
    const store = `${fresh('store')}.db`;
    const args = [
      'run',
      '--batch',
      '--config',
      writeBatchConfig(provider, server.url),
      '--models',
      'alpha,beta',
      '--claims',
      writeClaims(`${fresh('claims')}.jsonl`, 3),
    ];
    const result = await runCli([...args, '--turns', '5', '--store', store, '--run', 'r'], { env });
    expect(result.code, result.stderr).toBe(0);
    // --batch is kept with the run, so a --resume batches too.
    expect(storedRun(store, 'r')).toMatchObject({ status: 'completed', config: { settings: { batch: true } } });
    const submitted = server.submittedIds();
    // Every request the tournament needs was sent once, in a batch; nothing went to a direct endpoint.
    expect(new Set(submitted).size).toBe(submitted.length);
    expect(storedCounts(store)).toMatchObject({ calls: submitted.length, batched: submitted.length });
    expect(server.requests.some((request) => /chat\/completions$|\/v1\/messages$/.test(request.path))).toBe(false);
    // Waves: far fewer batches than calls (each conversation's turns are sequential; conversations share a wave).
    expect(server.batches.length).toBeLessThan(submitted.length / 4);
  });

  it('re-attaches to a batch left pending by kill -9 on --resume, and sends no request twice', async () => {
    server = await FakeBatchServer.start({ format });
    server.hold = true;
    const store = `${fresh('store')}.db`;
    const args = ['run', '--config', writeBatchConfig(provider, server.url), '--models', 'alpha,beta', '--claims', writeClaims(`${fresh('claims')}.jsonl`, 2)];
    const running = spawnCli([...args, '--setting', 'single', '--store', store, '--run', 'r'], { env });
    // The first wave is submitted and polled (so its id is stored): kill the run while the provider holds it.
    await waitFor(() => server!.requests.some((request) => request.method === 'GET') || running.child.exitCode !== null);
    running.child.kill('SIGKILL');
    expect((await running.done).code).toBe(137);
    // The first wave: each model's openings, one batch per model, still in progress at the provider.
    const pending = server.batches.map((batch) => batch.id);
    const pendingLines = server.submittedIds().length;
    expect(pending.length).toBeGreaterThan(0);

    server.hold = false;
    const before = server.requests.length;
    // The refused request may be asked again here (another conversation needs it): refused again, it must not stop the run.
    const resumed = await runCli(['run', '--store', store, '--run', 'r', '--resume', '--max-failures', '100'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    // The resumed run asked the provider about the pending batch instead of submitting its requests again.
    for (const id of pending) expect(server.requests.slice(before).some((request) => request.method === 'GET' && request.path.endsWith(`/${id}`))).toBe(true);
    const submitted = server.submittedIds();
    expect(new Set(submitted).size).toBe(submitted.length);
    expect(pendingLines).toBeGreaterThan(0);
    expect(storedCounts(store)).toMatchObject({ calls: submitted.length, batched: submitted.length });
    expect(storedRun(store, 'r').status).toBe('completed');
  });
});

it('asks again, in a later batch, a line that failed with a server error, and pays for the others once', async () => {
  let failing: string | undefined;
  server = await FakeBatchServer.start({
    format: 'openai',
    fate: (customId, _body, batchIndex) => {
      if (batchIndex === 0) failing ??= customId;
      return batchIndex === 0 && customId === failing ? { status: 500, errorType: 'server_error' } : 'succeeded';
    },
  });
  const store = `${fresh('store')}.db`;
  const args = ['run', '--config', writeBatchConfig('openai', server.url), '--models', 'alpha,beta', '--claims', writeClaims(`${fresh('claims')}.jsonl`, 2)];
  const result = await runCli([...args, '--setting', 'single', '--store', store, '--run', 'r'], { env: { OPENAI_API_KEY: 'sk-test' } });
  expect(result.code, result.stderr).toBe(0);
  const submitted = server.submittedIds();
  expect(submitted.filter((id) => id === failing)).toHaveLength(2);
  expect(submitted.length).toBe(new Set(submitted).size + 1);
  expect(storedCounts(store).calls).toBe(new Set(submitted).size);
});

it('settles a line that failed for good: --resume does not read its batch again, --retry-failed sends it again in a new batch', async () => {
  let failing: string | undefined;
  let refusing = true;
  server = await FakeBatchServer.start({
    format: 'openai',
    fate: (customId, _body, batchIndex) => {
      if (batchIndex === 0) failing ??= customId;
      return refusing && customId === failing ? { status: 400, errorType: 'invalid_request_error' } : 'succeeded';
    },
  });
  const env = { OPENAI_API_KEY: 'sk-test' };
  const store = `${fresh('store')}.db`;
  const args = ['run', '--config', writeBatchConfig('openai', server.url), '--models', 'alpha,beta', '--claims', writeClaims(`${fresh('claims')}.jsonl`, 2)];
  // --max-failures 0: the run stops at the first failed conversation, with others still to do.
  const first = await runCli([...args, '--setting', 'single', '--max-failures', '0', '--store', store, '--run', 'r'], { env });
  expect(first.code, first.stderr).toBe(1);
  expect(storedRun(store, 'r')).toMatchObject({ status: 'failed', stopReason: 'failures' });
  /** GETs of a batch (its state) that carried the failing line, from the fake's request log. */
  const readsOfFailingBatches = (from: number, batches: ReadonlyArray<{ id: string; lines: ReadonlyArray<{ custom_id: string }> }>) => {
    const ids = new Set(batches.filter((batch) => batch.lines.some((line) => line.custom_id === failing)).map((batch) => `/v1/batches/${batch.id}`));
    return server!.requests.slice(from).filter((request) => request.method === 'GET' && ids.has(request.path));
  };

  let before = server.requests.length;
  let earlier = [...server.batches];
  // The refused request may be asked again here (another conversation needs it): refused again, it must not stop the run.
  const resumed = await runCli(['run', '--store', store, '--run', 'r', '--resume', '--max-failures', '100'], { env });
  // The resumed run asked the provider for the rest in new batches, without reading again the batch that refused a line.
  expect(server.batches.length).toBeGreaterThan(earlier.length);
  expect(readsOfFailingBatches(before, earlier)).toEqual([]);
  // It goes through its plan and ends with the refused conversations failed: completed, exit 1.
  expect(resumed.code, resumed.stderr).toBe(1);
  expect(storedRun(store, 'r').status).toBe('completed');

  refusing = false;
  before = server.requests.length;
  earlier = [...server.batches];
  const retried = await runCli(['run', '--store', store, '--run', 'r', '--retry-failed'], { env });
  expect(retried.code, retried.stderr).toBe(0);
  expect(storedRun(store, 'r').status).toBe('completed');
  // The failed request went out again in a new batch; the batches that refused it were not read again.
  expect(server.batches.slice(earlier.length).some((batch) => batch.lines.some((line) => line.custom_id === failing))).toBe(true);
  expect(readsOfFailingBatches(before, earlier)).toEqual([]);
  // Every other request was paid once.
  const others = server.submittedIds().filter((id) => id !== failing);
  expect(new Set(others).size).toBe(others.length);
});

it('stops at Ctrl-C without waiting for a pending batch, keeps it, and the resumed run collects it', async () => {
  server = await FakeBatchServer.start({ format: 'openai' });
  server.hold = true;
  const store = `${fresh('store')}.db`;
  const args = ['run', '--config', writeBatchConfig('openai', server.url), '--models', 'alpha,beta', '--claims', writeClaims(`${fresh('claims')}.jsonl`, 2)];
  const running = spawnCli([...args, '--setting', 'single', '--store', store, '--run', 'r'], { env: { OPENAI_API_KEY: 'sk-test' } });
  await waitFor(() => server!.requests.some((request) => request.method === 'GET') || running.child.exitCode !== null);
  running.child.kill('SIGINT');
  const stopped = await running.done;
  expect(stopped.code, stopped.stderr).toBe(130);
  expect(storedRun(store, 'r')).toMatchObject({ status: 'interrupted', calls: 0 });
  // Calls waiting for a batch are not "in flight, finish and are stored": both messages say they stay at the provider.
  expect(stopped.stderr).toMatch(/SIGINT: stopping: .*; \d+ requests? in \d+ provider batch(es)? stay pending at the provider, for --resume to collect\n/);
  const plural = (amount: number, one: string, many: string) => `${amount} ${amount === 1 ? one : many}`;
  const pendingAtProvider = `${plural(server.submittedIds().length, 'request', 'requests')} in ${plural(server.batches.length, 'provider batch', 'provider batches')}`;
  expect(stopped.stderr).toContain(`${pendingAtProvider} stay pending at the provider: the resumed run collects them, without paying again)`);
  // Nothing was cancelled at the provider: the batches are still there to be collected.
  expect(server.requests.some((request) => request.path.endsWith('/cancel'))).toBe(false);
  server.hold = false;
  const resumed = await runCli(['run', '--store', store, '--run', 'r', '--resume'], { env: { OPENAI_API_KEY: 'sk-test' } });
  expect(resumed.code, resumed.stderr).toBe(0);
  const submitted = server.submittedIds();
  expect(new Set(submitted).size).toBe(submitted.length);
  expect(storedCounts(store).calls).toBe(submitted.length);
});

it('makes exactly the calls a direct run makes: the same requests, each once', async () => {
  const claims = writeClaims(`${fresh('claims')}.jsonl`, 3);
  const direct = await startFakeChatServer();
  let directBodies: string[];
  try {
    const config = writeBatchConfig('openai', direct.url, null);
    const result = await runCli(['run', '--config', config, '--models', 'alpha,beta', '--claims', claims, '--store', `${fresh('store')}.db`], {
      env: { OPENAI_API_KEY: 'sk-test' },
    });
    expect(result.code, result.stderr).toBe(0);
    directBodies = direct.requests.map((request) => JSON.stringify(request.body)).sort();
  } finally {
    await direct.close();
  }
  server = await FakeBatchServer.start({ format: 'openai' });
  const config = writeBatchConfig('openai', server.url);
  const result = await runCli(['run', '--batch', '--config', config, '--models', 'alpha,beta', '--claims', claims, '--store', `${fresh('store')}.db`], {
    env: { OPENAI_API_KEY: 'sk-test' },
  });
  expect(result.code, result.stderr).toBe(0);
  const batchedBodies = server.batches.flatMap((batch) => batch.lines.map((line) => JSON.stringify(line.body))).sort();
  expect(batchedBodies).toEqual(directBodies);
});

describe('pmiyc run --batch, before anything is called', () => {
  it('--dry-run shows the cost at batch prices next to the direct cost, and the expected number of waves', async () => {
    const config = `${fresh('config')}.yaml`;
    writeFileSync(
      config,
      `models:
  mini: { provider: openai, model: gpt-4o-mini, inputUsdPerMillion: 0.15, outputUsdPerMillion: 0.6 }
  haiku: { provider: anthropic, model: claude-3-5-haiku-latest, inputUsdPerMillion: 0.8, outputUsdPerMillion: 4, batchInputUsdPerMillion: 0.4, batchOutputUsdPerMillion: 2 }
`,
    );
    const args = ['run', '--batch', '--dry-run', '--config', config, '--models', 'mini,haiku', '--claims', writeClaims(`${fresh('claims')}.jsonl`, 4)];
    const result = await runCli(args, { env: { OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test' } });
    expect(result.code, result.stderr).toBe(0);
    const direct = /^Total cost: about \$(\d+\.\d+)\.$/m.exec(result.stdout)?.[1];
    const batched = /^Cost at batch prices: about \$(\d+\.\d+) \(direct: about \$(\d+\.\d+)\)\./m.exec(result.stdout);
    expect(batched?.[2]).toBe(direct);
    // Both models at half price here (one configured, one assumed and said so).
    expect(Number(batched?.[1])).toBeCloseTo(Number(direct) / 2, 1);
    expect(result.stdout).toContain('Batch prices assumed half the direct ones for mini');
    expect(result.stdout).toMatch(/^Waves: about 9 \(9 turns in sequence per conversation\)/m);
  });

  it('exits 2 naming each model whose provider cannot batch', async () => {
    const result = await runCli(['run', '--batch', '--models', 'sim/eloquent,sim/stubborn', '--claims', 'examples', '--store', `${fresh('store')}.db`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'sim/eloquent (provider sim), sim/stubborn (provider sim) cannot batch: only openai and anthropic models without providerOptions can',
    );
  });
});
