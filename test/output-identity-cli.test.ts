import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';
import { differencesFromFixtures, type Outputs, writeFixtures } from './support/golden-files.js';
import { dumpStore, WALL_CLOCK } from './support/store-dump.js';

/**
 * What pmiyc stores and exports stays byte-identical: a tournament, an analysis and a sequential run of
 * simulated agents on fixed seeds, each run by the built CLI in a temp folder, are compared with the
 * golden files under test/fixtures/output-identity/<scenario>/: the store's every table, row by row
 * (support/store-dump.ts), `pmiyc export` in each of its formats, and the report's JSON and CSV files.
 * Only wall-clock values and the temp folder's path are replaced (each listed with why: the store's
 * columns in support/store-dump.ts, WALL_CLOCK_COLUMNS; the report's keys below, REPORT_WALL_CLOCK_KEYS);
 * everything else must match byte for byte, exit codes included. A change to the hot path (store
 * writes, JSON, progress) must leave these bytes alone.
 *
 * When a change of these bytes is deliberate, regenerate the fixtures and say in the commit what
 * changed and why (docs/design/architecture.md, "Output identity"):
 *
 *   npm run build && UPDATE_FIXTURES=1 npx vitest run test/output-identity-cli.test.ts
 *
 * The store file's own bytes are not compared: every call row holds the clock (created_at,
 * latency_ms), the run's lease (pid, host, times) is written and deleted and leaves its bytes in freed
 * pages, and the header counts commits, whose number depends on timing (src/store/commit-queue.ts).
 */

const FIXTURES = fileURLToPath(new URL('./fixtures/output-identity/', import.meta.url));
const UPDATE_FIXTURES = process.env['UPDATE_FIXTURES'] === '1';

/**
 * Keys of report.json whose values say when, with what or from which checkout the report was made, not
 * what it reports: `createdAt` (the run's start, the clock), `generatedAt` (the clock), `generatedBy`
 * and `packageVersion` (pmiyc's version, changed by a release), `gitRevision` (changed by every commit).
 */
const REPORT_WALL_CLOCK_KEYS = ['createdAt', 'generatedAt', 'generatedBy', 'packageVersion', 'gitRevision'] as const;

/** The tournament: two agents, the second breaking the format now and then (one conversation fails), with drift probes. */
const TOURNAMENT_RUN = [
  'run',
  '--models',
  'sim/eloquent,sim/weak?malformed=0.15',
  '--claims',
  'examples',
  '--limit',
  '2',
  '--seed',
  '3',
  '--probe-drift',
  '--max-attempts',
  '2',
  '--run',
  'tournament',
];

/** The tournament the analysis labels: a persuader that plants techniques, an unethical strategy and refusals. */
const ANALYSED_RUN = [
  'run',
  '--persuaders',
  'sim/planted?technique.logos=0.4:0.2&unethical.deception=0.3&refuse=0.15',
  '--persuadees',
  'sim/stubborn,sim/open-minded',
  '--setting',
  'multi',
  '--claims',
  'examples',
  '--limit',
  '2',
  '--seed',
  '4',
  '--run',
  'analysed',
];

/**
 * The analysis, its arguments kept here alone. The fixtures hold a study of the per-turn grain (the
 * only grain before the conversation grain became the default), asked for with `--grain turn`: a
 * per-turn study stores no grain key, so its bytes are those of the build before.
 */
const ANALYZE = [
  'analyze',
  '--run',
  'analysed',
  '--judge',
  'sim/judge?labelError=0.1,sim/judge2?labelError=0.2',
  '--grain',
  'turn',
  '--probe-drift',
  '--seed',
  '5',
  '--study',
  'analysis',
];

/** The sequential run: two agents far apart, so that it settles (after 20 of its 40 claims) before its claims run out. */
const SEQUENTIAL_RUN = [
  'run',
  '--models',
  'sim/strong?persuasiveness=0.95&susceptibility=0.05,sim/soft?persuasiveness=0.1&susceptibility=0.95',
  '--claims',
  'claims.jsonl',
  '--setting',
  'single',
  '--until',
  'settled',
  '--wave',
  '5',
  '--confidence',
  '0.5',
  '--seed',
  '7',
  '--run',
  'sequential',
];

const EXPORT_FORMATS = { jsonl: 'export.jsonl', csv: 'export.csv', 'turns-csv': 'export-turns.csv' } as const;

let root: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'pmiyc-output-identity-')));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A scenario's own folder, the working folder of its commands (no pmiyc.yaml there: built-in settings only). */
function scenarioFolder(name: string): string {
  const folder = join(root, name);
  mkdirSync(folder);
  return folder;
}

/** Runs the CLI in `folder` on its store.db; the exit code is part of what must not change. */
async function pmiyc(folder: string, args: readonly string[], expectedExitCode = 0): Promise<string> {
  const result = await runCli([...args, '--store', 'store.db'], { cwd: folder });
  expect(result.code, `pmiyc ${args.join(' ')}\n${result.stderr}`).toBe(expectedExitCode);
  return result.stdout;
}

function withoutReportWallClock(json: string): string {
  const keys = REPORT_WALL_CLOCK_KEYS.join('|');
  return json.replace(new RegExp(`^(\\s*"(?:${keys})": )"[^"]*"`, 'gm'), `$1"${WALL_CLOCK}"`);
}

/** `pmiyc export` of `run` in every format, and its report's JSON and CSV files. */
async function exportsOf(folder: string, run: string): Promise<Map<string, string>> {
  const outputs = new Map<string, string>();
  for (const [format, name] of Object.entries(EXPORT_FORMATS)) {
    outputs.set(name, await pmiyc(folder, ['export', '--run', run, '--format', format]));
  }
  const reportFolder = join(folder, 'report');
  await pmiyc(folder, ['report', '--run', run, '--format', 'json,csv', '--out', reportFolder]);
  for (const file of readdirSync(reportFolder).sort()) {
    if (!/\.(json|csv)$/.test(file)) continue;
    const content = readFileSync(join(reportFolder, file), 'utf8');
    outputs.set(`report/${file}`, file.endsWith('.json') ? withoutReportWallClock(content) : content);
  }
  return outputs;
}

/** Every output with the scenario's temp folder named `<temp>` (a claims file's path is stored with its run). */
function withoutTempFolder(outputs: Map<string, string>, folder: string): Outputs {
  return new Map([...outputs].map(([name, content]) => [name, content.replaceAll(folder, '<temp>')]));
}

function expectSameAsFixtures(scenario: string, outputs: Outputs): void {
  const fixtures = join(FIXTURES, scenario);
  if (UPDATE_FIXTURES) writeFixtures(fixtures, outputs);
  const differences = differencesFromFixtures(fixtures, outputs);
  const remedy =
    'if this change of what pmiyc stores or exports is deliberate, regenerate the fixtures with ' +
    '`UPDATE_FIXTURES=1 npx vitest run test/output-identity-cli.test.ts` and explain the change in the commit';
  expect(differences, `${scenario}: ${differences.length} outputs differ from the fixtures; ${remedy}`).toEqual([]);
}

describe('what pmiyc stores and exports is byte-identical to the fixtures', () => {
  it('a tournament: its store, its exports and its report', async () => {
    const folder = scenarioFolder('tournament');
    // One conversation fails (the persuadee breaks the format twice in a row): the run exits 1.
    await pmiyc(folder, TOURNAMENT_RUN, 1);
    const outputs = await exportsOf(folder, 'tournament');
    outputs.set('store.txt', dumpStore(join(folder, 'store.db')));
    expectSameAsFixtures('tournament', withoutTempFolder(outputs, folder));
  });

  it("an analysis: the store with the study's labels and drift probes, the analysed run's exports and its report with the labels", async () => {
    const folder = scenarioFolder('analysis');
    await pmiyc(folder, ANALYSED_RUN);
    await pmiyc(folder, ANALYZE);
    const outputs = await exportsOf(folder, 'analysed');
    outputs.set('store.txt', dumpStore(join(folder, 'store.db')));
    expectSameAsFixtures('analysis', withoutTempFolder(outputs, folder));
  });

  it('a sequential run (--until settled): its store, its exports and its report', async () => {
    const folder = scenarioFolder('sequential');
    const claims = Array.from({ length: 40 }, (_, index) => JSON.stringify({ claim: `Test claim number ${index}` }));
    writeFileSync(join(folder, 'claims.jsonl'), `${claims.join('\n')}\n`);
    await pmiyc(folder, SEQUENTIAL_RUN);
    const outputs = await exportsOf(folder, 'sequential');
    outputs.set('store.txt', dumpStore(join(folder, 'store.db')));
    expectSameAsFixtures('sequential', withoutTempFolder(outputs, folder));
  });
});
