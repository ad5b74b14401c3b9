import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportCommand } from '../src/cli/commands/report.js';
import type { CliContext } from '../src/cli/terminal.js';
import { ResultStore } from '../src/store/result-store.js';
import { runCli } from './cli-helpers.js';
import { launchChromium, openWatched } from './support/chromium.js';
import { HOSTILE, hostileRecords } from './support/hostile-records.js';

const SECTIONS_WITH_CHARTS = ['effectiveness', 'matrices', 'turns', 'stance', 'initial', 'absolute'];

let folder: string;
let browser: BrowserContext;
const context = {
  stdout: new PassThrough(),
  stderr: new PassThrough(),
  env: {},
  now: () => new Date('2026-11-30T12:00:00Z'),
  packageVersion: '0.0.0-test',
} as unknown as CliContext;

/** Opens a report as a reader would, recording console errors, page errors, dialogs and any request it makes. */
const visit = (path: string) => openWatched(browser, pathToFileURL(path).href);

describe('the HTML report in headless Chromium', () => {
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-browser-'));
    browser = await launchChromium(join(folder, 'profile'), 1280);
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('shows the demo report with its charts in every section and no console error', async () => {
    const store = join(folder, 'demo.db');
    const demo = await runCli(['demo', '--store', store], { cwd: folder });
    expect(demo.code).toBe(0);
    await reportCommand({ store, out: join(folder, 'demo-report'), format: ['html', 'md', 'json', 'csv'] }, context);

    const { page, problems, dialogs, requests } = await visit(join(folder, 'demo-report', 'index.html'));
    expect(await page.title()).toBe('pmiyc report: demo-1');
    for (const section of SECTIONS_WITH_CHARTS) {
      expect(await page.locator(`section#${section} figure.chart svg`).count(), section).toBeGreaterThan(0);
    }
    expect(await page.locator('section#matrices figure.chart svg').count()).toBe(4);
    expect(await page.locator('section#summary .card').count()).toBe(4);
    expect(await page.locator('section#dialogues article.dialogue').count()).toBeGreaterThan(3);
    expect(await page.locator('.badge.sim').count()).toBeGreaterThan(10);
    expect(await page.evaluate('document.scripts.length')).toBe(0);
    expect(problems).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(requests.every((url) => url.startsWith('file://'))).toBe(true);
    // A screenshot for people to look at, outside the repository.
    const screenshot = join(folder, 'demo-report.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(statSync(screenshot).size).toBeGreaterThan(50_000);
  });

  it('shows hostile model text as text: no dialog, no script, no image, no console error', async () => {
    const path = join(folder, 'hostile.db');
    const store = ResultStore.open(path);
    const run = store.createRun({ name: 'hostile', createdAt: '2026-11-30T10:00:00Z', seed: 0, packageVersion: 'test', config: {} });
    for (const record of hostileRecords()) store.saveConversation(run.id, record);
    store.close();
    await reportCommand({ store: path, out: join(folder, 'hostile-report'), format: ['html'], replicates: 50 }, context);

    const { page, problems, dialogs, requests } = await visit(join(folder, 'hostile-report', 'index.html'));
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    expect(requests.filter((url) => !url.startsWith('file://'))).toEqual([]);
    expect(await page.evaluate("document.querySelectorAll('script, img, iframe, object, embed').length")).toBe(0);
    // The page is evaluated as text: the project's TypeScript has no DOM types.
    expect(
      await page.evaluate(
        "[...document.querySelectorAll('*')].some((element) => [...element.attributes].some((attribute) => attribute.name.startsWith('on')))",
      ),
    ).toBe(false);
    const text = await page.locator('section#dialogues').innerText();
    expect(text).toContain(HOSTILE.script);
    expect(text).toContain(HOSTILE.image);
  });
});
