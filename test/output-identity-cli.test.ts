import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParticipantView } from '../src/studies/people/participant-view.js';
import { runCli, spawnCli } from './cli-helpers.js';
import { differencesFromFixtures, type Outputs, writeFixtures } from './support/golden-files.js';
import { dumpStore, WALL_CLOCK } from './support/store-dump.js';

/**
 * What pmiyc stores and exports stays byte-identical: a tournament, an analysis, a sequential run and a
 * people study of simulated agents on fixed seeds, each run by the built CLI in a temp folder, are
 * compared with the golden files under test/fixtures/output-identity/<scenario>/: the store's every
 * table, row by row (support/store-dump.ts), `pmiyc export` in each of its formats, and the report's
 * JSON and CSV files (and what `pmiyc people serve` printed). Only wall-clock values, the temp folder's
 * path and the people server's port are replaced (each listed with why: the store's columns in
 * support/store-dump.ts, WALL_CLOCK_COLUMNS; the report's keys below, REPORT_WALL_CLOCK_KEYS; the port
 * is picked by the system, --port 0); everything else must match byte for byte, exit codes included. A
 * change to the hot path (store writes, JSON, progress) must leave these bytes alone.
 *
 * A people study's participant ids, link tokens (and the hashes stored of them) and admin token come
 * from `crypto.randomBytes` and are truly random in a real study; they are not replaced but fixed, by
 * a stream of bytes the server's process is given (servePeople below), because the opponent's replies
 * are seeded by the participant's id. The pages' CSP nonces are random too; no page is asked for.
 *
 * When a change of these bytes is deliberate, regenerate the fixtures and say in the commit what
 * changed and why (docs/design/architecture.md, "Output identity"):
 *
 *   npm run build && UPDATE_FIXTURES=1 npx vitest run test/output-identity-cli.test.ts
 *
 * PMIYC_MAIN=<checkout>/dist/cli/main.js runs another build's CLI instead of this checkout's: with
 * UPDATE_FIXTURES=1 it makes the fixtures with the build before a refactor (the people study's were made
 * so, by bd4b470's: add `-t "people study"` to regenerate one scenario), and alone it checks that build
 * against them (bd4b470's knows no `analyze --grain`, which the analysis scenario passes).
 *
 * The store file's own bytes are not compared: every call row holds the clock (created_at,
 * latency_ms), the run's lease (pid, host, times) is written and deleted and leaves its bytes in freed
 * pages, and the header counts commits, whose number depends on timing (src/store/commit-queue.ts).
 */

const FIXTURES = fileURLToPath(new URL('./fixtures/output-identity/', import.meta.url));
const UPDATE_FIXTURES = process.env['UPDATE_FIXTURES'] === '1';
/** PMIYC_MAIN: another build's dist/cli/main.js to run instead of this checkout's (see the header). */
const OTHER_BUILD = process.env['PMIYC_MAIN'] ? { main: process.env['PMIYC_MAIN'] } : {};

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

/**
 * The people study's texts, written here rather than pmiyc's starter text (a rewording of that is not
 * what this test watches); the follow-up opens 0.72 s after a participant's debrief.
 */
const PEOPLE_EXPERIMENT = `title: An output identity study
consent: |
  You talk with an **AI system** about one claim.
instructions: Answer in your own words, and say how much you agree.
debrief: Thank you for taking part.
minMessageChars: 20
turnTimeLimitMinutes: 10
followUpAfterHours: 0.0002
`;

/** The people study: people as persuadees of a simulated agent, which also argues both claims with a simulated persuadee (--compare). */
const PEOPLE_SERVE = [
  'people',
  'serve',
  '--run',
  'people',
  '--role',
  'persuadee',
  '--opponent',
  'sim/eloquent',
  '--compare',
  'sim/stubborn',
  '--claims',
  'examples',
  '--limit',
  '2',
  '--participants',
  '3',
  '--turns',
  '5',
  '--experiment',
  'experiment.yaml',
  '--seed',
  '8',
  '--port',
  '0',
];

/** What one scripted participant does: their agreement on each turn they are asked for, a follow-up, or leaving when asked for a turn. */
interface ParticipantScript {
  readonly scores: Readonly<Record<number, number>>;
  readonly leavesAtTurn?: number;
  readonly followUp?: number;
}

/**
 * The three participants, in the order of their links: the first finishes and gives the follow-up, the
 * second agrees fully in their reply (the conversation ends early with the final decision), the third
 * leaves when asked for their reply (a dropout: calls kept, no record).
 */
const PARTICIPANTS: readonly ParticipantScript[] = [
  { scores: { 1: 2, 3: 3, 5: 4 }, followUp: 3 },
  { scores: { 1: 1, 3: 5, 4: 5 } },
  { scores: { 1: 4 }, leavesAtTurn: 3 },
];

/**
 * A people study's server started by the built CLI, with `crypto.randomBytes` giving a fixed stream
 * (support/seeded-random-bytes.mjs): participant ids and link tokens are random in a real study, and
 * the opponent's seeded replies derive from the participant's id, so replacing the ids afterwards
 * would not make its replies the same.
 */
async function servePeople(folder: string) {
  const seeded = pathToFileURL(fileURLToPath(new URL('./support/seeded-random-bytes.mjs', import.meta.url))).href;
  const served = spawnCli([...PEOPLE_SERVE, '--store', 'store.db'], { cwd: folder, nodeArguments: ['--import', seeded], ...OTHER_BUILD });
  // Ready, and the two model conversations of --compare stored, so that the store's rows come in one order.
  while (!(served.output().stdout.includes('Press Ctrl-C') && served.output().stderr.includes('--compare: 2 of 2 model conversations stored'))) {
    if (served.child.exitCode !== null) throw new Error(`people serve ended early: ${served.output().stderr}`);
    await sleep(POLL_MS);
  }
  const url = /Serving at (http:\/\/\S+?)\/?,/.exec(served.output().stdout)![1]!;
  const tokens = [...served.output().stdout.matchAll(/ p-[0-9a-f]{6} {2}http:\/\/\S+\/p\/([A-Za-z0-9_-]{43})/g)].map((match) => match[1]!);
  return { ...served, url, tokens };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How often a participant waiting for the other side asks for the state (each link may ask 240 times a minute). */
const POLL_MS = 50;

/** A participant's request, as their page makes it (POSTs carry the server's Origin); a refusal fails the test. */
async function participantRequest(url: string, path: string, body?: object): Promise<ParticipantView> {
  const response = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json', origin: url },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as ParticipantView;
  expect(response.status, `${path}: ${JSON.stringify(json)}`).toBe(200);
  return json;
}

/** One participant from consent to the end of their script; each answer is acknowledged (stored) before the next request. */
async function takePart(url: string, token: string, script: ParticipantScript, number: number): Promise<void> {
  const link = `/p/${token}`;
  await participantRequest(url, `${link}/consent`, {});
  for (;;) {
    const view = await participantRequest(url, `${link}/state`);
    if (view.step === 'answer') {
      const turnIndex = view.ask!.turnIndex;
      if (turnIndex === script.leavesAtTurn) return void (await participantRequest(url, `${link}/withdraw`, {}));
      const message = `Participant ${number} on turn ${turnIndex}: my own considered answer.`;
      await participantRequest(url, `${link}/answer`, { turnIndex, message, score: script.scores[turnIndex] });
    } else if (view.step === 'debrief') {
      if (script.followUp === undefined || view.followUp?.given) return;
      if (view.followUp === null) throw new Error(`participant ${number}: no follow-up was offered`);
      if (view.followUp.opensInMs > 0) await sleep(view.followUp.opensInMs + 20);
      else await participantRequest(url, `${link}/follow-up`, { score: script.followUp });
    } else if (view.step === 'ended') {
      throw new Error(`participant ${number}: the conversation ended (${String(view.endedBecause)})`);
    } else await sleep(POLL_MS);
  }
}

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
  const result = await runCli([...args, '--store', 'store.db'], { cwd: folder, ...OTHER_BUILD });
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

  it("a people study: three participants over HTTP one after another, and --compare; its store, the server's output, its exports and its report", async () => {
    const folder = scenarioFolder('people');
    writeFileSync(join(folder, 'experiment.yaml'), PEOPLE_EXPERIMENT);
    const served = await servePeople(folder);
    try {
      expect(served.tokens).toHaveLength(PARTICIPANTS.length);
      for (const [index, script] of PARTICIPANTS.entries()) await takePart(served.url, served.tokens[index]!, script, index + 1);
    } finally {
      served.child.kill('SIGINT');
    }
    const ended = await served.done;
    expect(ended.code, ended.stderr).toBe(130);
    const outputs = await exportsOf(folder, 'people');
    const port = new URL(served.url).port;
    outputs.set('serve-stdout.txt', ended.stdout.replaceAll(`127.0.0.1:${port}`, '127.0.0.1:<port>'));
    outputs.set('store.txt', dumpStore(join(folder, 'store.db')));
    expectSameAsFixtures('people', withoutTempFolder(outputs, folder));
  }, 60_000);

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
