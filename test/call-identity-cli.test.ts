import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from './cli-helpers.js';
import { isFirstArgument, isOpening, startFakeChatServer } from './support/fake-chat-server.js';
import { type FakeProviderServer, RESPONSE_SHAPES } from './support/fake-provider-server.js';
import { pathMaker, storedRun, writeChatConfig, writeClaims } from './support/run-fixtures.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-identity-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const fresh = pathMaker(() => folder);

/** `pmiyc runs` as rows by run name: every column after the name. */
async function runsTable(store: string): Promise<Map<string, string>> {
  const result = await runCli(['runs', '--store', store]);
  expect(result.code).toBe(0);
  return new Map(
    result.stdout
      .trim()
      .split('\n')
      .slice(2)
      .map((line) => [line.split(/\s+/)[0]!, line] as const),
  );
}

describe('what serves a model is part of every call', () => {
  let first: FakeProviderServer;
  let second: FakeProviderServer;
  beforeAll(async () => {
    [first, second] = await Promise.all([startFakeChatServer(), startFakeChatServer()]);
  });
  afterAll(() => Promise.all([first.close(), second.close()]));

  it('asks the same model names again at another server, and replays across servers only when a revision says they serve the same weights', async () => {
    const store = `${fresh('store')}.db`;
    const claims = writeClaims(`${fresh('claims')}.jsonl`, 2);
    const run = (config: string, name: string) =>
      runCli(['run', '--config', config, '--models', 'alpha,beta', '--claims', claims, '--setting', 'single', '--store', store, '--run', name]);

    expect((await run(writeChatConfig(`${fresh('a')}.yaml`, first.url), 'at-first')).code).toBe(0);
    const made = first.requests.length;
    expect(made).toBeGreaterThan(0);
    const moved = await run(writeChatConfig(`${fresh('b')}.yaml`, second.url), 'at-second');
    expect(moved.code).toBe(0);
    expect(second.requests).toHaveLength(made);
    expect(moved.stdout).toMatch(/^replayed from earlier runs\s+0\s+0$/m);
    const servedBy = storedRun(store, 'at-second').config['servedBy'] as Record<string, string>;
    expect(servedBy['alpha']).toBe(`openai-compatible/alpha-model at ${second.url}/v1`);

    first.requests.length = 0;
    second.requests.length = 0;
    expect((await run(writeChatConfig(`${fresh('c')}.yaml`, first.url, ', revision: ckpt-7'), 'revision-first')).code).toBe(0);
    const replayedRun = await run(writeChatConfig(`${fresh('d')}.yaml`, second.url, ', revision: ckpt-7'), 'revision-second');
    expect(replayedRun.code).toBe(0);
    expect(second.requests).toHaveLength(0);
    expect(replayedRun.stdout).toMatch(/^calls made\s+0\s+0$/m);
    expect(replayedRun.stdout).toMatch(
      new RegExp(`^replayed from earlier runs\\s+${made} \\(revision-first: ${made}\\)\\s+${made} \\(revision-first: ${made}\\)$`, 'm'),
    );
    expect((await runsTable(store)).get('revision-second')).toMatch(new RegExp(`\\s0\\s+${made} \\(revision-first: ${made}\\)\\s+\\$0\\.0000$`));
  });

  it('refuses to resume a run whose model is now served by something else', async () => {
    const store = `${fresh('store')}.db`;
    const claims = writeClaims(`${fresh('claims')}.jsonl`, 4);
    const config = writeChatConfig(`${fresh('a')}.yaml`, first.url);
    const slow = await startFakeChatServer({ delayMs: 30 });
    try {
      const started = spawnCli([
        'run',
        '--config',
        writeChatConfig(`${fresh('slow')}.yaml`, slow.url),
        '--models',
        'alpha,beta',
        '--claims',
        claims,
        '--store',
        store,
        '--run',
        'r',
      ]);
      while (slow.requests.length < 10) await new Promise((resolve) => setTimeout(resolve, 10));
      started.child.kill('SIGINT');
      expect((await started.done).code).toBe(130);
    } finally {
      await slow.close();
    }
    const resumed = await runCli(['run', '--store', store, '--run', 'r', '--resume', '--config', config]);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(
      /^pmiyc: run r would mix two models: alpha was "openai-compatible\/alpha-model at http:\/\/127\.0\.0\.1:\d+\/v1" and is now "openai-compatible\/alpha-model at http:\/\/127\.0\.0\.1:\d+\/v1"/,
    );
    expect(resumed.stderr).toContain('set `revision:` for it in the config if both serve the same weights');
  });
});

describe('--no-cache', () => {
  it('reuses nothing from earlier runs, still makes each opening and first argument once, and never changes an earlier run', async () => {
    const server = await startFakeChatServer();
    try {
      const store = `${fresh('store')}.db`;
      const claims = writeClaims(`${fresh('claims')}.jsonl`, 3);
      const config = writeChatConfig(`${fresh('c')}.yaml`, server.url, ', inputUsdPerMillion: 1, outputUsdPerMillion: 2');
      const args = ['run', '--config', config, '--models', 'alpha,beta', '--claims', claims, '--store', store];
      expect((await runCli([...args, '--run', 'first'])).code).toBe(0);
      const made = server.requests.length;
      const before = (await runsTable(store)).get('first');

      server.requests.length = 0;
      const again = await runCli([...args, '--run', 'again', '--no-cache']);
      expect(again.code).toBe(0);
      expect(server.requests).toHaveLength(made);
      expect(server.requests.filter(isOpening)).toHaveLength(2 * 3);
      expect(server.requests.filter(isFirstArgument)).toHaveLength(4 * 3);
      expect(again.stdout).toContain('--no-cache: this run reuses nothing from earlier runs.');
      expect(again.stdout).toMatch(/^replayed from earlier runs\s+0\s+0$/m);
      const after = await runsTable(store);
      expect(after.get('first')).toBe(before);
      // calls made, their input tokens, replayed, cost
      expect(after.get('again')).toMatch(new RegExp(`\\s${made}\\s+[\\d,]+\\s+0\\s+\\$`));
      expect((storedRun(store, 'again').config['settings'] as { cache: boolean }).cache).toBe(false);
    } finally {
      await server.close();
    }
  });
});

describe('refused credentials, missing keys and long Retry-After', () => {
  it('stops the calls of a model whose key is refused at once, stores nothing as failed, exits 1, and resumes once the key works', async () => {
    let refusing = true;
    const server = await startFakeChatServer({
      respond: () =>
        refusing ? { status: 401, body: RESPONSE_SHAPES.openaiError('Incorrect API key provided', 'invalid_request_error', 'invalid_api_key') } : undefined,
    });
    try {
      const store = `${fresh('store')}.db`;
      const config = writeChatConfig(`${fresh('c')}.yaml`, server.url, ', apiKeyEnv: GPU_BOX_KEY');
      const args = [
        'run',
        '--config',
        config,
        '--models',
        'alpha,beta',
        '--claims',
        writeClaims(`${fresh('claims')}.jsonl`, 10),
        '--store',
        store,
        '--run',
        'keys',
      ];
      const refused = await runCli([...args, '--concurrency', '4'], { env: { GPU_BOX_KEY: 'wrong' } });
      expect(refused.code).toBe(1);
      // At most the calls on the wire when each model's first refusal came back (4 each), and a call admitted
      // before a block that had not yet gone out (seen once in three runs under load; docs/design/run-ownership.md).
      expect(server.requests.length).toBeLessThanOrEqual(12);
      for (const model of ['alpha', 'beta']) {
        const lines = refused.stderr.split('\n').filter((line) => line.includes(`no more calls to ${model} in this run`));
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain('HTTP 401: Incorrect API key provided: check GPU_BOX_KEY');
      }
      expect(refused.stderr).toContain(
        'pmiyc: stopped the calls of alpha, beta: the server refused the credentials; their conversations are not stored as failed.',
      );
      expect(storedRun(store, 'keys')).toMatchObject({ status: 'interrupted', stopReason: 'auth' });
      expect((await runsTable(store)).get('keys')).toMatch(/interrupted \(auth\)\s.*\s0\/80\s+0\s/);

      refusing = false;
      const resumed = await runCli(['run', '--store', store, '--run', 'keys', '--resume'], { env: { GPU_BOX_KEY: 'right' } });
      expect(resumed.code).toBe(0);
      expect((await runsTable(store)).get('keys')).toMatch(/completed\s.*\s80\/80\s+0\s/);
    } finally {
      await server.close();
    }
  });

  it('exits 2 before any call when a variable named in the config is not set, even for a server that needs no key', async () => {
    const config = writeChatConfig(`${fresh('c')}.yaml`, 'http://127.0.0.1:9', ', apiKeyEnv: GPU_BOX_KEY');
    const store = `${fresh('store')}.db`;
    const result = await runCli(['run', '--config', config, '--models', 'alpha', '--store', store], { env: { GPU_BOX_KEY: '' } });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('pmiyc: GPU_BOX_KEY is not set: export it, or set apiKeyEnv for alpha in the config');
  });

  it('fails a call whose Retry-After is over the cap instead of waiting an hour; under the cap, the first Ctrl-C ends the wait', async () => {
    const limited = {
      status: 429,
      body: RESPONSE_SHAPES.openaiError('Rate limit reached', 'requests', 'rate_limit_exceeded'),
      headers: { 'retry-after': '3600' },
    };
    const server = await startFakeChatServer({ respond: () => limited });
    try {
      const claims = writeClaims(`${fresh('claims')}.jsonl`, 1);
      const capped = await runCli([
        'run',
        '--config',
        writeChatConfig(`${fresh('c')}.yaml`, server.url, ', maxRetries: 3'),
        '--models',
        'alpha',
        '--claims',
        claims,
        '--setting',
        'single',
        '--store',
        `${fresh('store')}.db`,
      ]);
      expect(capped.code).toBe(1);
      expect(capped.stderr).toContain('pmiyc: 1 conversations failed (api: 1)');
      expect(capped.stderr).not.toContain('retrying');
      // The run went through its plan: completed, its failed conversation counted (exit 1 all the same).
      expect(storedRun(capped.stdout.match(/Run \S+ in (\S+):/)![1]!, 'run-1').status).toBe('completed');
      expect(capped.stdout).toMatch(/^Run run-1 in \S+: completed \(1 failed\)\.$/m);

      server.requests.length = 0;
      const waiting = spawnCli(
        [
          'run',
          '--config',
          writeChatConfig(`${fresh('c')}.yaml`, server.url, ', maxRetries: 3, maxRetryAfterMs: 7200000'),
          '--models',
          'alpha',
          '--claims',
          claims,
          '--setting',
          'single',
          '--store',
          `${fresh('store')}.db`,
        ],
        { env: { PMIYC_PROGRESS_INTERVAL_MS: '20' } },
      );
      // The progress line counts the retry, waiting out its hour-long Retry-After.
      while (!waiting.output().stderr.includes('alpha 1 retry, ')) await new Promise((resolve) => setTimeout(resolve, 10));
      waiting.child.kill('SIGINT');
      const stopped = await waiting.done;
      expect(stopped.code).toBe(130);
      expect(stopped.stderr).toContain('stopped by SIGINT; everything finished so far is stored. Resume with:');
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
