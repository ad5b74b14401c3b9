import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';
import { FakeProviderServer, RESPONSE_SHAPES } from './support/fake-provider-server.js';
import { describeWithTestData } from './support/test-data.js';

/** The real GGUF model, by a path relative to the folder the command runs in. */
const TINY_MODEL = 'llama/stories260K.gguf';

let folder: string;
let server: FakeProviderServer;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-providers-'));
  server = await FakeProviderServer.start();
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

function writeConfig(text: string): string {
  const path = join(folder, `config-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, text);
  return path;
}

describe('real providers from the command line', () => {
  it('exits 2 naming OPENAI_API_KEY when it is not set', async () => {
    const result = await runCli(['converse', '--persuader', 'openai/gpt-4o-mini', '--persuadee', 'sim/b', '--claim', 'x'], { env: { OPENAI_API_KEY: '' } });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('pmiyc: OPENAI_API_KEY is not set: export it, or set apiKeyEnv for openai/gpt-4o-mini in the config');
  });

  it('converses over HTTP through a config alias, retrying a 429 and pricing every call', async () => {
    let call = 0;
    server.answerWith(() => {
      call += 1;
      if (call === 1)
        return { status: 429, headers: { 'retry-after-ms': '20' }, body: RESPONSE_SHAPES.openaiError('Rate limit reached', 'requests', 'rate_limit_exceeded') };
      return { status: 200, body: RESPONSE_SHAPES.openaiChat(`<message>Reply ${call}.</message>\n<support_ranking>Oppose</support_ranking>`) };
    });
    const config = writeConfig(`models:
  local:
    provider: openai-compatible
    model: test-model
    baseURL: ${server.url}/v1
    inputUsdPerMillion: 1
    outputUsdPerMillion: 2
`);
    const result = await runCli(['converse', '--config', config, '--persuader', 'local', '--persuadee', 'local', '--claim', 'x', '--turns', '3', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^local: HTTP 429: Rate limit reached; retrying in \d+ ms$/m);
    const record = JSON.parse(result.stdout) as { persuader: string; status: string; turns: Array<{ attempts: Array<{ costUsd?: number; usage?: unknown }> }> };
    expect(record).toMatchObject({ persuader: 'local', status: 'completed' });
    for (const turn of record.turns) expect(turn.attempts.at(-1)?.costUsd).toBeCloseTo((1117 * 1 + 46 * 2) / 1e6, 12);
    expect(server.requests).toHaveLength(4);
    expect(server.requests[0]!.headers['authorization']).toBeUndefined();
  });

  it('shows which configured models are reachable with models --check', async () => {
    server.answerWith((request) =>
      request.headers['authorization'] === 'Bearer good'
        ? { status: 200, body: RESPONSE_SHAPES.openaiChat('OK') }
        : { status: 401, body: RESPONSE_SHAPES.openaiError('Incorrect API key provided', 'invalid_request_error', 'invalid_api_key') },
    );
    const config = writeConfig(`models:
  good: { provider: openai, model: m, baseURL: "${server.url}/v1", apiKeyEnv: GOOD_KEY }
  bad: { provider: openai, model: m, baseURL: "${server.url}/v1", apiKeyEnv: BAD_KEY }
`);
    const result = await runCli(['models', '--config', config, '--check'], { env: { GOOD_KEY: 'good', BAD_KEY: 'bad' } });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^good\s+openai\/m\s+http:\/\/127\.0\.0\.1:\d+\/v1\s+GOOD_KEY \(set\)/m);
    expect(result.stdout).toMatch(/^good\s+reachable\s+\d+ ms, 46 tokens$/m);
    expect(result.stdout).toMatch(/^bad\s+FAILED \(api\)\s+bad: HTTP 401: Incorrect API key provided: check BAD_KEY/m);
    expect(result.stdout).not.toContain('Bearer');
  });

  it('rejects a bad config with the file, line and key', async () => {
    const config = writeConfig('models:\n  alpha:\n    provider: openai\n    model: x\n    temprature: 0.2\n');
    const result = await runCli(['converse', '--config', config, '--persuader', 'alpha', '--persuadee', 'sim/b', '--claim', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${config}:5: models.alpha: unknown key "temprature" (did you mean temperature?); allowed: provider, model,`);
  });

  it('names every problem of a config with its line, a key in the wrong case with the one it meant', async () => {
    const config = writeConfig('models:\n  local:\n    provider: vllm\n    model: x\n    baseUrl: http://127.0.0.1:8000/v1\n    temperature: hot\n');
    const result = await runCli(['run', '--config', config, '--models', 'local', '--limit', '1']);
    expect(result.code).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^pmiyc: ${config.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5: models\\.local: unknown key "baseUrl" \\(did you mean baseURL\\?\\); allowed: `,
        ),
      ),
      expect.stringMatching(/:6: models\.local\.temperature: /),
    ]);
  });
});

describeWithTestData('an in-process GGUF model from the command line', (testData) => {
  it('runs a conversation between two in-process GGUF models with valid scores', async () => {
    const result = await runCli(
      ['converse', '--persuader', TINY_MODEL, '--persuadee', TINY_MODEL, '--claim', 'Cats are better than dogs', '--turns', '3', '--json'],
      { cwd: testData.models },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const record = JSON.parse(result.stdout) as {
      status: string;
      simulated: unknown;
      turns: Array<{ score: number; attempts: Array<{ usage?: { outputTokens?: number } }> }>;
    };
    expect(record.status).toBe('completed');
    expect(record.simulated).toEqual({ persuader: false, persuadee: false });
    expect(record.turns).toHaveLength(3);
    for (const turn of record.turns) {
      expect(turn.score).toBeGreaterThanOrEqual(1);
      expect(turn.score).toBeLessThanOrEqual(5);
      expect(turn.attempts.at(-1)?.usage?.outputTokens).toBeGreaterThan(0);
    }
  });
});
