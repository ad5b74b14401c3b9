import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportDocument } from '../src/report/report-document.js';
import { ResultStore } from '../src/store/result-store.js';
import { conversationFile } from '../src/web/wire/bundle-files.js';
import { runCli } from './cli-helpers.js';
import { addAnalysisStudy } from './support/analysis-study.js';
import { launchChromium, openWatched, type WatchedPage } from './support/chromium.js';
import { cliInProcess, servedUrl } from './support/cli-in-process.js';
import { HOSTILE, hostileRecords } from './support/hostile-records.js';

let folder: string;
let storePath: string;
let bundle: string;
let hostileBundle: string;
let browser: BrowserContext;
let liveUrl: string;
const stop = new AbortController();
let served: Promise<number> | undefined;

const bundleUrl = (root: string, hash = '') => `${pathToFileURL(join(root, 'index.html')).href}${hash}`;

async function open(url: string): Promise<WatchedPage> {
  const watched = await openWatched(browser, url);
  await watched.page.locator('#view table, #view h2').first().waitFor();
  return watched;
}

/** Requests that left the bundle's folder (a remote asset, or the API of a server). */
const outside = (watched: WatchedPage, root: string) => watched.requests.filter((request) => !request.startsWith(pathToFileURL(root).href));

describe('pmiyc view --bundle: a static bundle opened from disk in headless Chromium', () => {
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-view-bundle-'));
    storePath = join(folder, 'bundle.db');
    expect((await runCli(['demo', '--store', storePath], { cwd: folder })).code).toBe(0);
    const store = ResultStore.openExisting(storePath);
    const run = store.createRun({ name: 'hostile', seed: 1, packageVersion: 'test', config: { command: 'run', design: { persuaders: [], persuadees: [] } } });
    for (const record of hostileRecords()) store.saveConversation(run.id, { ...record, run: 'hostile' });
    store.setRunStatus(run.id, 'completed');
    addAnalysisStudy(store, {
      name: 'hostile-analysis',
      tournamentRun: 'hostile',
      judges: [`sim/judge${HOSTILE.image}`],
      labelsOf: (_record, turn) =>
        turn.role === 'persuader'
          ? { role: 'persuader', techniques: ['logos'], unethical: [], refused: false, leftRole: false }
          : { role: 'persuadee', leftRole: false },
    });
    store.close();
    bundle = join(folder, 'demo-bundle');
    const made = await runCli(['view', '--store', storePath, '--bundle', bundle, '--run', 'demo-1'], { cwd: folder });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('Bundled run demo-1: 576 conversations');
    hostileBundle = join(folder, 'hostile-bundle');
    const hostile = await runCli(['view', '--store', storePath, '--bundle', hostileBundle, '--run', 'hostile'], { cwd: folder });
    expect(hostile.code, hostile.stderr).toBe(0);
    const { done, output } = cliInProcess(['view', '--store', storePath, '--port', '0', '--no-open'], stop.signal);
    served = done;
    liveUrl = await servedUrl(output);
    browser = await launchChromium(join(folder, 'profile'), 1300);
  }, 240_000);
  afterAll(async () => {
    stop.abort();
    expect(await served).toBe(0);
    await browser?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('goes from the runs to a pair cell, a conversation and a deep link to one of its turns, all from disk, with no console error', async () => {
    const watched = await open(bundleUrl(bundle));
    const { page, problems } = watched;
    expect(await page.locator('#bundle-label').innerText()).toMatch(/Run demo-1: 576 conversations of simulated agents.*pmiyc \S+/);
    await page.getByRole('link', { name: 'demo-1', exact: true }).click();
    await page.locator('table.matrix').first().waitFor();
    await page.locator('table.matrix a[data-cell]').first().click();
    await page.locator('#page-position').waitFor();
    expect(await page.locator('#bundle-lists').innerText()).toContain('persuader');
    await page.locator('#view tbody tr a').first().click();
    await page.locator('ol.turns').waitFor();
    await page.locator('ol.turns > li#turn-3 a.turn-link').click();
    await page.locator('li#turn-3.target').waitFor();
    expect(page.url()).toMatch(/#\/conversations\/c[0-9a-z]+\?run=demo-1&turn=3$/);
    // The deep link opened afresh, as a reader following it from a paper would.
    const deep = await open(page.url());
    await deep.page.locator('li#turn-3.target').waitFor();
    expect(await deep.page.locator('li.target').count()).toBe(1);
    expect(problems).toEqual([]);
    expect(deep.problems).toEqual([]);
    expect(outside(watched, bundle)).toEqual([]);
    expect(outside(deep, bundle)).toEqual([]);
    // The next page of a list and a list the bundle holds no copy of.
    await page.goto(bundleUrl(bundle, '#/runs/demo-1/conversations'));
    await page.locator('#page-position').waitFor();
    expect(await page.locator('#page-position').innerText()).toBe('1-50 of 576');
    await page.locator('#next-page').click();
    await page.locator('#page-position', { hasText: '51-100 of 576' }).waitFor();
    await page.goto(bundleUrl(bundle, '#/runs/demo-1/conversations?ncMin=0.5'));
    await page.locator('#error', { hasText: 'not in this bundle' }).waitFor();
    await page.close();
    await deep.page.close();
  });

  it('follows the same deep link in the live viewer', async () => {
    const id = JSON.parse(
      readFileSync(join(bundle, 'data', 'lists', '0', '0.js'), 'utf8')
        .replace(/^pmiycBundleData\("[^"]*",/, '')
        .replace(/\);\n$/, ''),
    );
    const first = (JSON.parse(id) as { items: Array<{ conversationId: string }> }).items[0]!.conversationId;
    const { page, problems } = await open(`${liveUrl}#/conversations/${first}?run=demo-1&turn=2`);
    await page.locator('li#turn-2.target').waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows the report's 95% intervals beside every mean and the comparisons with Holm-adjusted p, as report.json has them", async () => {
    const report = JSON.parse(readFileSync(join(bundle, 'report', 'report.json'), 'utf8')) as ReportDocument;
    for (const url of [bundleUrl(bundle, '#/runs/demo-1'), `${liveUrl}#/runs/demo-1`]) {
      const { page, problems } = await open(url);
      await page.locator('#comparisons tr[data-comparison]').first().waitFor();
      const marks = await page.locator('[data-estimate] .interval').evaluateAll((nodes) =>
        nodes.map((node) => ({
          key: node.parentElement!.getAttribute('data-estimate')!,
          low: Number(node.getAttribute('data-ci-low')),
          high: Number(node.getAttribute('data-ci-high')),
        })),
      );
      const expected = (['effectiveness', 'susceptibility'] as const).flatMap((measure) =>
        report[measure].map((entry) => ({ key: `${entry.domain}|${entry.setting}|${measure}|${entry.model}`, low: entry.ciLow, high: entry.ciHigh })),
      );
      expect(marks).toHaveLength(expected.length);
      for (const mark of marks) {
        const want = expected.find((entry) => entry.key === mark.key)!;
        expect(mark.low).toBeCloseTo(want.low, 10);
        expect(mark.high).toBeCloseTo(want.high, 10);
      }
      const rows = await page.locator('#comparisons tr[data-comparison]').evaluateAll((nodes) =>
        nodes.map((node) => ({
          key: node.getAttribute('data-comparison')!,
          difference: Number(node.getAttribute('data-difference')),
          pHolm: Number(node.getAttribute('data-p-holm')),
        })),
      );
      expect(rows).toHaveLength(report.comparisons.models.length);
      for (const entry of report.comparisons.models) {
        const [first, second, sign] = entry.first < entry.second ? [entry.first, entry.second, 1] : [entry.second, entry.first, -1];
        const row = rows.find((candidate) => candidate.key === `${entry.domain}|${entry.setting}|${entry.measure}|${first}|${second}`)!;
        expect(row.difference).toBeCloseTo(sign * entry.difference, 10);
        expect(row.pHolm).toBeCloseTo(entry.pHolm, 10);
      }
      // A pair cell says its interval on hover.
      const pair = report.pairs[0]!;
      const title = await page.locator(`table.matrix a[data-cell="${pair.persuader} -> ${pair.persuadee}"]`).first().getAttribute('title');
      expect(title).toContain('95% interval');
      expect(problems).toEqual([]);
      await page.close();
    }
    const { page } = await open(bundleUrl(bundle, '#/runs/demo-1'));
    await page.locator('a.report-link').first().click();
    await page.waitForURL(/report\/index\.html$/);
    await page.close();
  });

  it('keeps hostile model text as text in the bundle: no dialog, no element made from it', async () => {
    const watched = await open(bundleUrl(hostileBundle, '#/runs/hostile'));
    const { page, dialogs, problems } = watched;
    await page.locator('table.matrix').first().waitFor();
    await page.goto(bundleUrl(hostileBundle, '#/runs/hostile/conversations'));
    await page.locator('#view tbody tr a').first().click();
    await page.locator('ol.turns').waitFor();
    expect(await page.locator('ol.turns').innerText()).toContain(HOSTILE.script);
    expect(await page.locator('#view script, #view img, #view svg[onload]').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    expect(outside(watched, hostileBundle)).toEqual([]);
    await page.close();
  });

  it('refuses a folder that is not empty unless --force, and --run without --bundle, with exit code 2 and what to do', async () => {
    const taken = join(folder, 'taken');
    mkdirSync(taken, { recursive: true });
    writeFileSync(join(taken, 'notes.txt'), 'mine');
    const refused = await runCli(['view', '--store', storePath, '--bundle', taken]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('add --force');
    expect(existsSync(join(taken, 'index.html'))).toBe(false);
    const alone = await runCli(['view', '--store', storePath, '--run', 'demo-1']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--bundle');
    const missing = await runCli(['view', '--store', storePath, '--bundle', join(taken, 'new'), '--run', 'no-such-run']);
    expect(missing.code).toBe(2);
    const forced = await runCli(['view', '--store', storePath, '--bundle', taken, '--run', 'hostile', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(join(taken, 'notes.txt'), 'utf8')).toBe('mine');
    expect(existsSync(join(taken, 'data', 'bundle.js'))).toBe(true);
  }, 120_000);

  it("names a conversation's file inside its folder of conversations/, whatever the id holds", () => {
    for (const id of ['c0a0wldspyn9', 'C0A0', '../../etc/passwd', 'a b', HOSTILE.script, 'x'.repeat(80), 'é']) {
      expect(conversationFile(id)).toMatch(/^conversations\/[^/.]{2}\/[^/]+\.js$/);
    }
  });
});
