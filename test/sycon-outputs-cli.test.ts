import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyconCellFigures, SyconDefenceComparison } from '../src/protocols/sycon/sycon-metrics.js';
import type { ProtocolItemAnswer, ProtocolItemsAnswer } from '../src/web/wire/protocol-items.js';
import { runCli } from './cli-helpers.js';
import { cliInProcess, servedUrl } from './support/cli-in-process.js';
import { SYCON_FIXTURE_FOLDER } from './support/sycon-fixture.js';
import { readSyconRecords } from './support/sycon-loopback.js';

/**
 * What `report`, `export`, `show`, `runs` and `view` give of a SYCON run (simulated agents, some of the judge's
 * answers unreadable): every number of the report's section recomputed from the exported CSV, the export from the
 * stored records, the conversation shown with each reply's label.
 */

const RUN = 'sycon-out';
const MODEL = 'sim/pliant?sycon.flip=0.3&sycon.return=0.2';
const JUDGE = 'sim/judge?malformed=0.1';

let folder: string;
let store: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-sycon-out-'));
  store = join(folder, 'runs.db');
  const args = ['run', '--protocol', 'sycon', '--models', MODEL, '--judge', JUDGE, '--questions', SYCON_FIXTURE_FOLDER, '--defences', 'independent'];
  const result = await runCli([...args, '--store', store, '--run', RUN]);
  expect(result.code, result.stderr).toBe(0);
}, 20_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

type Row = Record<string, string>;
/** The part of SYCON's report.json section read here (docs/design/protocols.md, "SYCON-Bench"). */
interface SyconFiguresJson {
  readonly byModel: readonly SyconCellFigures[];
  readonly cells: readonly SyconCellFigures[];
  readonly comparisons: readonly SyconDefenceComparison[];
}
const csvRows = (path: string): Row[] => parseCsv(readFileSync(path, 'utf8'), { columns: true }) as Row[];
const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

describe('the readers of a SYCON-Bench run', () => {
  it('exports a JSON line per conversation and two CSV files whose labels, Turn and Number of Flip are the stored ones', async () => {
    const lines = await runCli(['export', '--store', store, '--run', RUN, '--format', 'jsonl']);
    expect(lines.code, lines.stderr).toBe(0);
    const parsed = lines.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const records = readSyconRecords(store, RUN);
    expect(parsed.map((line) => line['item'])).toEqual(records.map((entry) => entry.itemKey));
    expect(parsed[0]).toMatchObject({ run: RUN, protocol: 'sycon', simulated: { persuadee: true, judge: true }, persuadee: MODEL });

    const out = join(folder, 'csv');
    const csv = await runCli(['export', '--store', store, '--run', RUN, '--format', 'csv', '--out', out]);
    expect(csv.code, csv.stderr).toBe(0);
    const conversations = csvRows(join(out, 'sycon-conversations.csv'));
    const turns = csvRows(join(out, 'sycon-turns.csv'));
    expect(conversations).toHaveLength(40);
    expect(turns).toHaveLength(200);
    for (const [index, { itemKey, record }] of records.entries()) {
      const row = conversations[index]!;
      const labels = record.turns.map((turn) => (turn.judgement.status === 'read' ? turn.judgement.value.label : 'unread'));
      expect([row['item'], row['labels'], row['defence'], row['persuadeeSimulated']]).toEqual([itemKey, labels.join(';'), record.defence, 'true']);
      // Turn of Flip from the labels: aligned replies before the first other, unknown past an unread one.
      const first = labels.findIndex((label) => label !== 'aligned');
      const tof = first < 0 ? String(labels.length) : labels[first] === 'unread' ? '' : String(first);
      expect(row['turnOfFlip'], itemKey).toBe(tof);
    }
    expect(turns.filter((row) => row['label'] === '').every((row) => row['unreadProblem'] !== '')).toBe(true);
    expect(turns.some((row) => row['label'] === '')).toBe(true);
  }, 20_000);

  it("writes the report's section, every Turn of Flip, Number of Flip and flip rate recomputed from the export", async () => {
    const out = join(folder, 'report');
    const report = await runCli(['report', '--store', store, '--run', RUN, '--out', out]);
    expect(report.code, report.stderr).toBe(0);
    const json = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { protocols: Array<{ protocol: string; figures: SyconFiguresJson }> };
    expect(json.protocols[0]!.protocol).toBe('sycon');
    const { figures } = json.protocols[0]!;
    const exported = join(folder, 'report-csv');
    expect((await runCli(['export', '--store', store, '--run', RUN, '--format', 'csv', '--out', exported])).code).toBe(0);
    const conversations = csvRows(join(exported, 'sycon-conversations.csv'));
    const turns = csvRows(join(exported, 'sycon-turns.csv'));
    for (const cell of figures.cells) {
      const rows = conversations.filter((row) => row['defence'] === cell.defence && (cell.scope === 'all' || row['setting'] === cell.scope));
      const known = (column: string) => rows.filter((row) => row[column] !== '').map((row) => Number(row[column]));
      expect(cell.turnOfFlip.value, `${cell.defence} ${cell.scope}`).toBeCloseTo(mean(known('turnOfFlip')), 12);
      expect(cell.numberOfFlip.value, `${cell.defence} ${cell.scope}`).toBeCloseTo(mean(known('numberOfFlip')), 12);
      expect(cell.turnOfFlip.questions).toBe(
        new Set(rows.filter((row) => row['turnOfFlip'] !== '').map((row) => `${row['setting']}${row['questionIndex']}`)).size,
      );
      expect(cell.unknown.turnOfFlip).toBe(rows.filter((row) => row['turnOfFlip'] === '').length);
      for (const rate of cell.flipRateByTurn) {
        const atRisk = turns.filter(
          (row) =>
            row['defence'] === cell.defence &&
            (cell.scope === 'all' || row['setting'] === cell.scope) &&
            row['turn'] === String(rate.turn) &&
            row['atRisk'] === 'true',
        );
        expect([rate.count, rate.flips], `${cell.defence} ${cell.scope} turn ${rate.turn}`).toEqual([
          atRisk.length,
          atRisk.filter((row) => row['flipped'] === 'true').length,
        ]);
      }
    }
    expect(figures.comparisons.map((entry) => [entry.defence, entry.scope, entry.measure])).toContainEqual(['independent', 'all', 'turnOfFlip']);
    expect(figures.byModel.map((cell) => [cell.persuadee, cell.defence])).toEqual([[MODEL, 'baseline']]);
    const markdown = readFileSync(join(out, 'report.md'), 'utf8');
    expect(markdown).toContain('## SYCON-Bench: how long does a model hold its stance? (run sycon-out)');
    expect(markdown).toContain('### Defences against the baseline, paired by question');
    expect(readFileSync(join(out, `${RUN}.turn-of-flip.csv`), 'utf8').split('\n')[0]).toContain('turnOfFlip,turnOfFlipCiLow,turnOfFlipCiHigh,turnOfFlipN');
  }, 20_000);

  it('shows one conversation with each push-back and reply, the labels and the outcome; runs names the protocol', async () => {
    const key = `${MODEL}/independent/false-presupposition-0002/repetition-000`;
    const shown = await runCli(['show', key, '--store', store]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('false presupposition question 2, defence independent:');
    expect(shown.stdout).toMatch(/persuader · turn 1 · push-back: benchmark/);
    expect(shown.stdout).toMatch(/persuadee · turn 0 · label: /);
    expect(shown.stdout).toContain('Turn of Flip');
    const runs = await runCli(['runs', '--store', store]);
    expect(runs.stdout).toMatch(/sycon-out +protocol sycon +completed/);
  }, 20_000);

  it("serves the run's conversations to the viewer, setting and defence as columns, and one conversation's page", async () => {
    const stop = new AbortController();
    const { done, output } = cliInProcess(['view', '--store', store, '--port', '0', '--no-open'], stop.signal);
    try {
      const url = await servedUrl(output);
      const list = (await (await fetch(`${url}api/runs/${RUN}/items?defence=independent`)).json()) as ProtocolItemsAnswer;
      expect([list.protocol, list.all, list.total]).toEqual(['sycon', 40, 20]);
      expect(list.columns.map((column) => column.name)).toEqual(expect.arrayContaining(['setting', 'defence', 'Turn of Flip']));
      const key = list.rows[0]!.itemKey;
      const item = (await (await fetch(`${url}api/runs/${RUN}/items/${encodeURIComponent(key)}`)).json()) as ProtocolItemAnswer;
      expect(item.participants).toContainEqual({ role: 'persuadee', model: MODEL, simulated: true });
      expect(item.turns).toHaveLength(9);
    } finally {
      stop.abort();
      expect(await done).toBe(0);
    }
  }, 20_000);
});
