import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportDocument } from '../src/report/report-document.js';
import { runCli, spawnCli } from './cli-helpers.js';
import { launchChromium, openWatched } from './support/chromium.js';
import { startFakeChatServer } from './support/fake-chat-server.js';
import type { FakeProviderServer } from './support/fake-provider-server.js';
import { writeClaims } from './support/run-fixtures.js';

let folder: string;
let server: FakeProviderServer;
let store: string;

/** Three OpenAI-compatible models on the loopback server, whose replies are a function of the request. */
function writeConfig(path: string): string {
  const model = (name: string) => `  ${name}: { provider: openai-compatible, model: ${name}-model, baseURL: "${server.url}/v1", maxRetries: 0 }`;
  writeFileSync(path, `models:\n${['alpha', 'beta', 'gamma'].map(model).join('\n')}\n`);
  return path;
}

interface ViewComparison {
  models: Array<{ domain: string; setting: string; model: string; role: string; a: number; b: number; difference: number; claims: number; leftOut: unknown }>;
  notCompared: Array<{ model: string; role: string; onlyIn: string | null }>;
}

// The case: alpha, beta and gamma, then alpha and beta asked again (no cache) on the same claims.
// Every cell both runs hold is equal, so every shared model's change must be exactly 0.
describe('pmiyc report --compare and the viewer compare a run with a model fewer over the cells both hold', () => {
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-compare-'));
    server = await startFakeChatServer();
    store = join(folder, 'store.db');
    const config = writeConfig(join(folder, 'pmiyc.yaml'));
    const claims = writeClaims(join(folder, 'claims.jsonl'), 6);
    const run = (name: string, models: string, extra: string[] = [], claimFile = claims) =>
      runCli([
        'run',
        '--config',
        config,
        '--store',
        store,
        '--run',
        name,
        '--models',
        models,
        '--claims',
        claimFile,
        '--setting',
        'multi',
        '--turns',
        '5',
        ...extra,
      ]);
    expect((await run('three', 'alpha,beta,gamma')).code).toBe(0);
    const asked = server.requests.length;
    expect((await run('two', 'alpha,beta', ['--no-cache'])).code).toBe(0);
    // The second run asked the server again rather than replaying the first.
    expect(server.requests.length).toBeGreaterThan(asked);
    const otherClaims = join(folder, 'other-claims.jsonl');
    writeFileSync(otherClaims, ['An unrelated claim', 'Another unrelated claim'].map((claim) => JSON.stringify({ claim })).join('\n'));
    expect((await run('elsewhere', 'alpha,beta', [], otherClaims)).code).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('report --compare: every shared model changes by exactly 0, and gamma is named as left out in report.json, the report and the terminal', async () => {
    const out = join(folder, 'report');
    const result = await runCli(['report', '--store', store, '--compare', 'three,two', '--format', 'json,md,html', '--out', out]);
    expect(result.code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as ReportDocument;
    const runs = report.comparisons.runs!;
    expect(runs.map((entry) => `${entry.measure} ${entry.model}`).sort()).toEqual([
      'effectiveness alpha',
      'effectiveness beta',
      'susceptibility alpha',
      'susceptibility beta',
    ]);
    for (const entry of runs) {
      expect(entry.difference).toBe(0);
      expect(entry.value).toBe(entry.baseline);
      expect(entry).toMatchObject({ claims: 6, cells: 12, pHolm: 1, leftOut: { opponents: [{ model: 'gamma', onlyIn: 'baseline' }], claims: 0, cells: 6 } });
    }
    expect(report.comparisons.runsLeftOut!.models.map((entry) => [entry.model, entry.measure, entry.onlyIn])).toEqual([
      ['gamma', 'effectiveness', 'baseline'],
      ['gamma', 'susceptibility', 'baseline'],
    ]);
    const note = 'models not compared: gamma (only in run three: subjective · multi-turn)';
    expect(report.meta.notes.join('\n')).toContain(note);
    expect(result.stdout).toContain(`left out: ${note}`);
    const markdown = readFileSync(join(out, 'report.md'), 'utf8');
    const section = markdown.slice(markdown.indexOf('### Against the baseline run'));
    expect(section).toContain('Left out: models not compared: gamma (only in the baseline: subjective · multi-turn)');
    expect(section).toMatch(/\| opponent gamma \(baseline only\); 6 cells \|/);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('opponent gamma (baseline only); 6 cells');
  });

  it('report --compare refuses two runs with no (opponent, claim) cell in common: exit 2 and one line saying why', async () => {
    const result = await runCli(['report', '--store', store, '--compare', 'three,elsewhere', '--format', 'json', '--out', join(folder, 'none')]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      'pmiyc: runs three and elsewhere hold no (opponent, claim) cell in common, so no model can be compared: the models both runs have met other opponents or argued other claims in each; compare runs that share pairs and claims (the same claim file and --limit or --sample)',
    ]);
  });

  it("the viewer's compare API and page: every shared model changes by exactly 0, with n, and gamma is not compared", async () => {
    const viewer = spawnCli(['view', '--store', store, '--port', '0', '--no-open']);
    let browser: BrowserContext | undefined;
    try {
      let url = '';
      for (let waited = 0; url === '' && waited < 15_000; waited += 20) {
        url = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(viewer.output().stdout)?.[1] ?? '';
        if (url === '') await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const answer = (await (await fetch(`${url}api/compare?a=three&b=two`)).json()) as ViewComparison;
      expect(answer.models).toHaveLength(4);
      for (const entry of answer.models) {
        expect(entry.difference).toBe(0);
        expect(entry).toMatchObject({ claims: 6, leftOut: { opponents: [{ model: 'gamma', onlyIn: 'a' }] } });
      }
      expect(answer.notCompared.map((entry) => [entry.model, entry.role, entry.onlyIn])).toEqual([
        ['gamma', 'persuader', 'a'],
        ['gamma', 'persuadee', 'a'],
      ]);

      browser = await launchChromium(join(folder, 'profile'), 1300);
      const { page, problems } = await openWatched(browser, `${url}#/compare?a=three&b=two`);
      await page.locator('#view h3', { hasText: 'Per model' }).waitFor();
      const rows = page.locator('#view table').first().locator('tbody tr');
      expect(await rows.count()).toBe(4);
      for (const difference of await rows.locator('td:nth-child(6)').allInnerTexts()) expect(Number(difference)).toBe(0);
      expect(await rows.locator('td:nth-child(9)').allInnerTexts()).toEqual(['6 / 12', '6 / 12', '6 / 12', '6 / 12']);
      expect(await page.locator('#not-compared').innerText()).toContain('gamma as persuader in subjective, multi (only in a)');
      expect(problems).toEqual([]);
    } finally {
      await browser?.close();
      viewer.child.kill('SIGINT');
      await viewer.done;
    }
  }, 60_000);
});
