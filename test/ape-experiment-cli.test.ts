import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readApeRecord } from '../src/protocols/ape/run/ape-record.js';
import { openStore } from '../src/store/result-store.js';
import { runCli } from './cli-helpers.js';
import { APE_FIXTURE_TOPICS as APE_TOPICS_FILE, apeLoopbackAnswer } from './support/ape-loopback.js';
import { FakeProviderServer, RESPONSE_SHAPES } from './support/fake-provider-server.js';
import { storedRun } from './support/run-fixtures.js';

/**
 * `protocol: ape` in the experiment file (docs/configuration.md): a plain `pmiyc run` runs the APE run the file
 * describes, the same run its flags make (the same stored design, the same conversations); a flag typed wins over
 * the file's key; another protocol's keys are refused, and an experiment of another protocol than --protocol is
 * left out, and said.
 */

let folder: string;
let server: FakeProviderServer;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-ape-experiment-'));
  server = await FakeProviderServer.start();
  server.answerWith((request) => ({ status: 200, body: RESPONSE_SHAPES.openaiChat(apeLoopbackAnswer(request)) }));
  // The topic file beside the config, named relative to it, as a user keeps them.
  mkdirSync(join(folder, 'study'));
  copyFileSync(APE_TOPICS_FILE, join(folder, 'study', 'topics.jsonl'));
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

const models = () =>
  ['willing', 'careful', 'person', 'judge']
    .map((name) => `  ${name}: { provider: openai-compatible, model: ${name}-model, baseURL: "${server.url}/v1", maxRetries: 0 }\n`)
    .join('');

/** A config with the APE experiment `experiment` (YAML lines under `experiment:`), in the study folder. */
function writeConfig(name: string, experiment: string): string {
  const path = join(folder, 'study', `${name}.yaml`);
  writeFileSync(path, `models:\n${models()}experiment:\n${experiment}`);
  return path;
}

const APE_EXPERIMENT = `  protocol: ape
  models: [willing, careful]
  persuadee: person
  evaluator: judge
  refusalCheck: judge
  categories: [Conspiracy, UnderminingControl]
  topics: { file: topics.jsonl, limit: 3 }
  stateDegree: true
  repetitions: 2
  seed: 7
  sampling: { temperature: 0.3, maxTokens: 300 }
`;

function runOf(store: string, runName: string) {
  const opened = openStore(store, { access: 'read' });
  try {
    const run = opened.findRun(runName);
    return { run, records: [...opened.protocolRecords.list(run.id)].map((stored) => readApeRecord(runName, stored)) };
  } finally {
    opened.close();
  }
}

describe('protocol: ape in the experiment file', () => {
  it('runs the APE run the file describes with a plain pmiyc run, the same run as its flags make', async () => {
    const config = writeConfig('ape', `${APE_EXPERIMENT}  store: from-file.db\n`);
    const fromFile = await runCli(['run', '--config', config, '--run', 'a']);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    const flags = [
      ...['run', '--protocol', 'ape', '--models', 'willing,careful', '--persuadee', 'person', '--evaluator', 'judge', '--refusal-check', 'judge'],
      ...['--categories', 'Conspiracy,UnderminingControl', '--topics', join(folder, 'study', 'topics.jsonl'), '--limit', '3', '--state-degree'],
      ...['--repeat', '2', '--seed', '7', '--temperature', '0.3', '--max-tokens', '300', '--run', 'a'],
    ];
    const fromFlags = await runCli([...flags, '--config', writeConfig('models-only', ''), '--store', join(folder, 'from-flags.db')]);
    expect(fromFlags.code, fromFlags.stderr).toBe(0);
    // The file's store is relative to its folder.
    const file = runOf(join(folder, 'study', 'from-file.db'), 'a');
    const typed = runOf(join(folder, 'from-flags.db'), 'a');
    expect(file.run.seed).toBe(7);
    expect(storedRun(join(folder, 'study', 'from-file.db'), 'a').config['design']).toEqual(storedRun(join(folder, 'from-flags.db'), 'a').config['design']);
    expect(storedRun(join(folder, 'study', 'from-file.db'), 'a').config['design']).toMatchObject({
      persuaders: ['willing', 'careful'],
      refusalCheck: 'judge',
      repetitions: 2,
      statedDegree: true,
      sampling: { temperature: 0.3, maxOutputTokens: 300 },
    });
    // 2 persuaders x 3 topics x 2 repetitions, the same conversations word for word.
    expect(file.records).toHaveLength(12);
    expect(file.records).toEqual(typed.records);
  }, 120_000);

  it("takes a flag typed on the command line over the file's key, and a resume keeps the run's own design", async () => {
    const config = writeConfig('ape-typed', APE_EXPERIMENT);
    const store = join(folder, 'typed.db');
    const typed = await runCli(['run', '--config', config, '--store', store, '--run', 'b', '--repeat', '1', '--categories', 'Conspiracy', '--dry-run']);
    expect(typed.code, typed.stderr).toBe(0);
    expect(typed.stdout).toContain('APE run: 2 persuaders x 2 topics');
    expect(typed.stdout).toContain('x 1 repetitions = 4 conversations of 3 persuader turns, at temperature 0.3');
    const started = await runCli(['run', '--config', config, '--store', store, '--run', 'b', '--repeat', '1']);
    expect(started.code, started.stderr).toBe(0);
    // --resume reads the protocol from the file, and the run's design from the run, not the file's repetitions.
    const resumed = await runCli(['run', '--config', config, '--store', store, '--run', 'b', '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('0 conversations this session, 6 already stored');
  }, 120_000);

  it("refuses another protocol's keys in the file, naming them, and leaves out an experiment of another protocol than --protocol, saying so", async () => {
    const mixed = writeConfig('mixed', `${APE_EXPERIMENT}  settings: multi\n  budget: { maxFailures: 3 }\n`);
    const refused = await runCli(['run', '--config', mixed, '--store', join(folder, 'mixed.db')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('experiment.settings');
    expect(refused.stderr).toContain('is for protocol: pmiyc, and this experiment is protocol: ape');
    expect(refused.stderr).toContain('experiment.budget.maxFailures');
    const tournamentWithApeKey = writeConfig('stray', '  models: [willing, careful]\n  evaluator: judge\n');
    const stray = await runCli(['run', '--config', tournamentWithApeKey, '--store', join(folder, 'stray.db')]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('is for protocol: ape, and this experiment is protocol: pmiyc: set protocol: ape, or remove it');
    const other = await runCli([
      ...['run', '--protocol', 'pmiyc', '--config', writeConfig('ape-other', APE_EXPERIMENT), '--models', 'sim/eloquent,sim/stubborn'],
      ...['--claims', 'examples', '--setting', 'single', '--limit', '1', '--store', join(folder, 'other.db'), '--dry-run'],
    ]);
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).toContain('is one of protocol ape: --protocol pmiyc leaves it out');
    expect(other.stdout).toContain('Dry run: nothing is called.');
  }, 120_000);
});
