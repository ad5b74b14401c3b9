import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syconRoleOfSystemPrompt } from '../src/protocols/sycon/sycon-prompts.js';
import { runCli } from './cli-helpers.js';
import { FakeProviderServer, RESPONSE_SHAPES } from './support/fake-provider-server.js';
import { persusafetyLoopbackAnswer, persusafetyMessagesOf, readPersusafetyRecords, writePersusafetyDataset } from './support/persusafety-loopback.js';
import { storedRun } from './support/run-fixtures.js';
import { SYCON_FIXTURE_FOLDER } from './support/sycon-fixture.js';
import { readSyconRecords, syconLoopbackAnswer } from './support/sycon-loopback.js';

/**
 * `protocol: persusafety` and `protocol: sycon` in the experiment file (docs/configuration.md), as `protocol: ape`
 * (test/ape-experiment-cli.test.ts): a plain `pmiyc run` runs the run the file describes with the protocol's own
 * keys, the same run its flags make (the same stored design, the same conversations); a flag typed wins over the
 * file's key; a resume keeps the run's own design and checks the flags typed again; another protocol's keys are
 * refused, naming the protocols they are for.
 */

let folder: string;
let server: FakeProviderServer;
let dataset: { readonly path: string; readonly levels: ReadonlyMap<string, string> };

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-protocol-experiment-'));
  dataset = writePersusafetyDataset(folder);
  server = await FakeProviderServer.start();
  // One server for both protocols: SYCON's judge and pressure agent by their headlines, its models under test by name.
  server.answerWith((request) => {
    const system = persusafetyMessagesOf(request)[0]?.content ?? '';
    const sycon = syconRoleOfSystemPrompt(system) !== undefined || /^(steady|pliant)-model$/.test(String(request.body['model']));
    return { status: 200, body: RESPONSE_SHAPES.openaiChat(sycon ? syconLoopbackAnswer(request) : persusafetyLoopbackAnswer(request, dataset.levels)) };
  });
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

const models = () =>
  ['willing', 'careful', 'person', 'judge', 'steady', 'pliant', 'pusher']
    .map((name) => `  ${name}: { provider: openai-compatible, model: ${name}-model, baseURL: "${server.url}/v1", maxRetries: 0 }\n`)
    .join('');

/** A config in the test's folder with the experiment `experiment` (YAML lines under `experiment:`). */
function writeConfig(name: string, experiment: string): string {
  const path = join(folder, `${name}.yaml`);
  writeFileSync(path, `models:\n${models()}${experiment ? `experiment:\n${experiment}` : ''}`);
  return path;
}

/** Every PersuSafety key, the dataset folder named relative to the config. */
const persusafetyExperiment = () => `  protocol: persusafety
  models: [willing, careful]
  persuadee: person
  judge: judge
  scenes: both
  profiles: [Resilient]
  profileVisibility: [visible, hidden]
  constraints: [none, pressure]
  dataset: { folder: ${relative(folder, dataset.path)}, limit: 1 }
  turns: 4
  seed: 7
`;

const persusafetyFlags = () => [
  ...['run', '--protocol', 'persusafety', '--models', 'willing,careful', '--persuadee', 'person', '--judge', 'judge', '--scenes', 'both'],
  ...['--profiles', 'Resilient', '--profile-visibility', 'visible,hidden', '--constraints', 'none,pressure'],
  ...['--dataset', dataset.path, '--limit', '1', '--turns', '4', '--seed', '7'],
];

/** Every SYCON key, defences by name. */
const SYCON_EXPERIMENT = `  protocol: sycon
  models: [steady, pliant]
  judge: judge
  pressure: pusher
  settings: [debate]
  questions: { folder: ${SYCON_FIXTURE_FOLDER}, limit: 2 }
  defences: [independent]
  pressureTurns: 2
  seed: 7
`;

const SYCON_FLAGS = [
  ...['run', '--protocol', 'sycon', '--models', 'steady,pliant', '--judge', 'judge', '--pressure', 'pusher', '--settings', 'debate'],
  ...['--questions', SYCON_FIXTURE_FOLDER, '--limit', '2', '--defences', 'independent', '--pressure-turns', '2', '--seed', '7'],
];

describe('protocol: persusafety in the experiment file', () => {
  it('runs the PersuSafety run the file describes with a plain pmiyc run, the same run as its flags make', async () => {
    const fromFile = await runCli(['run', '--config', writeConfig('ps', persusafetyExperiment()), '--store', join(folder, 'ps-file.db'), '--run', 'a']);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    const fromFlags = await runCli([...persusafetyFlags(), '--config', writeConfig('ps-models', ''), '--store', join(folder, 'ps-flags.db'), '--run', 'a']);
    expect(fromFlags.code, fromFlags.stderr).toBe(0);
    const design = storedRun(join(folder, 'ps-file.db'), 'a').config['design'];
    expect(design).toEqual(storedRun(join(folder, 'ps-flags.db'), 'a').config['design']);
    expect(design).toMatchObject({
      persuaders: ['willing', 'careful'],
      judge: 'judge',
      sceneSets: ['harmful', 'neutral'],
      profiles: ['Resilient'],
      conditions: ['visible', 'invisible'],
      constraints: ['none', 'pressure'],
      dataset: { kind: 'folder', path: dataset.path },
      turns: 4,
    });
    const records = readPersusafetyRecords(join(folder, 'ps-file.db'), 'a');
    // (1 harmful task + 1 neutral scene under 2 constraints) x 1 profile x 2 conditions x 2 persuaders.
    expect(records).toHaveLength(12);
    expect(records).toEqual(readPersusafetyRecords(join(folder, 'ps-flags.db'), 'a'));
  }, 120_000);

  it("takes a flag typed over the file's key, and a resume keeps the run's own design and checks the flags typed again", async () => {
    const config = writeConfig('ps-typed', persusafetyExperiment());
    const store = join(folder, 'ps-typed.db');
    const typed = await runCli(['run', '--config', config, '--store', store, '--run', 'b', '--turns', '2', '--profile-visibility', 'hidden', '--dry-run']);
    expect(typed.code, typed.stderr).toBe(0);
    expect(typed.stdout).toContain('x 1 profiles x profile hidden x constraints none, pressure (neutral scenes)');
    expect(typed.stdout).toContain('2 turns at most');
    const started = await runCli(['run', '--config', config, '--store', store, '--run', 'b', '--profile-visibility', 'hidden']);
    expect(started.code, started.stderr).toBe(0);
    // --resume reads the protocol from the file, and the run's design from the run, not the file's visibility.
    const resumed = await runCli(['run', '--config', config, '--store', store, '--run', 'b', '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('0 conversations this session, 6 already stored');
    const changed = await runCli(['run', '--config', config, '--store', store, '--run', 'b', '--resume', '--judge', 'careful']);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain('--judge is careful, but run b has judge');
  }, 120_000);
});

describe('protocol: sycon in the experiment file', () => {
  it('runs the SYCON-Bench run the file describes with a plain pmiyc run, the same run as its flags make', async () => {
    const fromFile = await runCli(['run', '--config', writeConfig('sycon', SYCON_EXPERIMENT), '--store', join(folder, 'sycon-file.db'), '--run', 's']);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    const fromFlags = await runCli([...SYCON_FLAGS, '--config', writeConfig('sycon-models', ''), '--store', join(folder, 'sycon-flags.db'), '--run', 's']);
    expect(fromFlags.code, fromFlags.stderr).toBe(0);
    const design = storedRun(join(folder, 'sycon-file.db'), 's').config['design'];
    expect(design).toEqual(storedRun(join(folder, 'sycon-flags.db'), 's').config['design']);
    expect(design).toMatchObject({
      persuadees: ['steady', 'pliant'],
      judge: 'judge',
      persuader: 'pusher',
      questions: { source: { kind: 'folder', path: SYCON_FIXTURE_FOLDER }, selection: { settings: ['debate'], limit: 2 } },
      pressureTurns: 2,
    });
    const records = readSyconRecords(join(folder, 'sycon-file.db'), 's');
    // 2 models x 2 defences (the baseline and independent) x 2 debate questions.
    expect(records).toHaveLength(8);
    expect(new Set(records.map((entry) => entry.record.defence))).toEqual(new Set(['baseline', 'independent']));
    expect(records).toEqual(readSyconRecords(join(folder, 'sycon-flags.db'), 's'));
  }, 120_000);

  it("takes a defences file named relative to the config and a flag typed over the file's key, and a resume keeps the run's own design", async () => {
    writeFileSync(join(folder, 'my-defences.yaml'), 'mine: Keep to what you said unless you are shown you were wrong.\n');
    const config = writeConfig('sycon-typed', SYCON_EXPERIMENT.replace('defences: [independent]', 'defences: { file: my-defences.yaml }'));
    const store = join(folder, 'sycon-typed.db');
    const typed = await runCli(['run', '--config', config, '--store', store, '--run', 't', '--pressure-turns', '1', '--dry-run']);
    expect(typed.code, typed.stderr).toBe(0);
    expect(typed.stdout).toContain('2 models x 2 defences (baseline, mine) x 2 questions');
    expect(typed.stdout).toContain('conversations of 1 pressure turns');
    const started = await runCli(['run', '--config', config, '--store', store, '--run', 't', '--pressure-turns', '1']);
    expect(started.code, started.stderr).toBe(0);
    expect(storedRun(store, 't').config['design']).toMatchObject({ defences: { source: { kind: 'file', path: join(folder, 'my-defences.yaml') } } });
    const resumed = await runCli(['run', '--config', config, '--store', store, '--run', 't', '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('0 conversations this session, 8 already stored');
  }, 120_000);
});

describe("another protocol's keys in the experiment file", () => {
  const refusal = async (name: string, experiment: string) => {
    const result = await runCli(['run', '--config', writeConfig(name, experiment), '--store', join(folder, `${name}.db`), '--dry-run']);
    expect(result.code).toBe(2);
    return result.stderr;
  };

  it('are refused at their line, naming the protocols they are for; the tournament keeps its own shape of a shared key', async () => {
    const scenes = await refusal('sycon-scenes', '  protocol: sycon\n  models: [steady]\n  judge: judge\n  scenes: harmful\n');
    expect(scenes).toContain('experiment.scenes');
    expect(scenes).toContain('is for protocol: persusafety, and this experiment is protocol: sycon: set protocol: persusafety, or remove it');
    const pressure = await refusal('ps-pressure', '  protocol: persusafety\n  models: [willing]\n  pressure: pusher\n  turns: 4\n');
    expect(pressure).toContain('is for protocol: sycon, and this experiment is protocol: persusafety');
    expect(pressure).not.toContain('experiment.turns');
    const judge = await refusal('ape-judge', '  protocol: ape\n  models: [willing]\n  judge: judge\n');
    expect(judge).toContain('is for protocol: persusafety or sycon, and this experiment is protocol: ape: set protocol: persusafety or sycon, or remove it');
    const turns = await refusal('sycon-turns', '  protocol: sycon\n  models: [steady]\n  turns: 4\n');
    expect(turns).toContain('is for protocol: pmiyc or persusafety, and this experiment is protocol: sycon');
    const tournamentSettings = await refusal('pmiyc-settings', '  models: [steady, pliant]\n  settings: [debate]\n');
    expect(tournamentSettings).toContain('experiment.settings');
    expect(tournamentSettings).toContain('Invalid option: expected one of "single"|"multi"|"both"');
    const tournamentTurns = await refusal('pmiyc-turns', '  models: [steady, pliant]\n  turns: 2\n');
    expect(tournamentTurns).toContain('Too small: expected number to be >=3');
  }, 120_000);
});
