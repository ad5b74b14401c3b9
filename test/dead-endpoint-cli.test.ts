import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, runCli, spawnCli } from './cli-helpers.js';
import { startFakeChatServer } from './support/fake-chat-server.js';
import { FakeProviderServer, RESPONSE_SHAPES } from './support/fake-provider-server.js';
import { pathMaker, writeClaims } from './support/run-fixtures.js';
import { unreachableUrl } from './support/static-server.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-dead-endpoint-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const fresh = pathMaker(() => folder);

/**
 * Longer than any of these runs needs now, far shorter than one took before (minutes of back-offs): a
 * guard that ends a run that does not stop, so that the test fails on what it printed instead of hanging.
 */
const GUARD_MS = 60_000;

/** Runs the CLI to its end, or kills it at `GUARD_MS` (exit code 137). */
async function runGuarded(args: readonly string[], env?: Record<string, string>): Promise<CliResult> {
  const running = spawnCli(args, env ? { env } : {});
  const guard = setTimeout(() => running.child.kill('SIGKILL'), GUARD_MS);
  try {
    return await running.done;
  } finally {
    clearTimeout(guard);
  }
}

/** A config of OpenAI-compatible models, each `name: baseURL` (with the retries a user has unless told otherwise). */
function writeConfig(models: Record<string, string>, extra = ''): string {
  const path = `${fresh('pmiyc')}.yaml`;
  const lines = Object.entries(models).map(([name, url]) => `  ${name}: { provider: openai-compatible, model: ${name}-model, baseURL: "${url}v1"${extra} }`);
  writeFileSync(path, `models:\n${lines.join('\n')}\n`);
  return path;
}

const pmiycLines = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('pmiyc: '));

describe('a dead endpoint stops at once', () => {
  it('a baseURL with nothing listening: the run is refused before anything is stored, with exit 2 and one line naming the model and why', async () => {
    const dead = await unreachableUrl();
    const config = writeConfig({ dead: dead });
    const store = `${fresh('store')}.db`;
    const result = await runGuarded(['run', '--config', config, '--store', store, '--models', 'dead,sim/eloquent', '--setting', 'single', '--limit', '2']);
    expect(result.code, result.stderr).toBe(2);
    const lines = pmiycLines(result.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^pmiyc: dead: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/models \(.*ECONNREFUSED.*\): start its server, or correct baseURL for dead in the config; nothing was run \(--no-check-models starts without this check\)$/,
    );
    expect(result.stderr).not.toContain('retrying in');
    // Nothing was stored: no run, no conversation.
    const runs = await runCli(['runs', '--store', store]);
    expect(runs.stdout).not.toContain('run-1');
  });

  it('a server that refuses the key: exit 2, the line names the key variable; a live model beside it is not named', async () => {
    const refusing = await FakeProviderServer.start();
    const live = await startFakeChatServer();
    try {
      refusing.listsModels = false;
      refusing.answerWith(() => ({ status: 401, body: RESPONSE_SHAPES.openaiError('Incorrect API key provided', 'invalid_request_error', 'invalid_api_key') }));
      const config = `${fresh('pmiyc')}.yaml`;
      writeFileSync(
        config,
        `models:
  keyed: { provider: openai-compatible, model: keyed-model, baseURL: "${refusing.url}/v1", apiKeyEnv: KEYED_API_KEY }
  alpha: { provider: openai-compatible, model: alpha-model, baseURL: "${live.url}/v1" }
`,
      );
      const store = `${fresh('store')}.db`;
      const result = await runGuarded(['run', '--config', config, '--store', store, '--models', 'keyed,alpha', '--setting', 'single', '--limit', '1'], {
        KEYED_API_KEY: 'sk-test-not-a-real-key',
      });
      expect(result.code, result.stderr).toBe(2);
      expect(pmiycLines(result.stderr)).toEqual([
        'pmiyc: keyed: HTTP 401: Incorrect API key provided: check KEYED_API_KEY (and apiKeyEnv in the config); nothing was run (--no-check-models starts without this check)',
      ]);
      // The check asked each server for its list of models, and made no call.
      expect(refusing.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/models']);
      expect(live.requests).toEqual([]);
    } finally {
      await refusing.close();
      await live.close();
    }
  });

  it('the check is skipped for simulated agents and on a resume that had answers from the model; --no-check-models turns it off', async () => {
    const server = await startFakeChatServer();
    try {
      const config = writeConfig({ alpha: `${server.url}/` });
      const store = `${fresh('store')}.db`;
      const claims = writeClaims(`${fresh('claims')}.jsonl`, 1);
      const base = ['--config', config, '--store', store, '--claims', claims, '--setting', 'single'];
      const listings = () => server.modelListings;
      const first = await runGuarded(['run', ...base, '--models', 'alpha,sim/eloquent', '--run', 'checked']);
      expect(first.code, first.stderr).toBe(0);
      expect(listings()).toBe(1);
      const resumed = await runGuarded(['run', '--store', store, '--run', 'checked', '--resume']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(listings()).toBe(1);
      const unchecked = await runGuarded(['run', ...base, '--models', 'alpha', '--run', 'unchecked', '--no-check-models']);
      expect(unchecked.code, unchecked.stderr).toBe(0);
      expect(listings()).toBe(1);
    } finally {
      await server.close();
    }
  });
});

describe('a model that dies mid-run is stopped', () => {
  it('after 3 calls in a row cannot reach it: one line says so, its remaining conversations are stored failed with the cause, the simulated ones finish', async () => {
    let closing: Promise<void> | undefined;
    // The server answers two calls, then goes away: every later call is refused.
    const server: FakeProviderServer = await startFakeChatServer({
      respond: (_request, index) => {
        if (index === 1) setTimeout(() => (closing = server.close()), 50);
        return undefined;
      },
    });
    try {
      const config = writeConfig({ alpha: `${server.url}/` });
      const store = `${fresh('store')}.db`;
      const claims = writeClaims(`${fresh('claims')}.jsonl`, 6);
      const result = await runGuarded([
        'run',
        '--config',
        config,
        '--store',
        store,
        '--claims',
        claims,
        '--models',
        'alpha,sim/eloquent',
        '--setting',
        'single',
        '--concurrency',
        '1',
        '--no-check-models',
      ]);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).not.toContain('retrying in');
      const stopped = pmiycLines(result.stderr).filter((line) => line.includes('stopped after'));
      expect(stopped).toHaveLength(1);
      expect(stopped[0]).toMatch(
        /^pmiyc: alpha: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions \(.*ECONNREFUSED.*\); alpha stopped after 3 calls in a row failed so: its remaining conversations fail with this cause, the other models go on$/,
      );
      const exported = await runCli(['export', '--store', store, '--format', 'jsonl']);
      const records = exported.stdout
        .trim()
        .split('\n')
        .map(
          (line) => JSON.parse(line) as { persuader: string; persuadee: string; status: string; failureReason: string | null; failureDetail: string | null },
        );
      expect(records).toHaveLength(24);
      const simOnly = records.filter((record) => record.persuader === 'sim/eloquent' && record.persuadee === 'sim/eloquent');
      expect(simOnly.map((record) => record.status)).toEqual(Array(6).fill('completed'));
      const failed = records.filter((record) => record.status === 'failed');
      expect(failed.length).toBeGreaterThan(0);
      for (const record of failed) {
        expect(record.failureReason).toBe('api');
        expect(record.failureDetail).toMatch(/alpha: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/);
      }
      // The conversations not yet under way when it stopped were not asked: failed at once with the cause.
      expect(failed.filter((record) => record.failureDetail?.includes('not asked: alpha was stopped after 3 calls in a row failed so')).length).toBeGreaterThan(
        0,
      );
    } finally {
      await (closing ?? server.close());
    }
  });

  it('a run whose only model stops answering could do nothing: exit 2, its conversations stored failed for --retry-failed', async () => {
    const dead = await unreachableUrl();
    const config = writeConfig({ dead });
    const store = `${fresh('store')}.db`;
    const result = await runGuarded([
      'run',
      '--config',
      config,
      '--store',
      store,
      '--models',
      'dead',
      '--setting',
      'single',
      '--limit',
      '2',
      '--no-check-models',
    ]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).not.toContain('retrying in');
    expect(pmiycLines(result.stderr).filter((line) => line.includes('dead stopped after 3 calls in a row failed so'))).toHaveLength(1);
    const runs = await runCli(['runs', '--store', store]);
    expect(runs.stdout).toMatch(/run-1 .*completed \(2 failed\)/);
  });
});
