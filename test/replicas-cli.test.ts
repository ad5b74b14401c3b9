import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from './cli-helpers.js';
import { startFakeChatServer } from './support/fake-chat-server.js';
import type { FakeProviderServer } from './support/fake-provider-server.js';
import { hasScript, runInPseudoTerminal } from './support/pseudo-terminal.js';
import { pathMaker, storedRun, writeChatConfig, writeClaims } from './support/run-fixtures.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-replicas-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const fresh = pathMaker(() => folder);

let servers: FakeProviderServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** `alpha` and `beta` as in writeChatConfig, each served by the replicas at `urls` (fake servers' `url`s), in that order. */
function writeReplicatedConfig(path: string, urls: readonly string[]): string {
  const list = `[${urls.map((url) => `"${url}/v1"`).join(', ')}]`;
  writeFileSync(
    path,
    `models:
  alpha: { provider: openai-compatible, model: alpha-model, baseURL: ${list}, maxRetries: 0 }
  beta: { provider: openai-compatible, model: beta-model, baseURL: ${list}, maxRetries: 0 }
`,
  );
  return path;
}

/**
 * The run's conversations as `pmiyc export` writes them, without the run's name, and without call
 * hashes when `withoutCallHashes` (a hash covers what served the call).
 */
async function exportOf(store: string, run: string, { withoutCallHashes = false } = {}): Promise<unknown[]> {
  const result = await runCli(['export', '--store', store, '--run', run, '--format', 'jsonl']);
  expect(result.code).toBe(0);
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => {
      const { run: _run, ...record } = JSON.parse(line, (key, value) => (withoutCallHashes && key === 'callHash' ? undefined : value)) as Record<
        string,
        unknown
      >;
      return record;
    });
}

describe('a model served by two replicas, one of which dies mid-run', () => {
  it('spreads the calls over both, finishes every conversation on the survivor without a failed call, and replays from one cache in any order', async () => {
    // The second replica serves its first calls, then dies: its server closes and the connections it holds are destroyed.
    const KILLED_AT = 6;
    const survivor = await startFakeChatServer();
    let dying: FakeProviderServer | undefined;
    let killed: Promise<void> | undefined;
    dying = await startFakeChatServer({
      respond: (_request, index) => {
        if (index < KILLED_AT) return undefined;
        killed ??= dying!.close();
        return 'hang';
      },
    });
    servers.push(survivor, dying);
    const dyingURL = dying.url;

    const claims = writeClaims(`${fresh('claims')}.jsonl`, 4);
    const store = `${fresh('store')}.db`;
    const config = writeReplicatedConfig(`${fresh('replicas')}.yaml`, [survivor.url, dyingURL]);
    const argsFor = (inStore: string) => ['run', '--models', 'alpha,beta', '--claims', claims, '--store', inStore, '--concurrency', '4'];
    const args = argsFor(store);
    const result = await runCli([...args, '--config', config, '--run', 'replicated']);

    expect(result.code).toBe(0);
    expect(killed).toBeDefined();
    expect(dying.requests.length).toBeGreaterThanOrEqual(KILLED_AT);
    expect(survivor.requests.length).toBeGreaterThan(0);
    expect(result.stdout).toMatch(/^Run replicated in \S+: completed\.$/m);
    expect(result.stdout).toMatch(/^conversations finished\s+32\s+32 of 32$/m);
    expect(result.stdout).toMatch(/; 0 calls failed\.$/m);
    expect(result.stderr).toMatch(new RegExp(`replica ${dyingURL}/v1 of (alpha|beta) is out for 10\\.0 s, its calls go to the others`));
    const port = (server: FakeProviderServer) => server.url.replace('http://', '');
    const served = (model: string) =>
      result.stdout.match(
        new RegExp(
          `^${model}'s replicas: ${port(survivor)}/v1 served (\\d+).*, ${dyingURL.replace('http://', '')}/v1 served (\\d+).*; (\\d+) calls? failed over\\.$`,
          'm',
        ),
      );
    const alpha = served('alpha');
    const beta = served('beta');
    expect(alpha).not.toBeNull();
    expect(beta).not.toBeNull();
    // Both replicas answered calls; what the dying one answered is what it served before it died.
    const answeredByDying = Number(alpha![2]) + Number(beta![2]);
    expect(answeredByDying).toBe(KILLED_AT);
    expect(Number(alpha![3]) + Number(beta![3])).toBeGreaterThanOrEqual(1);
    // What served the models is recorded as the set of endpoints, sorted: the order of the list does not matter.
    const endpoints = [`${survivor.url}/v1`, `${dyingURL}/v1`].sort().join(', ');
    expect(storedRun(store, 'replicated').config['servedBy']).toEqual({
      alpha: `openai-compatible/alpha-model at ${endpoints}`,
      beta: `openai-compatible/beta-model at ${endpoints}`,
    });

    // The same conversations as against one healthy server: replicas change where calls go, not what they say.
    const single = await startFakeChatServer();
    servers.push(single);
    const singleStore = `${fresh('store')}.db`;
    const alone = await runCli([...argsFor(singleStore), '--config', writeChatConfig(`${fresh('single')}.yaml`, single.url), '--run', 'single']);
    expect(alone.code).toBe(0);
    expect(await exportOf(store, 'replicated', { withoutCallHashes: true })).toEqual(await exportOf(singleStore, 'single', { withoutCallHashes: true }));

    // The replicas listed the other way round are the same model: every call replays, none is made.
    const callsBefore = survivor.requests.length;
    const reordered = writeReplicatedConfig(`${fresh('reordered')}.yaml`, [dyingURL, survivor.url]);
    const replayed = await runCli([...args, '--config', reordered, '--run', 'reordered']);
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toMatch(/^calls made\s+0\s+0$/m);
    expect(replayed.stdout).toMatch(/^replayed from earlier runs\s+\d+ \(replicated: \d+\)\s+\d+ \(replicated: \d+\)$/m);
    expect(survivor.requests).toHaveLength(callsBefore);
    expect(await exportOf(store, 'reordered')).toEqual(await exportOf(store, 'replicated'));

    // Resuming the run with the list reordered is the same model; with a replica more it is not (a new server may serve other weights).
    const resumed = await runCli(['run', '--store', store, '--run', 'replicated', '--resume', '--config', reordered]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const grown = writeReplicatedConfig(`${fresh('grown')}.yaml`, [survivor.url, dyingURL, single.url]);
    const refused = await runCli(['run', '--store', store, '--run', 'replicated', '--resume', '--config', grown]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`pmiyc: run replicated would mix two models: alpha was "openai-compatible/alpha-model at ${endpoints}" and is now`);
  });
});

describe('replicas in the config', () => {
  it('checks each replica of a model on its own with models --check, so a dead one shows', async () => {
    const healthy = await startFakeChatServer();
    const dead = await startFakeChatServer();
    servers.push(healthy);
    const deadURL = dead.url;
    await dead.close();
    const config = `${fresh('check')}.yaml`;
    writeFileSync(config, `models:\n  qwen: { provider: vllm, model: q, baseURL: ["${healthy.url}/v1", "${deadURL}/v1"], replicaConcurrency: 2 }\n`);
    const result = await runCli(['models', '--config', config, '--check']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`qwen   vllm/q  ${healthy.url}/v1, ${deadURL}/v1`);
    expect(result.stdout).toMatch(/2 per replica/);
    expect(result.stdout).toMatch(new RegExp(`^qwen \\(${healthy.url}/v1\\)\\s+reachable\\s`, 'm'));
    expect(result.stdout).toMatch(new RegExp(`^qwen \\(${deadURL}/v1\\)\\s+FAILED \\(api\\)\\s+qwen: cannot reach ${deadURL}/v1/chat/completions`, 'm'));
  });

  it('refuses a list of servers for a model that has none, with exit 2 and what to do', async () => {
    const config = `${fresh('sim')}.yaml`;
    writeFileSync(config, 'models:\n  agent:\n    provider: sim\n    model: eloquent\n    baseURL: [http://127.0.0.1:9/v1, http://127.0.0.1:10/v1]\n');
    const result = await runCli(['run', '--config', config, '--models', 'agent', '--store', `${fresh('store')}.db`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `${config}:5: models.agent.baseURL: a simulated agent runs inside pmiyc and has no server: remove baseURL (a list of replicas is for HTTP servers such as vllm or openai-compatible)`,
    );
  });
});

describe.skipIf(!hasScript)('the live display of a replicated model (in a pseudo-terminal: util-linux script)', () => {
  it('shows each replica under its model: calls in flight and done, failures, and the dead one out', async () => {
    const survivor = await startFakeChatServer();
    let dying: FakeProviderServer | undefined;
    dying = await startFakeChatServer({
      respond: (_request, index) => {
        if (index < 4) return undefined;
        void dying!.close();
        return 'hang';
      },
    });
    servers.push(survivor, dying);
    const survivorAt = survivor.url.replace('http://', '');
    const dyingAt = dying.url.replace('http://', '');
    const config = writeReplicatedConfig(`${fresh('replicas')}.yaml`, [survivor.url, dying.url]);
    const args = [
      'run',
      '--config',
      config,
      '--models',
      'alpha,beta',
      '--claims',
      writeClaims(`${fresh('claims')}.jsonl`, 2),
      '--store',
      `${fresh('store')}.db`,
    ];
    const { code, output, lines } = await runInPseudoTerminal(CLI, args);
    expect(code, output).toBe(0);
    for (const model of ['alpha', 'beta']) {
      const at = lines.findIndex((line) => line.startsWith(`  ${model}: 0 on the wire`));
      expect(at, lines.join('\n')).toBeGreaterThan(0);
      expect(lines[at + 1]).toMatch(new RegExp(`^ {4}${survivorAt}/v1: 0 in flight, [1-9]\\d* done · up$`));
      expect(lines[at + 2]).toMatch(new RegExp(`^ {4}${dyingAt}/v1: 0 in flight, \\d+ done(, [1-9]\\d* failed · out for [\\d.]+ s| · up)$`));
    }
    // The dying replica took at least one call down with it, so at least one model saw it go out.
    expect(lines.filter((line) => new RegExp(`^ {4}${dyingAt}/v1: .* failed · out for `).test(line)).length).toBeGreaterThanOrEqual(1);
  });
});

describe('replicas in the other studies', () => {
  it('says at the end of a consistency study which replica served how many answers', async () => {
    const replicas = await Promise.all([startFakeChatServer(), startFakeChatServer()]);
    servers.push(...replicas);
    const config = writeReplicatedConfig(
      `${fresh('replicas')}.yaml`,
      replicas.map((server) => server.url),
    );
    const claims = writeClaims(`${fresh('claims')}.jsonl`, 3);
    const result = await runCli([
      'consistency',
      '--config',
      config,
      '--models',
      'alpha',
      '--claims',
      claims,
      '--answers',
      '4',
      '--store',
      `${fresh('store')}.db`,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const [first, second] = replicas.map((server) => server.requests.length);
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(0);
    const at = (server: FakeProviderServer) => `${server.url.replace('http://', '')}/v1`;
    expect(result.stdout).toContain(`alpha's replicas: ${at(replicas[0]!)} served ${first}, ${at(replicas[1]!)} served ${second}; 0 calls failed over.`);
  });
});
