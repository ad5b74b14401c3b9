import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApeStoredRecord } from '../src/protocols/ape/run/ape-record.js';
import { runCli } from './cli-helpers.js';
import { apeLoopbackAnswer, apeRunArgs, readApeRecords, writeApeModelsConfig } from './support/ape-loopback.js';
import { FakeProviderServer, RESPONSE_SHAPES } from './support/fake-provider-server.js';

/**
 * `pmiyc report` of an APE run, made by the built CLI against a loopback server with planted rates
 * (support/ape-loopback.ts): index.html, report.md, report.json and one CSV per table carry APE's rates by
 * turn, recomputed here from the run's stored records; a tournament reported beside it keeps its own files
 * byte for byte, and its simulated agents keep their label.
 */

let folder: string;
let server: FakeProviderServer;
let store: string;
let config: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-ape-report-'));
  server = await FakeProviderServer.start();
  server.answerWith((request) => ({ status: 200, body: RESPONSE_SHAPES.openaiChat(apeLoopbackAnswer(request)) }));
  config = writeApeModelsConfig(folder, server.url);
  store = join(folder, 'runs.db');
  for (const args of [
    apeRunArgs(store, config, '--run', 'ape-a'),
    apeRunArgs(store, config, '--run', 'ape-degree', '--state-degree', '--categories', 'UnderminingControl,BenignFactual'),
    ['run', '--models', 'sim/eloquent,sim/weak', '--setting', 'single', '--limit', '3', '--store', store, '--run', 'tour'],
  ]) {
    const result = await runCli(args);
    expect(result.code, result.stderr).toBe(0);
  }
}, 240_000);
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Writes the report of `runs` (every format) in its own folder and reads its files back. */
async function report(out: string, ...args: string[]) {
  const result = await runCli(['report', '--store', store, '--out', join(folder, out), ...args]);
  expect(result.code, result.stderr).toBe(0);
  const read = (file: string) => readFileSync(join(folder, out, file), 'utf8');
  return { result, read, exists: (file: string) => existsSync(join(folder, out, file)) };
}

type Rate = { rate: number; ciLow: number; ciHigh: number; topics: number; thin: boolean };
type Persuader = { model: string; topics: number; headline: Rate; byTurn: Array<{ turn: number; attempt: Rate; refusal: Rate; noAttempt: Rate }> };

/** Each class's share of a persuader's classified turns at one turn, counted from the stored records. */
function recomputedRates(records: readonly ApeStoredRecord[], persuader: string, turn: number) {
  const classes = records
    .filter((record) => record.persuader === persuader)
    .map((record) => record.turns.find((entry) => entry.turn === turn)!.evaluation)
    .map((evaluation) => (evaluation.status === 'read' ? evaluation.value.turnClass : evaluation.status === 'withheld' ? 'refusal' : null))
    .filter((turnClass) => turnClass !== null);
  const share = (turnClass: string) => classes.filter((entry) => entry === turnClass).length / classes.length;
  return { attempt: share('attempt'), refusal: share('refusal'), noAttempt: share('no-attempt') };
}

const two = (value: number) => value.toFixed(2);
/** How report.md writes an estimate cell ("0.67 [0.37, 0.96] (n = 12)"). */
const markdownEstimate = (rate: Rate) => `${two(rate.rate)} ${rate.thin ? '~' : ''}[${two(rate.ciLow)}, ${two(rate.ciHigh)}] (n = ${rate.topics})`;

describe('pmiyc report of an APE run', () => {
  it('reports the latest APE run when no run is named and the store has no tournament', async () => {
    const apeOnly = join(folder, 'ape-only.db');
    expect((await runCli(apeRunArgs(apeOnly, config, '--run', 'only-ape'))).code).toBe(0);
    const result = await runCli(['report', '--store', apeOnly, '--out', join(folder, 'ape-only')]);
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(readFileSync(join(folder, 'ape-only', 'report.json'), 'utf8')) as { kind: string; protocols: Array<{ run: string }> };
    expect(json.kind).toBe('protocols');
    expect(json.protocols.map((section) => section.run)).toEqual(['only-ape']);
    // "What ran" gives each alias the temperature the run sampled at (APE's 0.5), as it does for a tournament.
    const aliases = (json as unknown as { meta: { aliases: Array<{ alias: string; temperature: number | null }> } }).meta.aliases;
    expect(aliases.map((alias) => [alias.alias, alias.temperature])).toEqual(aliases.map((alias) => [alias.alias, 0.5]));
    expect(aliases.length).toBeGreaterThan(0);
  }, 120_000);

  it('writes index.html, report.md, report.json and a CSV per table with the rates of the stored records', async () => {
    const records = readApeRecords(store, 'ape-a').map((entry) => entry.record);
    const { read, exists } = await report('ape', '--run', 'ape-a');
    const json = JSON.parse(read('report.json')) as {
      kind: string;
      meta: { runs: Array<{ name: string; seed: number }>; aliases: Array<{ alias: string; provider: string }> };
      protocols: Array<{ run: string; protocol: string; conversations: number; figures: { persuaders: Persuader[] } }>;
    };
    expect(json.kind).toBe('protocols');
    expect(json.meta.runs.map((run) => run.name)).toEqual(['ape-a']);
    expect(json.meta.aliases.map((alias) => [alias.alias, alias.provider])).toContainEqual(['judge', 'openai-compatible']);
    const [section] = json.protocols;
    expect(section).toMatchObject({ run: 'ape-a', protocol: 'ape', conversations: records.length });

    const csv = read('ape-a.rates-by-turn.csv').trim().split('\n');
    const header = csv[0]!.split(',');
    expect(header.slice(0, 8)).toEqual(['persuader', 'persuaderSimulated', 'turn', 'attempt', 'attemptCiLow', 'attemptCiHigh', 'attemptN', 'attemptThin']);
    const markdown = read('report.md');
    const page = read('index.html');
    for (const persuader of ['careful', 'willing']) {
      const figures = section!.figures.persuaders.find((entry) => entry.model === persuader)!;
      expect(figures.topics).toBe(12);
      for (const turn of [1, 2, 3]) {
        const stored = recomputedRates(records, persuader, turn);
        const shown = figures.byTurn.find((entry) => entry.turn === turn)!;
        for (const kind of ['attempt', 'refusal', 'noAttempt'] as const) expect(shown[kind].rate).toBeCloseTo(stored[kind], 12);
        const row = csv.find((line) => line.startsWith(`${persuader},false,${turn},`))!.split(',');
        expect(Number(row[header.indexOf('attempt')])).toBeCloseTo(stored.attempt, 12);
        expect(Number(row[header.indexOf('refusalCiLow')])).toBe(shown.refusal.ciLow);
        expect(Number(row[header.indexOf('noAttemptN')])).toBe(12);
        expect(markdown).toContain(
          `| ${persuader} | ${turn} | ${markdownEstimate(shown.attempt)} | ${markdownEstimate(shown.refusal)} | ${markdownEstimate(shown.noAttempt)} | 0 |`,
        );
        expect(page).toContain(`<span class="est">${two(stored.attempt)}</span>`);
      }
    }
    // The planted headline: careful refuses every harmful topic, willing attempts them all.
    const headline = (model: string) => section!.figures.persuaders.find((entry) => entry.model === model)!.headline.rate;
    expect([headline('careful'), headline('willing')]).toEqual([0, 1]);
    expect(exists('ape-a.headline.csv') && exists('ape-a.comparisons.csv') && exists('ape-a.belief-change.csv')).toBe(true);
    // No degree was told: a sentence says why there is no degree check, and no table is written.
    expect(markdown).toContain('The persuaders were told no persuasion degree');
    expect(exists('ape-a.degree-check.csv')).toBe(false);
    // What ran, and no simulated notice: every model of this run is served by a real (loopback) server.
    expect(page).toContain('<section class="block" id="provenance">');
    expect(markdown).toContain('## What ran');
    expect(page).not.toContain('class="badge sim"');
    expect(page).not.toContain('Simulated agents.');
    expect(exists('pairs.csv')).toBe(false);
  }, 120_000);

  it('checks the degree the persuader was told against the one the evaluator read, counted from the records', async () => {
    const records = readApeRecords(store, 'ape-degree').map((entry) => entry.record);
    const { read } = await report('ape-degree', '--run', 'ape-degree');
    const json = JSON.parse(read('report.json')) as {
      protocols: Array<{ figures: { degreeCheck: { statedDegree: boolean; tables: Array<{ model: string; turn: number; counts: number[][] }> } } }>;
    };
    const { degreeCheck } = json.protocols[0]!.figures;
    expect(degreeCheck.statedDegree).toBe(true);
    for (const table of degreeCheck.tables) {
      const counts = [
        [0, 0],
        [0, 0],
      ];
      for (const record of records.filter((entry) => entry.persuader === table.model)) {
        const { evaluation } = record.turns.find((entry) => entry.turn === table.turn)!;
        if (evaluation.status === 'read') counts[record.degree!]![evaluation.value.degree]! += 1;
      }
      expect(table.counts).toEqual(counts);
    }
    const csv = read('ape-degree.degree-check.csv').split('\n');
    expect(csv[0]).toBe(
      'persuader,persuaderSimulated,turn,told0Read0,told0Read1,told1Read0,told1Read1,agreement,agreementCiLow,agreementCiHigh,agreementN,agreementThin,noDegreeRead',
    );
  }, 120_000);

  it('reports a tournament and an APE run together: the tournament files as alone, its simulated agents labelled, and the APE section beside them', async () => {
    const alone = await report('tour', '--run', 'tour');
    const apeAlone = await report('ape-again', '--run', 'ape-a');
    const both = await report('both', '--run', 'tour,ape-a');
    for (const file of ['pairs.csv', 'models.csv', 'claims.csv', 'claim-pairs.csv']) expect(both.read(file)).toBe(alone.read(file));
    const figuresOf = (text: string) => (JSON.parse(text) as { protocols: Array<{ figures: unknown }> }).protocols[0]!.figures;
    expect(figuresOf(both.read('report.json'))).toEqual(figuresOf(apeAlone.read('report.json')));
    // report.json is the tournament's, with the APE run listed among the runs, its section under protocols and the table across them.
    const withoutRuns = (text: string) => {
      const {
        meta,
        protocols: _protocols,
        acrossProtocols: _across,
        ...rest
      } = JSON.parse(text) as { meta: Record<string, unknown>; protocols?: unknown; acrossProtocols?: unknown };
      const { runs: _runs, aliases: _aliases, generatedAt: _generatedAt, ...kept } = meta;
      return { ...rest, meta: kept };
    };
    expect(withoutRuns(both.read('report.json'))).toEqual(withoutRuns(alone.read('report.json')));
    expect((JSON.parse(both.read('report.json')) as { meta: { runs: Array<{ name: string }> } }).meta.runs.map((run) => run.name)).toEqual(['tour', 'ape-a']);
    const markdown = both.read('report.md');
    expect(markdown).toContain('sim/eloquent \\[simulated\\]');
    expect(markdown).toContain('## APE: will a model try to persuade? (run ape-a)');
    expect(markdown).not.toContain('careful \\[simulated\\]');
    const page = both.read('index.html');
    expect(page).toContain('<a href="#ape-ape-a">ape run ape-a</a>');
    expect(page).toContain('sim/eloquent<span class="badge sim"');
    expect(page).toContain('<section class="block" id="effectiveness">');
    expect(both.exists('ape-a.rates-by-turn.csv')).toBe(true);
    expect(
      (JSON.parse(both.read('report.json')) as { acrossProtocols: { columns: Array<{ id: string }> } }).acrossProtocols.columns.map((column) => column.id),
    ).toEqual(['pmiyc-effectiveness', 'pmiyc-susceptibility', 'ape-attempt-rate', 'ape-refusal-rate']);
    expect(alone.exists('across-protocols.csv')).toBe(false);
  }, 120_000);

  it('refuses to --compare a protocol run, or to show an analysis study with protocol runs alone, and says what to do instead', async () => {
    const refused = await runCli(['report', '--store', store, '--compare', 'tour,ape-a', '--out', join(folder, 'compare')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('run ape-a is a run of the ape protocol: report it with --run ape-a');
    const analysis = await runCli(['report', '--store', store, '--run', 'ape-a', '--analysis', 'labels', '--out', join(folder, 'analysis')]);
    expect(analysis.code).toBe(2);
    expect(analysis.stderr).toContain('the reported runs are protocol runs: drop --analysis');
  }, 60_000);
});
