import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AcrossAnswer } from '../src/web/wire/across-answers.js';
import { runCli } from './cli-helpers.js';
import { APE_MODELS, MODELS, RUNS, runFourProtocols } from './support/across-protocols-runs.js';
import { openWatched, type ViewerInChromium, viewInChromium } from './support/chromium.js';

/**
 * `pmiyc view`'s table across protocols of the four protocols run on the same simulated models: its API answers the
 * report's figures (report.json's `acrossProtocols` of `pmiyc report --run` the same runs), and in headless Chromium
 * the runs page's form opens the table, every cell showing the report's figure, interval and n, a dash where a model
 * took no part, and the rank correlations.
 */

interface ReportCell {
  readonly estimate: number | null;
  readonly ciLow: number | null;
  readonly ciHigh: number | null;
  readonly n: number;
  readonly thin?: boolean;
}
interface ReportAcross {
  readonly columns: Array<{ id: string; title: string; unit: string }>;
  readonly rows: Array<{ model: string; cells: Array<ReportCell | null> }>;
  readonly correlations: Array<{ first: string; second: string; models: number; rho: number | null; ciLow: number | null; ciHigh: number | null }>;
}

const NAMES = Object.values(RUNS).join(',');

let folder: string;
let store: string;
let expected: ReportAcross;
let viewer: ViewerInChromium;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-across-view-'));
  store = join(folder, 'runs.db');
  await runFourProtocols(folder, store);
  const made = await runCli(['report', '--store', store, '--run', NAMES, '--out', join(folder, 'report'), '--format', 'json']);
  expect(made.code, made.stderr).toBe(0);
  expected = (JSON.parse(readFileSync(join(folder, 'report', 'report.json'), 'utf8')) as { acrossProtocols: ReportAcross }).acrossProtocols;
  viewer = await viewInChromium(store, join(folder, 'profile'));
}, 180_000);
afterAll(async () => {
  expect(await viewer?.close()).toBe(0);
  rmSync(folder, { recursive: true, force: true });
});

/** A figure as the page writes it, from the report's numbers. */
function shownText(cell: ReportCell | null): string {
  if (cell === null) return '–';
  if (cell.estimate === null) return `n/a n = ${cell.n}`;
  const interval = cell.ciLow === null ? '' : `${cell.thin ? '~' : ''}[${cell.ciLow.toFixed(2)}, ${cell.ciHigh!.toFixed(2)}] `;
  return `${cell.estimate.toFixed(2)} ${interval}n = ${cell.n}`;
}

describe("pmiyc view's table across protocols", () => {
  const get = async (query: string) => {
    const response = await fetch(`${viewer.url}api/across?${query}`);
    return { status: response.status, body: (await response.json()) as AcrossAnswer & { error?: string } };
  };

  it("answers the report's table: the same columns, models, figures, intervals and n, and correlations", async () => {
    const { status, body } = await get(`runs=${NAMES}`);
    expect(status).toBe(200);
    expect(body.columns.map((column) => column.id)).toEqual(expected.columns.map((column) => column.id));
    expect(body.rows.map((row) => [row.model, row.simulated])).toEqual(MODELS.map((model) => [model, true]));
    for (const [index, row] of body.rows.entries())
      expect(row.cells.map((cell) => (cell === null ? null : [cell.estimate, cell.ciLow, cell.ciHigh, cell.n]))).toEqual(
        expected.rows[index]!.cells.map((cell) => (cell === null ? null : [cell.estimate, cell.ciLow, cell.ciHigh, cell.n])),
      );
    expect(body.correlations).toEqual(expected.correlations);
  });

  it('refuses runs of one protocol (400) and a run the store lacks (404), saying what to name', async () => {
    const one = await get(`runs=${RUNS.sycon},${RUNS.sycon}`);
    expect([one.status, one.body.error]).toEqual([400, expect.stringContaining('fewer than two protocols')]);
    const missing = await get(`runs=${RUNS.sycon},nope`);
    expect([missing.status, missing.body.error]).toEqual([404, expect.stringContaining('nope')]);
    expect((await get('runs=')).status).toBe(400);
  });

  it("opens the table from the runs page's form: each cell the report's figure, a dash where a model took no part, then the correlations", async () => {
    const watched = await openWatched(viewer.browser, viewer.url);
    const { page } = watched;
    await page.locator('#across-runs').waitFor();
    await page.selectOption('#across-runs', Object.values(RUNS));
    await page.click('#across-open');
    await page.locator('#across-figures table').waitFor();
    expect(await page.locator('#across-figures th').allInnerTexts()).toEqual([
      'model',
      ...expected.columns.map((column) => `${column.title} (n = ${column.unit})`),
    ]);
    const shown = await page
      .locator('#across-figures tbody tr')
      .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));
    expect(shown).toEqual(expected.rows.map((row) => [`${row.model} [simulated]`, ...row.cells.map(shownText)]));
    // ed took no part in the APE run: a dash in both APE columns.
    const apeColumns = expected.columns.map((column, index) => [column.id, index] as const).filter(([id]) => id.startsWith('ape-'));
    expect(apeColumns.map(([, index]) => shown[MODELS.indexOf('ed')]![index + 1])).toEqual(['–', '–']);
    expect(APE_MODELS).not.toContain('ed');
    expect(await page.locator('#across-notes').innerText()).toContain('Models are matched by their alias name');
    expect(await page.locator('#view').innerText()).toMatch(/It is descriptive/);
    const correlations = await page
      .locator('#across-correlations tbody tr')
      .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));
    expect(correlations).toEqual(
      expected.correlations.map((entry) => [
        entry.first,
        entry.second,
        entry.rho === null
          ? `too few models (${entry.models}; 5 needed)`
          : `${entry.rho.toFixed(2)} [${entry.ciLow!.toFixed(2)}, ${entry.ciHigh!.toFixed(2)}] n = ${entry.models}`,
      ]),
    );
    expect(watched.problems).toEqual([]);
    await page.close();
  });
});
