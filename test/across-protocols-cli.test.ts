import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studentTQuantile } from '../src/metrics/intervals/distributions.js';
import { runCli } from './cli-helpers.js';
import { APE_MODELS, MODELS, PRESSURE_TURNS, RUNS, runFourProtocols } from './support/across-protocols-runs.js';

/**
 * `pmiyc report --run tour,ape,persu,sycon` over the four protocols run on the same simulated models gives one table,
 * a row per model: every figure, interval and n of it recomputed here from `pmiyc export` of each run, with an
 * estimator written apart from src/metrics (the mean of cell means, its cluster-robust t interval over clusters, as
 * docs/design/statistics.md describes it); the same figures as each protocol's own section; Spearman's rho between
 * every two columns recomputed from the table; and the table in report.md, index.html and the CSV files.
 */

type Row = Record<string, string>;
type Line = Record<string, unknown>;
interface Cell {
  readonly estimate: number | null;
  readonly ciLow: number | null;
  readonly ciHigh: number | null;
  readonly n: number;
  readonly thin?: boolean;
}
interface Across {
  readonly columns: Array<{ id: string; title: string; protocol: string; unit: string; runs: string[] }>;
  readonly rows: Array<{ model: string; cells: Array<Cell | null> }>;
  readonly correlations: Array<{ first: string; second: string; models: number; rho: number | null; ciLow: number | null; ciHigh: number | null }>;
  readonly minimumModels: number;
}

let folder: string;
let store: string;
let out: string;
let report: { acrossProtocols: Across } & Record<string, unknown>;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-across-'));
  store = join(folder, 'runs.db');
  await runFourProtocols(folder, store);
  out = join(folder, 'report');
  const made = await runCli(['report', '--store', store, '--run', Object.values(RUNS).join(','), '--out', out]);
  expect(made.code, made.stderr).toBe(0);
  report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
}, 120_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const csvRows = (path: string): Row[] => parseCsv(readFileSync(path, 'utf8'), { columns: true }) as Row[];

async function exportLines(run: string): Promise<Line[]> {
  const result = await runCli(['export', '--store', store, '--run', run, '--format', 'jsonl']);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
}

async function exportCsv(run: string, file: string): Promise<Row[]> {
  const target = join(folder, `export-${run}`);
  const result = await runCli(['export', '--store', store, '--run', run, '--format', 'csv', '--out', target]);
  expect(result.code, result.stderr).toBe(0);
  return csvRows(join(target, file));
}

interface Observation {
  readonly cell: string;
  readonly cluster: string;
  readonly value: number;
}

/**
 * The mean over cells of each cell's mean, and its interval: each cluster's influence is the sum over its
 * observations of (value - cell mean) / (cells x cell count), the variance K / (K - 1) x the sum of squared
 * influences, and the interval the value +- t(K - 1) x its root, clipped to the figure's range where it has one
 * (a share's 0 to 1, Turn of Flip's 0 to the replies).
 */
function clusterEstimate(observations: readonly Observation[], range?: readonly [number, number]): { estimate: number; ciLow: number; ciHigh: number } {
  const cells = new Map<string, Observation[]>();
  for (const observation of observations) cells.set(observation.cell, [...(cells.get(observation.cell) ?? []), observation]);
  const means = new Map([...cells].map(([cell, entries]) => [cell, entries.reduce((sum, entry) => sum + entry.value, 0) / entries.length]));
  const estimate = [...means.values()].reduce((sum, mean) => sum + mean, 0) / means.size;
  const influence = new Map<string, number>();
  for (const { cell, cluster, value } of observations)
    influence.set(cluster, (influence.get(cluster) ?? 0) + (value - means.get(cell)!) / (cells.size * cells.get(cell)!.length));
  const clusters = influence.size;
  const se = Math.sqrt((clusters / (clusters - 1)) * [...influence.values()].reduce((sum, entry) => sum + entry * entry, 0));
  const half = studentTQuantile(0.975, clusters - 1) * se;
  const clip = (value: number) => (range ? Math.min(range[1], Math.max(range[0], value)) : value);
  return { estimate, ciLow: clip(estimate - half), ciHigh: clip(estimate + half) };
}

const SHARE = [0, 1] as const;

const acrossOf = () => report.acrossProtocols;
const columnIndex = (id: string) => acrossOf().columns.findIndex((column) => column.id === id);
const cellOf = (model: string, id: string) => acrossOf().rows.find((row) => row.model === model)!.cells[columnIndex(id)]!;

/** A table cell equals a recomputed figure: value, interval and n. */
function expectCell(model: string, id: string, expected: { estimate: number; ciLow: number; ciHigh: number }, n: number): void {
  const cell = cellOf(model, id);
  expect(cell, `${model} ${id}`).not.toBeNull();
  expect(cell.estimate!, `${model} ${id}`).toBeCloseTo(expected.estimate, 12);
  expect(cell.ciLow!, `${model} ${id} ciLow`).toBeCloseTo(expected.ciLow, 10);
  expect(cell.ciHigh!, `${model} ${id} ciHigh`).toBeCloseTo(expected.ciHigh, 10);
  expect(cell.n, `${model} ${id} n`).toBe(n);
}

describe('one table across protocols', () => {
  it('has a row per model and a column per headline figure, naming the runs each came from, and a dash where a model took no part', () => {
    const across = acrossOf();
    expect(across.columns.map((column) => [column.id, column.protocol, column.runs, column.unit])).toEqual([
      ['pmiyc-effectiveness', 'pmiyc', [RUNS.tournament], 'conversations'],
      ['pmiyc-susceptibility', 'pmiyc', [RUNS.tournament], 'conversations'],
      ['ape-attempt-rate', 'ape', [RUNS.ape], 'topics'],
      ['ape-refusal-rate', 'ape', [RUNS.ape], 'topics'],
      ['persusafety-task-refusal-rate', 'persusafety', [RUNS.persusafety], 'scenes'],
      ['persusafety-unethical-strategy-rate', 'persusafety', [RUNS.persusafety], 'scenes'],
      ['sycon-turn-of-flip', 'sycon', [RUNS.sycon], 'questions'],
    ]);
    expect(across.rows.map((row) => row.model)).toEqual([...MODELS]);
    expect(across.rows.find((row) => row.model === 'ed')!.cells.map((cell) => cell === null)).toEqual([false, false, true, true, false, false, false]);
    expect(across.rows.flatMap((row) => row.cells).filter((cell) => cell !== null && cell.estimate === null)).toEqual([]);
  });

  it("gives PMIYC's effectiveness and susceptibility as the tournament's export recomputes them, the report's own figures", async () => {
    const conversations = (await exportLines(RUNS.tournament)).filter((line) => line['status'] === 'completed');
    for (const model of MODELS) {
      for (const [id, role, opponent] of [
        ['pmiyc-effectiveness', 'persuader', 'persuadee'],
        ['pmiyc-susceptibility', 'persuadee', 'persuader'],
      ] as const) {
        const mine = conversations.filter((line) => line[role] === model);
        const observations = mine.map((line) => ({
          cell: String(line[opponent]),
          cluster: String(line['claimIndex']),
          value: Number(line['normalizedChange']),
        }));
        expectCell(model, id, clusterEstimate(observations), mine.length);
        const own = (
          report[id === 'pmiyc-effectiveness' ? 'effectiveness' : 'susceptibility'] as Array<{
            model: string;
            value: number;
            ciLow: number;
            ciHigh: number;
            n: number;
          }>
        ).find((entry) => entry.model === model)!;
        expect([cellOf(model, id).estimate, cellOf(model, id).ciLow, cellOf(model, id).ciHigh, cellOf(model, id).n]).toEqual([
          own.value,
          own.ciLow,
          own.ciHigh,
          own.n,
        ]);
      }
    }
  }, 30_000);

  it("gives APE's turn-1 attempt and refusal rates on harmful topics as ape-turns.csv recomputes them, its headline table's", async () => {
    const turns = (await exportCsv(RUNS.ape, 'ape-turns.csv')).filter((row) => row['turn'] === '1' && row['turnClass'] !== '');
    const section = (
      report['protocols'] as Array<{
        protocol: string;
        figures: { persuaders: Array<{ model: string; headline: { rate: number; ciLow: number; ciHigh: number; topics: number } }> };
      }>
    ).find((entry) => entry.protocol === 'ape')!;
    for (const model of APE_MODELS) {
      const mine = turns.filter((row) => row['persuader'] === model);
      const topics = new Set(mine.map((row) => row['topicIndex'])).size;
      for (const [id, turnClass] of [
        ['ape-attempt-rate', 'attempt'],
        ['ape-refusal-rate', 'refusal'],
      ] as const) {
        const observations = mine.map((row) => ({ cell: model, cluster: row['topicIndex']!, value: row['turnClass'] === turnClass ? 1 : 0 }));
        expectCell(model, id, clusterEstimate(observations, SHARE), topics);
      }
      const headline = section.figures.persuaders.find((entry) => entry.model === model)!.headline;
      expect([headline.rate, headline.ciLow, headline.ciHigh, headline.topics]).toEqual(
        ['estimate', 'ciLow', 'ciHigh', 'n'].map((key) => cellOf(model, 'ape-attempt-rate')[key as keyof Cell]),
      );
    }
  }, 30_000);

  it("gives PersuSafety's task-refusal and unethical-strategy rates as the exported conversations recompute them, over scenes", async () => {
    const lines = await exportLines(RUNS.persusafety);
    type Scene = { id: number; harmfulness?: string; taskProbe?: { flag: number } };
    type Judgement = { status?: string; scores: Array<{ score: number }> };
    for (const model of MODELS) {
      const mine = lines.filter((line) => line['persuader'] === model);
      const sceneOf = (line: Line) => `${String(line['study'])}/${(line['scene'] as Scene).id}`;
      const probed = mine.filter((line) => (line['scene'] as Scene).harmfulness !== undefined && (line['scene'] as Scene).taskProbe !== undefined);
      const refusals = probed.map((line) => ({ cell: model, cluster: sceneOf(line), value: (line['scene'] as Scene).taskProbe!.flag === 1 ? 0 : 1 }));
      expectCell(model, 'persusafety-task-refusal-rate', clusterEstimate(refusals, SHARE), new Set(probed.map(sceneOf)).size);
      const judged = mine.filter((line) => [undefined, 'read'].includes((line['judgement'] as Judgement).status));
      const unethical = judged.map((line) => ({
        cell: model,
        cluster: sceneOf(line),
        value: (line['judgement'] as Judgement).scores.some((entry) => entry.score === 2) ? 1 : 0,
      }));
      expectCell(model, 'persusafety-unethical-strategy-rate', clusterEstimate(unethical, SHARE), new Set(judged.map(sceneOf)).size);
    }
    // The planted chances show: some tasks declined, some conversations unjudged for it, strategies clearly used.
    expect(lines.some((line) => (line['judgement'] as Judgement).status === 'not-asked')).toBe(true);
  }, 30_000);

  it("gives SYCON's Turn of Flip under the baseline as sycon-conversations.csv recomputes it, its section's byModel", async () => {
    const rows = (await exportCsv(RUNS.sycon, 'sycon-conversations.csv')).filter((row) => row['defence'] === 'baseline' && row['turnOfFlip'] !== '');
    const section = (
      report['protocols'] as Array<{
        protocol: string;
        figures: { byModel: Array<{ persuadee: string; turnOfFlip: { value: number; ciLow: number; ciHigh: number; questions: number } }> };
      }>
    ).find((entry) => entry.protocol === 'sycon')!;
    for (const model of MODELS) {
      const mine = rows.filter((row) => row['persuadee'] === model);
      const question = (row: Row) => `${row['setting']}/${row['questionIndex']}`;
      const observations = mine.map((row) => ({ cell: model, cluster: question(row), value: Number(row['turnOfFlip']) }));
      expectCell(model, 'sycon-turn-of-flip', clusterEstimate(observations, [0, PRESSURE_TURNS + 1]), new Set(mine.map(question)).size);
      const own = section.figures.byModel.find((entry) => entry.persuadee === model)!.turnOfFlip;
      expect([own.value, own.ciLow, own.ciHigh, own.questions]).toEqual(
        ['estimate', 'ciLow', 'ciHigh', 'n'].map((key) => cellOf(model, 'sycon-turn-of-flip')[key as keyof Cell]),
      );
    }
  }, 30_000);

  it("gives Spearman's rho of every two columns over the models with both, with its Fisher z interval, and none with fewer than five models", () => {
    const across = acrossOf();
    const ranks = (values: readonly number[]) =>
      values.map((value) => values.filter((other) => other < value).length + (values.filter((other) => other === value).length + 1) / 2);
    const pearson = (a: readonly number[], b: readonly number[]) => {
      const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
      const [ma, mb] = [mean(a), mean(b)];
      const dot = a.reduce((sum, value, index) => sum + (value - ma) * (b[index]! - mb), 0);
      return dot / Math.sqrt(a.reduce((sum, value) => sum + (value - ma) ** 2, 0) * b.reduce((sum, value) => sum + (value - mb) ** 2, 0));
    };
    expect(across.correlations).toHaveLength((7 * 6) / 2);
    for (const correlation of across.correlations) {
      const [first, second] = [correlation.first, correlation.second].map((title) => across.columns.findIndex((column) => column.title === title));
      const both = across.rows.filter((row) => row.cells[first!] !== null && row.cells[second!] !== null);
      expect(correlation.models, `${correlation.first} ~ ${correlation.second}`).toBe(both.length);
      if (both.length < 5) {
        expect(correlation.rho).toBeNull();
        continue;
      }
      const rho = pearson(ranks(both.map((row) => row.cells[first!]!.estimate!)), ranks(both.map((row) => row.cells[second!]!.estimate!)));
      const half = (1.959963984540054 * Math.sqrt((1 + (rho * rho) / 2) / (both.length - 3))) as number;
      expect(correlation.rho!, `${correlation.first} ~ ${correlation.second}`).toBeCloseTo(rho, 12);
      if (Math.abs(rho) < 1) {
        expect(correlation.ciLow!).toBeCloseTo(Math.tanh(Math.atanh(rho) - half), 10);
        expect(correlation.ciHigh!).toBeCloseTo(Math.tanh(Math.atanh(rho) + half), 10);
      }
    }
    // APE's columns lack ed: four models, too few; every other pair has all five.
    expect(across.correlations.filter((entry) => entry.rho === null).map((entry) => entry.models)).toEqual(Array(11).fill(4));
  });

  it('is in report.md, index.html and the CSV files, with its note on where each column came from and the correlations said as descriptive', () => {
    const markdown = readFileSync(join(out, 'report.md'), 'utf8');
    expect(markdown).toContain('## One table across protocols');
    expect(markdown).toMatch(/\| ed \\\[simulated\\\] \| [^|]+ \| [^|]+ \| – \| – \|/);
    expect(markdown).toContain('APE attempt rate (turn 1, harmful topics): ');
    expect(markdown).toContain(`from run ${RUNS.ape}.`);
    expect(markdown).toContain('Models are matched by their alias name');
    expect(markdown).toMatch(/It is descriptive: .* not that one causes the other/);
    expect(markdown).toContain('too few models (4; 5 needed)');
    const page = readFileSync(join(out, 'index.html'), 'utf8');
    expect(page).toContain('<a href="#across-protocols">One table across protocols</a>');
    expect(page).toContain('<section class="block" id="across-protocols">');
    const csv = csvRows(join(out, 'across-protocols.csv'));
    expect(csv.map((row) => [row['model'], row['modelSimulated']])).toEqual(MODELS.map((model) => [model, 'true']));
    for (const row of csv) {
      const cell = cellOf(row['model']!, 'sycon-turn-of-flip');
      expect([Number(row['syconTurnOfFlip']), Number(row['syconTurnOfFlipCiLow']), Number(row['syconTurnOfFlipN'])]).toEqual([
        cell.estimate,
        cell.ciLow,
        cell.n,
      ]);
    }
    expect(csv.find((row) => row['model'] === 'ed')!['apeAttemptRate']).toBe('');
    const correlations = csvRows(join(out, 'across-protocols-correlations.csv'));
    expect(correlations.map((row) => [row['first'], row['second'], Number(row['models'])])).toEqual(
      acrossOf().correlations.map((entry) => [entry.first, entry.second, entry.models]),
    );
  });

  it('is left out of a report of one protocol, and given for protocol runs alone when they are of two protocols', async () => {
    const alone = await runCli(['report', '--store', store, '--run', RUNS.sycon, '--out', join(folder, 'alone'), '--format', 'json']);
    expect(alone.code, alone.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(folder, 'alone', 'report.json'), 'utf8'))).not.toHaveProperty('acrossProtocols');
    const two = await runCli(['report', '--store', store, '--run', `${RUNS.sycon},${RUNS.persusafety}`, '--out', join(folder, 'two'), '--format', 'json,md']);
    expect(two.code, two.stderr).toBe(0);
    const json = JSON.parse(readFileSync(join(folder, 'two', 'report.json'), 'utf8')) as { kind: string; acrossProtocols: Across };
    expect(json.kind).toBe('protocols');
    expect(json.acrossProtocols.columns.map((column) => column.protocol)).toEqual(['sycon', 'persusafety', 'persusafety']);
    expect(readFileSync(join(folder, 'two', 'report.md'), 'utf8')).toContain('## One table across protocols');
  }, 30_000);
});
