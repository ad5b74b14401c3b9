import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';
import { openWatched, type ViewerInChromium, viewInChromium, type WatchedPage } from './support/chromium.js';
import { type FixtureCell, type LpbFixture, writeLpbFixture } from './support/lpb-bundle-fixture.js';

/**
 * `pmiyc view` of an imported LLM Persuasion Benchmark bundle (the fixture of test/support/lpb-bundle-fixture.ts) in
 * headless Chromium, served and as a static bundle opened from disk: the run page's pairwise matrix, whose means and
 * n are recomputed here from the fixture's cells and whose intervals are the report's; the list of cells with each
 * one's side and pre and post means, narrowed by persuader and side; a cell's page with its means, side, probes and
 * turns, and the completed cell whose transcript is missing said as such.
 */

const RUN = 'lpb-view';
let folder: string;
let fixture: LpbFixture;
let store: string;
let pairwise: ReadonlyArray<{ persuader: string; target: string; mean: number; ciLow: number; ciHigh: number; cells: number; thin: boolean }>;

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const byKey = () => [...fixture.cells].sort((a, b) => (a.cell < b.cell ? -1 : a.cell > b.cell ? 1 : 0));
const models = () => [...new Set(fixture.cells.map((cell) => cell.persuader))].sort();

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-lpb-view-browser-'));
  fixture = writeLpbFixture(join(folder, 'persuasion'));
  store = join(folder, 'runs.db');
  const imported = await runCli(['import', 'llm-persuasion-benchmark', fixture.root, '--run', RUN, '--store', store]);
  expect(imported.code, imported.stderr).toBe(0);
  const out = join(folder, 'report');
  const reported = await runCli(['report', '--store', store, '--run', RUN, '--out', out, '--format', 'json']);
  expect(reported.code, reported.stderr).toBe(0);
  const json = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { protocols: Array<{ figures: { pairwise: typeof pairwise } }> };
  pairwise = json.protocols[0]!.figures.pairwise;
}, 120_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A pair's cell as the page writes it: the mean recomputed from the fixture, the report's interval (~ when thin), n the cells with a shift. */
function expectedPairCell(persuader: string, target: string): string {
  const shifts = fixture.cells
    .filter((cell) => cell.persuader === persuader && cell.target === target && cell.signedShift !== null)
    .map((cell) => cell.signedShift!);
  const reported = pairwise.find((entry) => entry.persuader === persuader && entry.target === target)!;
  expect(reported.mean).toBeCloseTo(mean(shifts), 12);
  return `${mean(shifts).toFixed(2)} ${reported.thin ? '~' : ''}[${reported.ciLow.toFixed(2)}, ${reported.ciHigh.toFixed(2)}] n = ${shifts.length}`;
}

/** The run page's pairwise matrix is every persuader against every target, each cell as the fixture's cells give it. */
async function expectMatrix(page: Page): Promise<void> {
  const matrix = page.locator('[data-table="pairwise"]');
  await matrix.waitFor();
  expect(await matrix.locator('h3').innerText()).toBe('Pairwise matrix: persuader (row) against target (column)');
  expect(await matrix.locator('thead th').allInnerTexts()).toEqual(['Persuader \\ Target', ...models()]);
  const rows = await matrix
    .locator('tbody tr')
    .evaluateAll((found) => found.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));
  expect(rows).toEqual(
    models().map((persuader) => [persuader, ...models().map((target) => (persuader === target ? '-' : expectedPairCell(persuader, target)))]),
  );
}

/** A list row's side, pre and post means, by its cell, as the fixture wrote them (three decimals, as published). */
async function listedCells(page: Page): Promise<Array<{ cell: string; side: string; pre: number; post: number }>> {
  const header = await page.locator('table:has(tr[data-item]) thead th').allInnerTexts();
  const column = (name: string) => header.indexOf(name);
  const rows = await page
    .locator('tr[data-item]')
    .evaluateAll((found) => found.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));
  return rows.map((cells) => ({
    cell: cells[0]!,
    side: cells[column('side')]!,
    pre: Number(cells[column('pre mean')]),
    post: Number(cells[column('post mean')]),
  }));
}

function expectListed(listed: ReadonlyArray<{ cell: string; side: string; pre: number; post: number }>, expected: readonly FixtureCell[]): void {
  expect(listed.map((row) => row.cell)).toEqual(expected.map((cell) => cell.cell));
  listed.forEach((row, at) => {
    const cell = expected[at]!;
    expect(row.side, cell.cell).toBe(cell.side);
    if (cell.outcome !== 'completed') return;
    expect(row.pre, cell.cell).toBeCloseTo(mean(cell.preProbes), 3);
    expect(row.post, cell.cell).toBeCloseTo(mean(cell.postProbes), 3);
  });
}

/** A cell's page: its side and means among the facts, its signed shift in the outcome, its eight turns. */
async function expectCellPage(watched: WatchedPage, cell: FixtureCell): Promise<void> {
  const { page } = watched;
  await page.locator('#item-facts').waitFor();
  const facts = await page.locator('#item-facts').innerText();
  expect(facts).toMatch(new RegExp(`side\\s+${cell.side}`));
  expect(Number(/pre mean\s+(-?[\d.]+)/.exec(facts)![1])).toBeCloseTo(mean(cell.preProbes), 3);
  expect(Number(/post mean\s+(-?[\d.]+)/.exec(facts)![1])).toBeCloseTo(mean(cell.postProbes), 3);
  const outcome = await page.locator('#item-outcome').innerText();
  expect(Number(/signed shift\s+(-?[\d.]+)/.exec(outcome)![1])).toBeCloseTo(cell.signedShift!, 3);
  expect(await page.locator('#item-messages > li').count()).toBe(8);
  expect(watched.problems).toEqual([]);
}

describe('pmiyc view of an imported LLM Persuasion Benchmark bundle in headless Chromium', () => {
  let viewer: ViewerInChromium;

  beforeAll(async () => {
    viewer = await viewInChromium(store, join(folder, 'profile'));
  }, 120_000);
  afterAll(async () => {
    expect(await viewer?.close()).toBe(0);
  });

  it("shows the pairwise matrix on the run's page, lists the cells with side and means, narrows them by persuader and side, and opens one", async () => {
    const watched = await openWatched(viewer.browser, `${viewer.url}#/runs/${RUN}`);
    const { page } = watched;
    await expectMatrix(page);
    await page.locator('tr[data-item]').first().waitFor();
    expectListed(await listedCells(page), byKey().slice(0, 50));

    await page.selectOption('select[name="persuader"]', 'model-bravo');
    // Each filter draws the page again: the second is chosen on the page the first drew.
    const persuaded = fixture.cells.filter((cell) => cell.persuader === 'model-bravo').length;
    await page.locator('#page-position', { hasText: `of ${persuaded} (the run holds ${fixture.cells.length})` }).waitFor();
    await page.selectOption('select[name="side"]', 'con');
    const wanted = byKey().filter((cell) => cell.persuader === 'model-bravo' && cell.side === 'con');
    await page.locator('#page-position', { hasText: `of ${wanted.length} (the run holds ${fixture.cells.length})` }).waitFor();
    expectListed(await listedCells(page), wanted);
    const opened = wanted.find((cell) => cell.outcome === 'completed' && cell.cell !== fixture.missingTranscriptCell)!;
    await page.getByRole('link', { name: opened.cell, exact: true }).click();
    await expectCellPage(watched, opened);
    await page.close();
  });

  it('says of the completed cell without a transcript that it is missing, with its means kept', async () => {
    const cell = fixture.cells.find((entry) => entry.cell === fixture.missingTranscriptCell)!;
    const watched = await openWatched(viewer.browser, `${viewer.url}#/runs/${RUN}/items/${encodeURIComponent(cell.cell)}`);
    await watched.page.locator('#item-facts').waitFor();
    const facts = await watched.page.locator('#item-facts').innerText();
    expect(facts).toMatch(/transcript\s+missing from the bundle/);
    expect(Number(/pre mean\s+(-?[\d.]+)/.exec(facts)![1])).toBeCloseTo(mean(cell.preProbes), 3);
    expect(watched.problems).toEqual([]);
    await watched.page.close();
  });

  it('writes the run as a static bundle whose run page, filters, cells and report (with the offense-against-defense chart) work from disk', async () => {
    const bundle = join(folder, 'bundle');
    const made = await runCli(['view', '--store', store, '--bundle', bundle, '--run', RUN]);
    expect(made.code, made.stderr).toBe(0);
    const filter = new URLSearchParams({ target: 'model-alpha', side: 'pro' });
    const watched = await openWatched(viewer.browser, `${pathToFileURL(join(bundle, 'index.html')).href}#/runs/${RUN}?${filter}`);
    const { page } = watched;
    await expectMatrix(page);
    const wanted = byKey().filter((cell) => cell.target === 'model-alpha' && cell.side === 'pro');
    await page.locator('#page-position', { hasText: `of ${wanted.length} (the run holds ${fixture.cells.length})` }).waitFor();
    expectListed(await listedCells(page), wanted);
    const opened = wanted.find((cell) => cell.outcome === 'completed' && cell.cell !== fixture.missingTranscriptCell)!;
    await page.getByRole('link', { name: opened.cell, exact: true }).click();
    await expectCellPage(watched, opened);
    const report = await openWatched(viewer.browser, pathToFileURL(join(bundle, 'report', 'index.html')).href);
    await report.page.locator('#figure-llm-persuasion-benchmark-lpb-view-offense-defense svg').waitFor();
    expect(await report.page.locator('body').innerText()).toContain('Pairwise matrix: persuader (row) against target (column)');
    expect(report.problems).toEqual([]);
    await report.page.close();
    await page.close();
  });
});
