import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from './cli-helpers.js';
import { startFakeChatServer } from './support/fake-chat-server.js';
import type { FakeProviderServer, RecordedRequest } from './support/fake-provider-server.js';
import { writeClaims } from './support/run-fixtures.js';

let folder: string;
let server: FakeProviderServer;

/** The experiment of the issue: two models, each persuading with pmiyc's prompts and with a variant, all in the config. */
function writeExperiment(path: string, marker: string, claims: string): void {
  writeFileSync(
    path,
    `models:
  alpha: { provider: openai-compatible, model: alpha-model, baseURL: "${server.url}/v1", maxRetries: 0 }
  beta: { provider: openai-compatible, model: beta-model, baseURL: "${server.url}/v1", maxRetries: 0 }
variants:
  emotional:
    persuader:
      system: |
        ${marker}: win the other side over to {{subject}} with feelings, not figures.
        Claim: "{{claim}}"
        {{format}}
experiment:
  models: [alpha, beta]
  persuaderVariants: [default, emotional]
  claims: { file: ${claims} }
  settings: single
  concurrency: 4
`,
  );
}

const systemPrompt = (request: RecordedRequest) =>
  ((request.body['messages'] as Array<{ role: string; content: string }>).find((message) => message.role === 'system')?.content ?? '') as string;

async function waitFor(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('prompt variants from the config, against a loopback server', () => {
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-variants-'));
    server = await startFakeChatServer({ delayMs: 5 });
  });
  afterAll(async () => {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('runs, resumes after kill -9 and reports each (model, variant); an edited template makes new calls', async () => {
    const claims = writeClaims(join(folder, 'claims.jsonl'), 6);
    const config = join(folder, 'pmiyc.yaml');
    writeExperiment(config, 'EMOTIONAL-ONE', claims);
    const store = join(folder, 'store.db');

    // No flag but --store: the experiment comes from pmiyc.yaml in the working folder.
    const running = spawnCli(['run', '--store', store, '--run', 'first'], { cwd: folder });
    await waitFor(() => server.requests.length >= 25);
    running.child.kill('SIGKILL');
    expect((await running.done).code).toBe(137);
    const resumed = await runCli(['run', '--store', store, '--resume'], { cwd: folder });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('alpha+emotional');

    const persuaderPrompts = server.requests.map(systemPrompt).filter((prompt) => prompt.includes('PERSUADER'));
    const withVariant = persuaderPrompts.filter((prompt) => prompt.includes('EMOTIONAL-ONE'));
    expect(withVariant.length).toBeGreaterThan(0);
    expect(withVariant.length).toBeLessThan(persuaderPrompts.length);
    expect(withVariant[0]).toContain('Claim: "Test claim number');
    expect(withVariant[0]).toContain('<support_ranking>');

    const exported = (await runCli(['export', '--store', store, '--run', 'first', '--format', 'jsonl'])).stdout.trim().split('\n');
    const persuaders = new Set(exported.map((line) => (JSON.parse(line) as { persuader: string }).persuader));
    expect([...persuaders].sort()).toEqual(['alpha', 'alpha+emotional', 'beta', 'beta+emotional']);
    expect(exported).toHaveLength(4 * 2 * 6);

    const out = join(folder, 'report');
    expect((await runCli(['report', '--store', store, '--run', 'first', '--out', out, '--format', 'json'])).code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
      effectiveness: Array<{ model: string; value: number; ciLow: number | null; ciHigh: number | null; claims: number }>;
    };
    const rated = report.effectiveness.map((entry) => entry.model).sort();
    expect(rated).toEqual(['alpha', 'alpha+emotional', 'beta', 'beta+emotional']);
    for (const entry of report.effectiveness) {
      expect(entry.claims).toBe(6);
      expect(entry.ciLow).not.toBeNull();
      expect(entry.ciLow!).toBeLessThanOrEqual(entry.ciHigh!);
    }

    // Editing the template: a resume refuses it, a new run asks the models again with the new text.
    writeExperiment(config, 'EMOTIONAL-TWO', claims);
    const refused = await runCli(['run', '--store', store, '--run', 'first', '--resume'], { cwd: folder });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('prompt variant emotional differs from the one run first started with');
    const before = server.requests.length;
    expect((await runCli(['run', '--store', store, '--run', 'second'], { cwd: folder })).code).toBe(0);
    const fresh = server.requests.slice(before).map(systemPrompt);
    expect(fresh.some((prompt) => prompt.includes('EMOTIONAL-TWO'))).toBe(true);
    // Only the edited variant's arguments are asked again: pmiyc's own persuader prompts and the openings are replayed.
    const freshPersuaders = fresh.filter((prompt) => prompt.includes('PERSUADER'));
    expect(freshPersuaders.length).toBeGreaterThan(0);
    expect(freshPersuaders.every((prompt) => prompt.includes('EMOTIONAL-TWO'))).toBe(true);
  }, 120_000);

  it("keeps a variant's APE template out of a tournament: not stored with its design, and editing it does not refuse a resume", async () => {
    const config = join(folder, 'both.yaml');
    const withApeTemplate = (aim: string) =>
      `variants:\n  both:\n    persuader:\n      system: "BOTH: argue for {{claim}}. {{format}}"\n    protocols:\n      ape:\n        persuader:\n          system: "${aim} {{direction}}."\n`;
    writeFileSync(config, withApeTemplate('Get the person to'));
    const store = join(folder, 'both.db');
    const args = ['run', '--config', config, '--models', 'sim/a,sim/a+both', '--setting', 'single', '--limit', '2', '--store', store, '--run', 'both'];
    const first = await runCli(args);
    expect(first.code, first.stderr).toBe(0);
    const database = new Database(store, { readonly: true });
    const stored = database.prepare("SELECT config FROM runs WHERE name = 'both'").pluck().get() as string;
    database.close();
    expect(stored).toContain('BOTH: argue for');
    expect(stored).not.toContain('Get the person to');
    writeFileSync(config, withApeTemplate('Lead the person to'));
    const resumed = await runCli(['run', '--config', config, '--store', store, '--run', 'both', '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
  }, 60_000);

  it('says where a template is wrong: file, line and key', async () => {
    const config = join(folder, 'bad.yaml');
    writeFileSync(config, 'variants:\n  terse:\n    persuader:\n      system: "Argue for {{claim}} in {{style}}. {{format}}"\n');
    const result = await runCli(['run', '--config', config, '--models', 'sim/a', '--store', join(folder, 'bad.db')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${config}:4: variants.terse.persuader.system: unknown field {{style}}`);
  });

  it('refuses a "+" that names no defined variant, whatever the provider, and still runs a correct one', async () => {
    const config = join(folder, 'typo.yaml');
    writeFileSync(
      config,
      `models:
  alpha: { provider: openai-compatible, model: alpha-model, baseURL: "${server.url}/v1" }
variants:
  emotional:
    persuader: { system: "Feel it: {{claim}} {{format}}" }
  terse:
    persuader: { system: "Briefly: {{claim}} {{format}}" }
`,
    );
    // Keys, so that nothing else stops these names, and the loopback server, so that nothing could reach the network.
    const env = { OPENAI_API_KEY: 'test-key', ANTHROPIC_API_KEY: 'test-key', OPENAI_BASE_URL: `${server.url}/v1`, ANTHROPIC_BASE_URL: `${server.url}/v1` };
    const typos = [
      'openai/gpt-4o-mini+emotionl',
      'anthropic/claude-3-5-haiku-latest+emotionl',
      'alpha+emotionl',
      'sim/eloquent+emotionl',
      'llama/model.gguf+emotionl',
    ];
    const requestsBefore = server.requests.length;
    for (const [index, name] of typos.entries()) {
      const store = join(folder, `typo-${index}.db`);
      // Crossed with the config's variants, the typo used to be planned as `...+emotionl+emotional`.
      const result = await runCli(
        [
          'run',
          '--config',
          config,
          '--models',
          `${name},sim/stubborn`,
          '--persuader-variants',
          'default,emotional',
          '--claims',
          'examples',
          '--limit',
          '1',
          '--store',
          store,
        ],
        { env },
      );
      expect(result.code, name).toBe(2);
      expect(result.stderr).toContain(`${name}: "emotionl" after the "+" is not a prompt variant (the defined variants are emotional, terse)`);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(existsSync(store)).toBe(false);
    }
    expect(server.requests.length).toBe(requestsBefore);
    // No config at all (an empty folder: no ./pmiyc.yaml to pick up).
    const empty = mkdtempSync(join(folder, 'empty-'));
    const none = await runCli(['run', '--models', 'sim/eloquent+emotional', '--store', join(empty, 'none.db'), '--dry-run'], { cwd: empty });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('(no variants are defined: define one under variants: in the config)');
    const converse = await runCli([
      'converse',
      '--config',
      config,
      '--persuader',
      'sim/eloquent+emotionl',
      '--persuadee',
      'sim/stubborn',
      '--claim',
      'Tea beats coffee',
    ]);
    expect(converse.code).toBe(2);
    expect(converse.stderr).toContain('the defined variants are emotional, terse');

    const correct = await runCli([
      'run',
      '--config',
      config,
      '--models',
      'sim/eloquent+emotional,sim/stubborn',
      '--claims',
      'examples',
      '--limit',
      '1',
      '--setting',
      'single',
      '--store',
      join(folder, 'correct.db'),
    ]);
    expect(correct.code, correct.stderr).toBe(0);
    expect(correct.stdout).toContain('sim/eloquent+emotional');
  });
});
