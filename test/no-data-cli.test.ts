import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportDocument } from '../src/report/report-document.js';
import { type CliResult, runCli } from './cli-helpers.js';
import { openWatched, viewInChromium } from './support/chromium.js';
import { FakeProviderServer, RESPONSE_SHAPES } from './support/fake-provider-server.js';
import { unreachableUrl } from './support/static-server.js';

let folder: string;
let server: FakeProviderServer;
let store: string;
const runs: Record<'chatty' | 'dead', CliResult> = {} as Record<'chatty' | 'dead', CliResult>;

/** What `report --format html,md,json,csv` wrote for a run. */
function reportOf(run: string) {
  const out = join(folder, `report-${run}`);
  const read = (file: string) => readFileSync(join(out, file), 'utf8');
  return { out, read, json: () => JSON.parse(read('report.json')) as ReportDocument };
}

/** The summary section of report.md, and of index.html. */
const markdownSummary = (markdown: string) => markdown.slice(markdown.indexOf('## Summary'), markdown.indexOf('## Effectiveness'));
const htmlSummary = (page: string) => page.slice(page.indexOf('id="summary"'), page.indexOf('</section>', page.indexOf('id="summary"')));

// The run: `chatty` answers every request but never writes the protocol's tags, beside
// sim/eloquent; and a model whose endpoint has nothing listening, beside two simulated agents.
describe('a model that fails every call keeps its rows, with "no data" and why, and no summary ranks a subset silently', () => {
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-no-data-'));
    server = await FakeProviderServer.start();
    server.answerWith(() => ({ status: 200, body: RESPONSE_SHAPES.openaiChat('Sure! Happy to chat about that, it is a lovely topic.') }));
    const dead = await unreachableUrl();
    const config = join(folder, 'pmiyc.yaml');
    writeFileSync(
      config,
      `models:
  chatty: { provider: openai-compatible, model: chatty-model, baseURL: "${server.url}/v1", maxRetries: 0 }
  dead: { provider: openai-compatible, model: dead-model, baseURL: "${dead}v1", maxRetries: 0 }
`,
    );
    store = join(folder, 'store.db');
    // The dead model's run is started without the check that would refuse it (dead-endpoint-cli.test.ts), so
    // that its conversations fail and are stored, as when an endpoint dies mid-run.
    const run = (name: string, models: string, ...more: string[]) =>
      runCli(['run', '--config', config, '--store', store, '--run', name, '--models', models, '--setting', 'single', '--limit', '3', ...more]);
    runs.chatty = await run('chatty-run', 'chatty,sim/eloquent');
    runs.dead = await run('dead-run', 'dead,sim/eloquent,sim/stubborn', '--no-check-models');
    for (const name of ['chatty-run', 'dead-run']) {
      const written = await runCli(['report', '--store', store, '--run', name, '--format', 'html,md,json,csv', '--out', reportOf(name).out]);
      expect(written.code, written.stderr).toBe(0);
    }
  }, 120_000);
  afterAll(async () => {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('the closing tables keep chatty in both roles with "no data" and why; the closing lines name it and suggest converse, not --retry-failed', () => {
    const { code, stdout, stderr } = runs.chatty;
    expect(code).toBe(1);
    const [effectiveness, susceptibility] = stdout.split('Susceptibility:');
    for (const table of [effectiveness!, susceptibility!]) expect(table).toMatch(/^chatty +no data \(6 of 6 failed: format\)$/m);
    expect(stderr).toContain('pmiyc: 9 conversations failed (format: 9)');
    expect(stderr).toMatch(
      /chatty: 9 conversations failed at its turn \(format: no usable reply in 3 attempts: the reply has neither <message> nor <support_ranking> tags\); it never wrote a usable reply/,
    );
    expect(stderr).toContain('pmiyc converse --config ');
    expect(stderr).toContain(' --persuader chatty --persuadee chatty --claim ');
    expect(stderr).toContain('a prompt variant (docs/design/variants.md) or another model');
    expect(stderr).not.toContain('--retry-failed');
  });

  it('the closing lines of the unreachable model: "no data" and its cause, the model named with a check of its endpoint', () => {
    const { code, stdout, stderr } = runs.dead;
    expect(code).toBe(1);
    const [effectiveness, susceptibility] = stdout.split('Susceptibility:');
    for (const table of [effectiveness!, susceptibility!]) expect(table).toMatch(/^dead +no data \(\d+ of \d+ failed: api\)$/m);
    expect(stderr).toMatch(/dead: \d+ conversations? failed at its turn \(api: dead: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/);
    expect(stderr).toContain('check that it answers with pmiyc models --check --models dead --config ');
  });

  it('report.json and the CSV files: a row per role with value null, n 0 and the reason', () => {
    const report = reportOf('chatty-run');
    const json = report.json();
    for (const list of [json.effectiveness, json.susceptibility, json.absoluteChange.effectiveness, json.absoluteChange.susceptibility]) {
      expect(list.find((entry) => entry.model === 'chatty')).toMatchObject({
        value: null,
        ciLow: null,
        ciHigh: null,
        n: 0,
        failed: 6,
        reason: '6 of 6 failed: format',
      });
      expect(list.find((entry) => entry.model === 'sim/eloquent')).toMatchObject({ n: 3, reason: null });
    }
    expect(json.pairs.find((pair) => pair.persuader === 'sim/eloquent' && pair.persuadee === 'chatty')).toMatchObject({
      n: 0,
      failed: 3,
      reason: '3 of 3 failed: format',
    });
    const models = report.read('models.csv').trim().split('\n');
    const header = models[0]!.split(',');
    const chatty = models.find((line) => line.startsWith('subjective,single,chatty,'))!.split(',');
    const column = (name: string) => chatty[header.indexOf(name)];
    expect([column('effectiveness'), column('effectivenessN'), column('effectivenessReason')]).toEqual(['', '0', '6 of 6 failed: format']);
    expect([column('susceptibility'), column('susceptibilityN'), column('susceptibilityReason')]).toEqual(['', '0', '6 of 6 failed: format']);
    expect(report.read('pairs.csv')).toMatch(/^subjective,single,chatty,chatty,false,false,0,3,.*,3 of 3 failed: format$/m);

    const dead = reportOf('dead-run').json();
    expect(dead.effectiveness.find((entry) => entry.model === 'dead')).toMatchObject({
      value: null,
      n: 0,
      reason: expect.stringMatching(/^\d+ of \d+ failed: api$/),
    });
  });

  it('report.md and index.html: the rows in the tables, and a summary that does not call the only model with data "most" anything', () => {
    const report = reportOf('chatty-run');
    const markdown = report.read('report.md');
    expect(markdown).toContain('| chatty | no data (6 of 6 failed: format) (n = 0) |');
    const summary = markdownSummary(markdown);
    expect(summary).toContain('none to rank; only persuader with data: sim/eloquent \\[simulated\\]');
    expect(summary).toContain('no data: chatty (6 of 6 failed: format)');
    expect(summary).not.toMatch(/\| sim\/eloquent/);
    const page = report.read('index.html');
    expect(page).toContain('no data (6 of 6 failed: format)');
    const card = htmlSummary(page);
    expect(card).toContain('Only persuader with data');
    expect(card).toContain('Only persuadee with data');
    expect(card).toContain('no data: chatty (6 of 6 failed: format)');
    expect(card).not.toMatch(/Most (effective|susceptible|resistant)/);
    // The charts keep chatty: "no data" where its bar would be, and why in the heatmap's cells.
    expect(readFileSync(join(report.out, 'charts', 'effectiveness.svg'), 'utf8')).toContain('no data');
    expect(readFileSync(join(report.out, 'charts', 'nc-matrix-subjective-single.svg'), 'utf8')).toContain('3 of 3 failed: format');
  });

  it('with two models with data, the leaders are named among them, and the model without data beside them', () => {
    const report = reportOf('dead-run');
    const summary = markdownSummary(report.read('report.md'));
    expect(summary).toMatch(/among the models with data: sim\/\w+ \\\[simulated\\\]: .*; no data: dead \(\d+ of \d+ failed: api\)/);
    const card = htmlSummary(report.read('index.html'));
    expect(card).toContain('Most effective persuader among the models with data');
    expect(card).toContain('Most resistant persuadee among the models with data');
    expect(card).toMatch(/no data: dead \(\d+ of \d+ failed: api\)/);
  });

  it("the viewer's run page (Chromium) shows chatty's row with no data and why", async () => {
    const viewer = await viewInChromium(store, join(folder, 'profile'));
    try {
      const { page, problems } = await openWatched(viewer.browser, `${viewer.url}#/runs/chatty-run`);
      const row = page.locator('#view tr', { has: page.locator('td', { hasText: /^chatty$/ }) });
      await row.first().waitFor();
      expect(await row.first().locator('td').allInnerTexts()).toEqual([
        'subjective, single',
        'chatty',
        'no data (6 of 6 failed: format)',
        'no data (6 of 6 failed: format)',
      ]);
      expect(problems).toEqual([]);
    } finally {
      await viewer.close();
    }
  }, 60_000);
});
