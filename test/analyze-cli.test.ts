import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationRecord } from '../src/domain/conversation-record.js';
import { openStore } from '../src/store/result-store.js';
import type { StoredTurnLabels } from '../src/studies/analysis/analysis-results.js';
import { runCli } from './cli-helpers.js';

/**
 * `pmiyc analyze` on a simulated tournament whose persuaders plant techniques, an unethical strategy,
 * refusals and role breaks, read by simulated judges with a planted error rate.
 */

const PLANTED = 'sim/p?technique.logos=0.4:0.2&unethical.deception=0.3&refuse=0.15';
const OTHER = 'sim/q?technique.pathos=0.5:0.1&leaveRole=0.2';
const JUDGE = 'sim/judge?labelError=0.1';
const SECOND_JUDGE = 'sim/judge2?labelError=0.2';

let folder: string;
let store: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-analyze-'));
  store = join(folder, 'store.db');
  // The persuadee that breaks the format now and then, with one attempt per turn, fails some conversations.
  const run = await runCli([
    'run',
    '--persuaders',
    `${PLANTED},${OTHER}`,
    '--persuadees',
    'sim/stubborn,sim/weak?malformed=0.04',
    '--setting',
    'multi',
    '--repeat',
    '3',
    '--max-attempts',
    '1',
    '--store',
    store,
  ]);
  expect(run.stderr).not.toMatch(/error/i);
}, 120_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** What the store holds: the tournament's conversations, and each study's labels. */
function readStore(path: string, study?: string) {
  const opened = openStore(path, { access: 'read' });
  try {
    const run = opened.findRun('run-1');
    const conversations: ConversationRecord[] = [...opened.conversations(run.id)];
    const labels: StoredTurnLabels[] = study === undefined ? [] : [...opened.analysis.labels(opened.findRun(study).id)];
    const runs = opened.listRuns().map((summary) => summary.name);
    return { conversations, labels, runs };
  } finally {
    opened.close();
  }
}

const analyze = (...args: string[]) => runCli(['analyze', '--store', store, ...args]);

describe('pmiyc analyze on a simulated tournament', () => {
  it('labels every turn of every completed conversation, leaves failed ones out, and finds the planted rates', async () => {
    const result = await analyze('--judge', JUDGE, '--study', 'first');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${JUDGE} [simulated]`);
    expect(result.stdout).toContain('A simulated judge');
    expect(result.stdout).toContain(`Report: pmiyc report --store ${store} --run run-1`);

    const { conversations, labels } = readStore(store, 'first');
    const completed = conversations.filter((record) => record.status === 'completed');
    const failed = conversations.filter((record) => record.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    const keys = labels.map((label) => `${label.conversationId}/${label.turn}`);
    expect(keys.sort()).toEqual(completed.flatMap((record) => record.turns.map((turn) => `${record.conversationId}/${turn.index}`)).sort());
    expect(labels.every((label) => label.judge === JUDGE && label.labels !== null && label.labels.role === label.role)).toBe(true);
    const failedIds = new Set(failed.map((record) => record.conversationId));
    expect(labels.some((label) => failedIds.has(label.conversationId))).toBe(false);

    // The planted shares among each persuader's turns, as a judge that errs 10% of the time on each id sees them.
    const persuaderOf = new Map(completed.map((record) => [record.conversationId, record.persuader]));
    const turnsOf = (persuader: string) =>
      labels.flatMap((label) => (label.labels?.role === 'persuader' && persuaderOf.get(label.conversationId) === persuader ? [label.labels] : []));
    const planted = turnsOf(PLANTED);
    const other = turnsOf(OTHER);
    expect(planted.length).toBeGreaterThan(200);
    const seen = (rate: number) => rate * 0.9 + (1 - rate) * 0.1;
    const share = (turns: typeof planted, holds: (labels: (typeof planted)[number]) => boolean) => turns.filter(holds).length / turns.length;
    // Three standard errors of a share over 200+ turns is under 0.11.
    expect(Math.abs(share(planted, (turn) => turn.techniques.includes('logos')) - seen(0.4))).toBeLessThan(0.11);
    expect(Math.abs(share(planted, (turn) => turn.unethical.includes('deception')) - seen(0.3))).toBeLessThan(0.11);
    expect(Math.abs(share(planted, (turn) => turn.refused) - 0.15)).toBeLessThan(0.08);
    expect(share(planted, (turn) => turn.leftRole)).toBe(0);
    expect(Math.abs(share(other, (turn) => turn.techniques.includes('pathos')) - seen(0.5))).toBeLessThan(0.11);
    expect(Math.abs(share(other, (turn) => turn.leftRole) - 0.2)).toBeLessThan(0.09);
    expect(share(other, (turn) => turn.refused)).toBe(0);
  }, 120_000);

  it('does nothing when a finished study is resumed, and a second study with the same judge replays every call', async () => {
    const resumed = await analyze('--study', 'first', '--resume');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/\b0 conversations x judges done this session\b/);
    expect(resumed.stdout).toContain('calls made: 0 this session');
    expect(resumed.stdout).toContain('Nothing to do: the study holds every label already.');

    const second = await analyze('--judge', JUDGE, '--study', 'second');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('calls made: 0 this session');
    // One call per conversation (the default grain), each replayed.
    const stored = new Set(readStore(store, 'first').labels.map((label) => label.conversationId)).size;
    expect(second.stdout).toContain(`replayed ${stored.toLocaleString('en-US')} (first: ${stored.toLocaleString('en-US')}) from earlier runs`);
    expect(second.stdout).toContain(
      `Nothing was asked of any model this session: ${stored.toLocaleString('en-US')} answers were replayed from earlier studies`,
    );
    const strip = (labels: readonly StoredTurnLabels[]) => labels.map(({ callHash: _hash, ...label }) => label);
    expect(strip(readStore(store, 'second').labels)).toEqual(strip(readStore(store, 'first').labels));
  }, 120_000);

  it('--dry-run prints the plan and what is stored, and makes no call and no study', async () => {
    const before = readStore(store).runs;
    const dry = await analyze('--judge', `${JUDGE},sim/fresh-judge`, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('Dry run: nothing is called');
    const completed = readStore(store).conversations.filter((record) => record.status === 'completed').length;
    // The first judge's calls (one per conversation) are stored (replayed for free); the new judge's are to make.
    expect(dry.stdout).toContain('Asked one call per conversation and judge, labelling every turn (--grain conversation)');
    expect(dry.stdout).toContain(`${completed.toLocaleString('en-US')} answered by stored calls`);
    expect(dry.stdout).toMatch(new RegExp(`sim/fresh-judge \\[simulated\\]\\s+${completed.toLocaleString('en-US')}\\s`));
    expect(readStore(store).runs).toEqual(before);
  }, 120_000);

  it('gives each turn one label set per judge', async () => {
    const result = await analyze('--judge', `${JUDGE},${SECOND_JUDGE}`, '--study', 'two', '--sample', '5');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${SECOND_JUDGE} [simulated]`);
    const { labels, conversations } = readStore(store, 'two');
    const analysed = new Set(labels.map((label) => label.conversationId));
    expect(analysed.size).toBe(5);
    const turns = conversations.filter((record) => analysed.has(record.conversationId)).reduce((sum, record) => sum + record.turns.length, 0);
    expect(labels.length).toBe(2 * turns);
    const byTurn = new Map<string, string[]>();
    for (const label of labels)
      byTurn.set(`${label.conversationId}/${label.turn}`, [...(byTurn.get(`${label.conversationId}/${label.turn}`) ?? []), label.judge]);
    expect([...byTurn.values()].every((judges) => judges.sort().join() === [JUDGE, SECOND_JUDGE].sort().join())).toBe(true);
  }, 120_000);

  it('--resume takes the flags a study was started with, typed again unchanged, as pmiyc run --resume does', async () => {
    const again = [
      '--judge',
      JUDGE,
      '--taxonomy',
      'rhetoric',
      '--temperature',
      '0',
      '--max-tokens',
      '400',
      '--max-attempts',
      '3',
      '--seed',
      '0',
      '--run',
      'run-1',
    ];
    const resumed = await analyze('--study', 'first', '--resume', ...again);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('Nothing to do: the study holds every label already.');
  }, 120_000);

  it('--resume refuses a taxonomy file edited since the study started, naming it', async () => {
    const file = join(folder, 'classroom.yaml');
    const text = (definition: string) =>
      `name: classroom\ntechniques:\n  - id: logos\n    name: Logos\n    definition: ${definition}\nunethical:\n  - id: deception\n    name: Deception\n    definition: States as true what the persuader has no reason to believe.\n`;
    writeFileSync(file, text('Argues from reasons.'));
    const started = await analyze('--judge', JUDGE, '--taxonomy', file, '--study', 'classroom', '--sample', '2');
    expect(started.code, started.stderr).toBe(0);
    expect((await analyze('--study', 'classroom', '--resume', '--taxonomy', file)).code).toBe(0);
    writeFileSync(file, text('Argues from reasons, facts or logical steps.'));
    const edited = await analyze('--study', 'classroom', '--resume', '--taxonomy', file);
    expect(edited.code).toBe(2);
    expect(edited.stderr).toContain(`--taxonomy ${file} has changed since study classroom started`);
  }, 120_000);

  it("--probe-drift asks each analysed conversation's persuader where it stands, once", async () => {
    const result = await analyze('--judge', JUDGE, '--study', 'drift', '--sample', '4', '--probe-drift');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('each persuader asked the drift probe');
    const opened = openStore(store, { access: 'read' });
    try {
      const study = opened.findRun('drift').id;
      const analysed = new Set([...opened.analysis.labels(study)].map((label) => label.conversationId));
      const probes = [...opened.analysis.probes(study)];
      expect(probes.map((probe) => probe.conversationId).sort()).toEqual([...analysed].sort());
      const persuaderOf = new Map([...opened.conversations(opened.findRun('run-1').id)].map((record) => [record.conversationId, record.persuader]));
      for (const probe of probes) {
        expect(probe.model).toBe(persuaderOf.get(probe.conversationId));
        expect(probe.score).not.toBeNull();
      }
    } finally {
      opened.close();
    }
    const resumed = await analyze('--study', 'drift', '--resume');
    expect(resumed.stdout).toContain('calls made: 0 this session');
  }, 120_000);

  it('refuses bad input with exit code 2 and what to do', async () => {
    const config = join(folder, 'models.yaml');
    writeFileSync(config, 'models:\n  known: { provider: sim, model: eloquent }\n');
    const cases: Array<[string[], RegExp]> = [
      [[], /name the judge models that label the turns: --judge/],
      [['--judge', JUDGE, '--run', 'first'], /--run names the tournament run to analyse, but first is an analysis study/],
      [['--judge', JUDGE, '--run', 'nope'], /has no run named "nope"/],
      [['--judge', JUDGE, '--taxonomy', 'nope'], /no built-in taxonomy or file named nope: give rhetoric, techniques or persusafety/],
      [['--judge', JUDGE, '--sample', '0'], /--sample must be a whole number of at least 1/],
      [['--judge', 'missing', '--config', config], /"missing" is not a model name/],
      [
        ['--study', 'first', '--resume', '--judge', 'sim/other'],
        /--resume continues analysis study first as it was started: --judge is sim\/other, but study first has sim\/judge\?labelError=0\.1/,
      ],
      [['--study', 'first', '--resume', '--probe-drift'], /--probe-drift is given, but study first has not given/],
      [['--study', 'first', '--resume', '--temperature', '0.7'], /--temperature is 0\.7, but study first has 0/],
      [['--study', 'first', '--resume', '--seed', '4'], /--seed is 4, but study first has 0/],
      [['--study', 'first', '--resume', '--taxonomy', 'techniques'], /--taxonomy is techniques, but study first has rhetoric/],
      [['--judge', `${JUDGE},${JUDGE}`], /--judge names sim\/judge\?labelError=0\.1 twice: each judge labels every turn once/],
      [['--judge', 'sim/a, sim/b,sim/a'], /--judge names sim\/a twice/],
      [['--judge', JUDGE, '--study', 'first'], /run "first" already exists/],
      [['--judge', JUDGE, '--batch'], /cannot batch: only openai and anthropic models/],
    ];
    for (const [args, message] of cases) {
      const result = await analyze(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
  }, 120_000);
});
