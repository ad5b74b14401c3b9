import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_TAXONOMIES } from '../src/config/taxonomy/built-in-taxonomies.js';
import type { ReportDocument } from '../src/report/report-document.js';
import { MIGRATIONS, PMIYC_APPLICATION_ID, SCHEMA_VERSION } from '../src/store/migrations.js';
import { openStore } from '../src/store/result-store.js';
import type { RunConfig } from '../src/studies/run-config.js';
import { runCli } from './cli-helpers.js';

/*
 * A store of every schema version in pmiyc's history, each holding the runs of its era with their
 * configs as that era's pmiyc wrote them: each is read into the typed run config of its kind, and
 * `pmiyc runs`, `report` and a tournament's `--resume` work on it.
 */

const SAMPLING = { temperature: 0.7, maxOutputTokens: 400, maxAttempts: 3 };
const SIM_MODEL = (name: string) => ({ name, provider: 'sim', model: name.slice('sim/'.length), timeoutMs: 120_000, maxRetries: 6 });
const CLAIMS_RECORD = { count: 1, licences: ['MIT'] };

/** A tournament's design as `pmiyc run` has stored it from the start: one pair, one claim, single-turn. */
const DESIGN = {
  persuaders: ['sim/eloquent'],
  persuadees: ['sim/stubborn'],
  settings: ['single'],
  multiTurns: 9,
  repetitions: 1,
  claims: { source: 'examples', limit: 1 },
  sampling: SAMPLING,
};

interface EraRun {
  readonly name: string;
  /** The first schema version whose pmiyc wrote such a run. */
  readonly since: number;
  readonly config: Record<string, unknown>;
  readonly planned?: number;
  /** What the store reads of it. */
  readonly expected: (config: RunConfig) => unknown;
  readonly read: unknown;
}

const ERA_RUNS: readonly EraRun[] = [
  {
    // The first pmiyc (schema 1): a demo kept its models as a list of names and its settings as a list.
    name: 'demo-1',
    since: 1,
    config: {
      command: 'demo',
      models: ['sim/eloquent', 'sim/stubborn'],
      settings: ['single', 'multi'],
      turns: { single: 3, multi: 9 },
      claims: 'examples',
      seed: 1,
    },
    expected: (config) => config.kind === 'tournament' && [config.command, config.design, config.models, config.settings],
    read: ['demo', undefined, undefined, undefined],
  },
  {
    // A tournament stored by a library caller before runs named their command.
    name: 'library-1',
    since: 2,
    config: { design: DESIGN, models: { 'sim/eloquent': SIM_MODEL('sim/eloquent'), 'sim/stubborn': SIM_MODEL('sim/stubborn') } },
    planned: 1,
    expected: (config) => config.kind === 'tournament' && [config.command, config.design?.persuaders, Object.keys(config.models ?? {})],
    read: [undefined, ['sim/eloquent'], ['sim/eloquent', 'sim/stubborn']],
  },
  {
    name: 'run-1',
    since: 2,
    config: {
      command: 'run',
      design: DESIGN,
      claims: CLAIMS_RECORD,
      models: { 'sim/eloquent': SIM_MODEL('sim/eloquent'), 'sim/stubborn': SIM_MODEL('sim/stubborn') },
    },
    planned: 1,
    expected: (config) => config.kind === 'tournament' && [config.command, config.design?.claims, config.models?.['sim/stubborn']?.provider, config.settings],
    read: ['run', { source: 'examples', limit: 1 }, 'sim', undefined],
  },
  {
    name: 'consistency-1',
    since: 3,
    config: {
      command: 'consistency',
      design: { models: ['sim/eloquent'], samples: 2, claims: { source: 'examples', limit: 1 }, sampling: SAMPLING },
      tournamentRun: 'run-1',
      simulated: ['sim/eloquent'],
      claims: CLAIMS_RECORD,
      models: { 'sim/eloquent': SIM_MODEL('sim/eloquent') },
    },
    expected: (config) => config.kind === 'consistency' && [config.design?.models, config.tournamentRun, config.simulated],
    read: [['sim/eloquent'], 'run-1', ['sim/eloquent']],
  },
  {
    name: 'consistency-import-1',
    since: 3,
    config: { command: 'consistency', import: { file: '/data/answers.csv', model: 'gpt-4', rows: 3 }, simulated: [] },
    expected: (config) => config.kind === 'consistency' && [config.design, config.import?.model],
    read: [undefined, 'gpt-4'],
  },
  {
    name: 'judge-1',
    since: 3,
    config: {
      command: 'judge',
      design: { judges: ['sim/oracle'], pairs: { source: 'examples' }, sampling: SAMPLING },
      pairs: { source: 'examples', license: 'MIT', count: 2, available: 2, claims: 1 },
      models: { 'sim/oracle': SIM_MODEL('sim/oracle') },
    },
    expected: (config) => config.kind === 'judge' && [config.design.judges, config.design.pairs.source],
    read: [['sim/oracle'], 'examples'],
  },
  {
    name: 'synthesis-1',
    since: 3,
    config: {
      command: 'judge-synthesize',
      design: { model: 'sim/eloquent', claims: { source: 'examples' }, sampling: SAMPLING },
      claims: CLAIMS_RECORD,
      models: { 'sim/eloquent': SIM_MODEL('sim/eloquent') },
      out: '/data/preferences.jsonl',
    },
    expected: (config) => config.kind === 'judge-synthesize' && config.design?.model,
    read: 'sim/eloquent',
  },
  {
    name: 'official-1',
    since: 7,
    config: {
      command: 'import',
      format: 'pmiyc-official',
      labelMatch: 'strict',
      imports: [{ importedAt: '2026-11-30T19:30:00Z', files: [{ path: '/x/results.json', sha256: 'ab'.repeat(32), records: 2, added: 2 }] }],
    },
    expected: (config) => config.kind === 'import' && [config.labelMatch, config.imports.map((entry) => entry.files.map((file) => file.path))],
    read: ['strict', [['/x/results.json']]],
  },
  {
    name: 'analysis-1',
    since: 10,
    config: {
      command: 'analyze',
      tournamentRun: 'run-1',
      design: { judges: ['sim/oracle'], taxonomy: Object.values(BUILT_IN_TAXONOMIES)[0], taxonomySource: 'techniques', probeDrift: false, sampling: SAMPLING },
      models: { 'sim/oracle': SIM_MODEL('sim/oracle') },
    },
    expected: (config) => config.kind === 'analyze' && [config.tournamentRun, config.design.judges, config.simulated, config.design.grain],
    read: ['run-1', ['sim/oracle'], [], undefined],
  },
  {
    name: 'people-1',
    since: 13,
    config: {
      command: 'people serve',
      design: { ...DESIGN, persuadees: ['person/*'], settings: ['multi'], claims: { source: 'examples' } },
      people: { role: 'persuadee', opponent: 'sim/eloquent', compare: [], turns: 9, text: {} },
      claims: CLAIMS_RECORD,
      models: { 'sim/eloquent': SIM_MODEL('sim/eloquent') },
    },
    expected: (config) => config.kind === 'people serve' && [config.people?.role, config.design?.persuadees],
    read: ['persuadee', ['person/*']],
  },
  {
    // A protocol's run beside PMIYC's (schema 16, APE): its design is the protocol's own, read by the protocol.
    name: 'ape-1',
    since: 16,
    config: {
      command: 'protocol',
      protocol: 'ape',
      design: { persuaders: ['sim/eloquent'], persuadee: 'sim/stubborn', evaluator: 'sim/oracle', repetitions: 1, sampling: { ...SAMPLING, temperature: 0.5 } },
      simulated: ['sim/eloquent', 'sim/stubborn', 'sim/oracle'],
      models: { 'sim/eloquent': SIM_MODEL('sim/eloquent') },
    },
    expected: (config) => config.kind === 'protocol' && [config.protocol, config.simulated, Object.keys(config.models ?? {})],
    read: ['ape', ['sim/eloquent', 'sim/stubborn', 'sim/oracle'], ['sim/eloquent']],
  },
];

const runsOfEra = (version: number) => ERA_RUNS.filter((run) => run.since <= version);

/** A store as the pmiyc of schema `version` left it: its migrations applied, its runs inserted in the columns it had. */
function writeStoreOfVersion(path: string, version: number): void {
  const database = new Database(path);
  for (const sql of MIGRATIONS.slice(0, version)) database.exec(sql);
  database.pragma(`user_version = ${version}`);
  // pmiyc marks its stores from schema 4 on; older ones are known by their runs table.
  if (version >= 4) database.pragma(`application_id = ${PMIYC_APPLICATION_ID}`);
  const columns = new Set((database.prepare('PRAGMA table_info(runs)').all() as Array<{ name: string }>).map((column) => column.name));
  for (const run of runsOfEra(version)) {
    const row: Record<string, unknown> = {
      name: run.name,
      created_at: '2026-11-30T08:00:00.000Z',
      seed: 1,
      package_version: '0.1.0',
      config: JSON.stringify(run.config),
      ...(columns.has('status') ? { status: 'interrupted', updated_at: '2026-11-30T08:00:00.000Z' } : {}),
      ...(columns.has('planned_conversations') && run.planned !== undefined ? { planned_conversations: run.planned } : {}),
    };
    const keys = Object.keys(row);
    database.prepare(`INSERT INTO runs (${keys.join(', ')}) VALUES (${keys.map((key) => `@${key}`).join(', ')})`).run(row);
  }
  database.close();
}

const VERSIONS = Array.from({ length: SCHEMA_VERSION }, (_, index) => index + 1);

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-history-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.each(VERSIONS)('a store of schema %i, with the runs of its era', (version) => {
  const path = () => join(folder, `schema-${version}.db`);

  it("reads each run's config into its kind's typed config", () => {
    writeStoreOfVersion(path(), version);
    const store = openStore(path(), { access: 'write' });
    try {
      for (const run of runsOfEra(version)) {
        const { config, storedConfig } = store.findRun(run.name);
        expect({ run: run.name, read: run.expected(config) }).toEqual({ run: run.name, read: run.read });
        expect(storedConfig).toEqual(run.config);
      }
    } finally {
      store.close();
    }
  });

  it('is upgraded once, then lists its runs, reports its tournament (with what it recorded of its models) and resumes it', async () => {
    const store = join(folder, `schema-${version}-cli.db`);
    writeStoreOfVersion(store, version);
    expect((await runCli(['upgrade', '--store', store])).code).toBe(0);
    const runs = await runCli(['runs', '--store', store]);
    expect(runs.stderr).toBe('');
    for (const run of runsOfEra(version)) expect(runs.stdout).toContain(run.name);
    const tournament = version >= 2 ? 'run-1' : 'demo-1';
    const out = join(folder, `report-${version}`);
    const report = await runCli(['report', '--store', store, '--run', tournament, '--out', out, '--format', 'json']);
    expect(report.stderr).toBe('');
    expect(report.code).toBe(0);
    const { meta } = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as ReportDocument;
    // The first demos named their models in a list: nothing is known of what served them (no alias "0", "1").
    expect(meta.aliases.map((alias) => [alias.alias, alias.provider, alias.temperature])).toEqual(
      version >= 2
        ? [
            ['sim/eloquent', 'sim', 0.7],
            ['sim/stubborn', 'sim', 0.7],
          ]
        : [],
    );
    if (version < 2) return;
    const resumed = await runCli(['run', '--store', store, '--run', 'run-1', '--resume']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/^conversations finished\s+1\s+1 of 1$/m);
  });
});
