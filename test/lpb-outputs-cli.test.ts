import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studentTQuantile, twoSidedP } from '../src/metrics/intervals/distributions.js';
import { runCli } from './cli-helpers.js';
import { type FixtureCell, type LpbFixture, writeLpbFixture } from './support/lpb-bundle-fixture.js';

let folder: string;
let fixture: LpbFixture;
let store: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-lpb-outputs-'));
  fixture = writeLpbFixture(join(folder, 'persuasion'));
  store = join(folder, 'runs.db');
  const imported = await runCli(['import', 'llm-persuasion-benchmark', fixture.root, '--run', 'lpb', '--store', store]);
  expect(imported.code, imported.stderr).toBe(0);
}, 60_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A mean over cells with its cluster-robust t interval over propositions, computed here from first principles. */
interface Expected {
  readonly mean: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  readonly p: number;
  readonly n: number;
}

function clusteredMean(values: ReadonlyArray<{ readonly cluster: string; readonly value: number }>): Expected {
  const n = values.length;
  const mean = values.reduce((sum, entry) => sum + entry.value, 0) / n;
  const residuals = new Map<string, number>();
  for (const { cluster, value } of values) residuals.set(cluster, (residuals.get(cluster) ?? 0) + (value - mean) / n);
  const clusters = residuals.size;
  const se = Math.sqrt((clusters / (clusters - 1)) * [...residuals.values()].reduce((sum, u) => sum + u * u, 0));
  const half = studentTQuantile(0.975, clusters - 1) * se;
  return { mean, ciLow: mean - half, ciHigh: mean + half, p: twoSidedP(mean / se, clusters - 1), n };
}

/** Holm's step-down adjustment, written here apart from pmiyc's. */
function holm(pValues: readonly number[]): number[] {
  const order = pValues.map((p, index) => ({ p, index })).sort((a, b) => a.p - b.p);
  const adjusted = new Array<number>(pValues.length);
  let running = 0;
  order.forEach(({ p, index }, rank) => {
    running = Math.max(running, Math.min(1, (pValues.length - rank) * p));
    adjusted[index] = running;
  });
  return adjusted;
}

const completed = () => fixture.cells.filter((cell): cell is FixtureCell & { signedShift: number } => cell.signedShift !== null);

function expectedMean(of: (cell: FixtureCell) => boolean): Expected {
  return clusteredMean(
    completed()
      .filter(of)
      .map((cell) => ({ cluster: cell.proposition, value: cell.signedShift })),
  );
}

/** Two persuaders on the cells both faced: same proposition, side and target (neither of the two). */
function expectedPersuaderDifference(first: string, second: string): Expected {
  const seconds = new Map(
    completed()
      .filter((cell) => cell.persuader === second)
      .map((cell) => [`${cell.proposition}/${cell.side}/${cell.target}`, cell.signedShift]),
  );
  const pairs = completed().flatMap((cell) => {
    const other = seconds.get(`${cell.proposition}/${cell.side}/${cell.target}`);
    return cell.persuader !== first || cell.target === second || other === undefined ? [] : [{ cluster: cell.proposition, value: cell.signedShift - other }];
  });
  return clusteredMean(pairs);
}

interface EstimateJson {
  readonly mean: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  readonly cells: number;
  readonly clusters: number;
}

interface BoardJson {
  readonly rows: ReadonlyArray<{ readonly model: string; readonly overall: EstimateJson; readonly pro: EstimateJson; readonly con: EstimateJson }>;
  readonly comparisons: ReadonlyArray<{
    first: string;
    second: string;
    difference: number;
    ciLow: number;
    ciHigh: number;
    p: number;
    pHolm: number;
    cells: number;
  }>;
  readonly steps: ReadonlyArray<{ rank: number; higher: string; lower: string; separable: boolean; pHolm: number }>;
}

function expectEstimate(actual: EstimateJson, expected: Expected, label: string): void {
  expect(actual.mean, label).toBeCloseTo(expected.mean, 10);
  expect(actual.ciLow, label).toBeCloseTo(expected.ciLow, 10);
  expect(actual.ciHigh, label).toBeCloseTo(expected.ciHigh, 10);
  expect(actual.cells, label).toBe(expected.n);
}

/** The chart's marks as the SVG labels them for screen readers ("xLow: 0.12; y: −0.5; xHigh: 0.9; label: model-alpha"), numbers read back. */
function chartMarks(svg: string): Array<Record<string, number | string>> {
  return [...svg.matchAll(/aria-label="([^"]*)"/g)]
    .map((match) => match[1]!)
    .filter((label) => label.includes('; label: '))
    .map((label) =>
      Object.fromEntries(
        label.split('; ').map((part) => {
          const [key, value] = part.split(': ') as [string, string];
          return [key, key === 'label' ? value : Number(value.replace('\u2212', '-'))];
        }),
      ),
    );
}

async function reportJson() {
  const out = join(folder, 'report');
  const result = await runCli(['report', '--store', store, '--run', 'lpb', '--out', out]);
  expect(result.code, result.stderr).toBe(0);
  const read = (file: string) => readFileSync(join(out, file), 'utf8');
  const json = JSON.parse(read('report.json')) as {
    kind: string;
    protocols: Array<{ protocol: string; figures: { persuaders: BoardJson; targets: BoardJson; blocked: number; missingTranscripts: number } }>;
  };
  return { read, json, out };
}

describe('pmiyc report of an imported LLM Persuasion Benchmark bundle', () => {
  it('gives the leaderboards, intervals and paired Holm comparisons that the fixture rows give when recomputed apart', async () => {
    const { json, read, out } = await reportJson();
    expect(json.kind).toBe('protocols');
    const { figures } = json.protocols.find((section) => section.protocol === 'llm-persuasion-benchmark')!;
    expect([figures.blocked, figures.missingTranscripts]).toEqual([1, 1]);

    for (const row of figures.persuaders.rows) {
      expectEstimate(
        row.overall,
        expectedMean((cell) => cell.persuader === row.model),
        `persuader ${row.model}`,
      );
      expectEstimate(
        row.pro,
        expectedMean((cell) => cell.persuader === row.model && cell.side === 'pro'),
        `persuader ${row.model} pro`,
      );
      expectEstimate(
        row.con,
        expectedMean((cell) => cell.persuader === row.model && cell.side === 'con'),
        `persuader ${row.model} con`,
      );
    }
    for (const row of figures.targets.rows)
      expectEstimate(
        row.overall,
        expectedMean((cell) => cell.target === row.model),
        `target ${row.model}`,
      );
    const means = figures.persuaders.rows.map((row) => row.overall.mean);
    expect(means).toEqual([...means].sort((a, b) => b - a));

    const comparisons = figures.persuaders.comparisons;
    expect(comparisons).toHaveLength(6);
    const expected = comparisons.map((entry) => expectedPersuaderDifference(entry.first, entry.second));
    const adjusted = holm(expected.map((entry) => entry.p));
    comparisons.forEach((entry, at) => {
      const label = `${entry.first} - ${entry.second}`;
      expect(entry.difference, label).toBeCloseTo(expected[at]!.mean, 10);
      expect([entry.ciLow, entry.ciHigh], label).toEqual([expect.closeTo(expected[at]!.ciLow, 10), expect.closeTo(expected[at]!.ciHigh, 10)]);
      expect(entry.cells, label).toBe(expected[at]!.n);
      expect(entry.p, label).toBeCloseTo(expected[at]!.p, 10);
      expect(entry.pHolm, label).toBeCloseTo(adjusted[at]!, 10);
    });
    for (const step of figures.persuaders.steps) {
      const pair = comparisons.find((entry) => [entry.first, entry.second].sort().join() === [step.higher, step.lower].sort().join())!;
      expect(step.pHolm).toBe(pair.pHolm);
      expect(step.separable).toBe(pair.pHolm < 0.05);
    }

    const markdown = read('report.md');
    expect(markdown).toContain("they are not PMIYC's normalized change (NC)");
    expect(markdown).toContain('Persuaders: which adjacent ranks are separable');
    const page = read('index.html');
    expect(page).toContain('Pairwise matrix: persuader (row) against target (column)');
    expect(existsSync(join(out, 'lpb.pairwise.csv'))).toBe(true);
    const steps = parse(read('lpb.persuader-steps.csv'), { columns: true }) as Record<string, string>[];
    expect(steps).toHaveLength(3);
  }, 60_000);

  it("draws the offense-against-defense chart from the leaderboards' own figures: each model's point and both interval bars", async () => {
    const { json, read, out } = await reportJson();
    const { figures } = json.protocols.find((section) => section.protocol === 'llm-persuasion-benchmark')!;
    const chartFile = 'charts/llm-persuasion-benchmark-lpb-offense-defense.svg';
    expect(read('report.md')).toContain(`![Offense against defense](${chartFile})`);
    expect(read('index.html')).toContain('<figure class="chart" id="figure-llm-persuasion-benchmark-lpb-offense-defense"');
    const marks = chartMarks(readFileSync(join(out, chartFile), 'utf8'));
    const models = figures.persuaders.rows.map((row) => row.model);
    expect(marks.filter((mark) => 'x' in mark && 'y' in mark).map((mark) => mark['label'])).toEqual(models);
    for (const row of figures.persuaders.rows) {
      const susceptibility = figures.targets.rows.find((target) => target.model === row.model)!.overall;
      const [strength, resistance] = [row.overall, { mean: -susceptibility.mean, ciLow: -susceptibility.ciHigh, ciHigh: -susceptibility.ciLow }];
      const of = (keys: string) => marks.find((mark) => mark['label'] === row.model && keys.split(',').every((key) => key in mark))!;
      const close = (value: number) => expect.closeTo(value, 9);
      expect(of('x,y'), row.model).toMatchObject({ x: close(strength.mean), y: close(resistance.mean) });
      expect(of('xLow,xHigh'), row.model).toMatchObject({ xLow: close(strength.ciLow), xHigh: close(strength.ciHigh), y: close(resistance.mean) });
      expect(of('yLow,yHigh'), row.model).toMatchObject({ yLow: close(resistance.ciLow), yHigh: close(resistance.ciHigh), x: close(strength.mean) });
    }
  }, 60_000);

  it('exports every cell as a JSON line and as CSV rows from which the leaderboard means come back', async () => {
    const lines = await runCli(['export', '--run', 'lpb', '--format', 'jsonl', '--store', store]);
    expect(lines.code, lines.stderr).toBe(0);
    const parsed = lines.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { item: string; protocol: string; turns: unknown[]; signedShift: number | null });
    expect(parsed).toHaveLength(fixture.cells.length);
    expect(parsed.find((line) => line.item === fixture.blockedCell)).toMatchObject({ protocol: 'llm-persuasion-benchmark', signedShift: null, turns: [] });

    const out = join(folder, 'csv');
    const written = await runCli(['export', '--run', 'lpb', '--format', 'csv', '--out', out, '--store', store]);
    expect(written.code, written.stderr).toBe(0);
    const rows = parse(readFileSync(join(out, 'lpb-cells.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(fixture.cells.length);
    const alpha = rows.filter((row) => row['persuader'] === 'model-alpha' && row['signedShiftExact'] !== '');
    const mean = alpha.reduce((sum, row) => sum + Number(row['signedShiftExact']), 0) / alpha.length;
    expect(mean).toBeCloseTo(expectedMean((cell) => cell.persuader === 'model-alpha').mean, 12);
    const turns = parse(readFileSync(join(out, 'lpb-turns.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
    expect(turns).toHaveLength(94 * 8);
  }, 60_000);

  it('shows a cell with its proposition, side, pre and post means and turns', async () => {
    const cell = fixture.cells[0]!;
    const shown = await runCli(['show', cell.cell, '--store', store]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`${cell.persuader} argues ${cell.side} "Plant more street trees" with ${cell.target}`);
    expect(shown.stdout).toMatch(/pre mean: -?\d/);
    expect(shown.stdout).toContain('Turn 8 of');
  }, 60_000);
});
