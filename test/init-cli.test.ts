import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';
import { startFakeChatServer } from './support/fake-chat-server.js';
import { writeClaims } from './support/run-fixtures.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-init-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('pmiyc init', () => {
  it('writes a starter experiment that pmiyc run runs with no flags in an empty folder', async () => {
    const empty = join(folder, 'empty');
    mkdirSync(empty);
    const init = await runCli(['init'], { cwd: empty });
    expect(init.code).toBe(0);
    expect(readdirSync(empty).sort()).toEqual(['.env.example', 'people-experiment.yaml', 'pmiyc.yaml']);
    expect(readFileSync(join(empty, 'pmiyc.yaml'), 'utf8')).toMatch(/# +provider: anthropic/);

    const run = await runCli(['run'], { cwd: empty });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('sim/eloquent+emotional [simulated]');
    expect(run.stdout).toContain('Run run-1 in ./pmiyc.db');
    expect(readdirSync(empty)).toContain('pmiyc.db');

    const again = await runCli(['init'], { cwd: empty });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('pmiyc.yaml and');
    expect(again.stderr).toContain('already exist: keep them, or add --force to replace');
    expect((await runCli(['init', '--force'], { cwd: empty })).code).toBe(0);
  }, 60_000);

  it('reads keys from .env in the working folder and writes them nowhere', async () => {
    const server = await startFakeChatServer();
    try {
      const here = join(folder, 'with-env');
      mkdirSync(here);
      writeClaims(join(here, 'claims.jsonl'), 2);
      writeFileSync(
        join(here, 'pmiyc.yaml'),
        `models:\n  alpha: { provider: openai-compatible, model: alpha-model, baseURL: "${server.url}/v1", apiKeyEnv: PMIYC_TEST_KEY, maxRetries: 0 }\nexperiment:\n  models: [alpha]\n  claims: { file: claims.jsonl }\n  settings: single\n`,
      );
      writeFileSync(join(here, '.env'), '# a comment\nPMIYC_TEST_KEY="sk-from-dotenv-4711"\n');
      const run = await runCli(['run'], { cwd: here });
      expect(run.code).toBe(0);
      expect(server.requests.length).toBeGreaterThan(0);
      for (const request of server.requests) expect(request.headers.authorization).toBe('Bearer sk-from-dotenv-4711');
      for (const file of readdirSync(here).filter((name) => name.startsWith('pmiyc.db'))) {
        expect(readFileSync(join(here, file)).includes('sk-from-dotenv-4711')).toBe(false);
      }
      // A variable set in the shell wins over .env.
      server.requests.length = 0;
      const shell = await runCli(['run', '--no-cache'], { cwd: here, env: { PMIYC_TEST_KEY: 'sk-from-shell' } });
      expect(shell.code).toBe(0);
      expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-from-shell');
    } finally {
      await server.close();
    }
  });
});
