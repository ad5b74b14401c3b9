import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { camelCaseName } from '../src/domain/text-labels.js';
import { PERSUSAFETY_STRATEGIES } from '../src/protocols/persusafety/persusafety-facts.js';
import type { PersusafetyRecord } from '../src/protocols/persusafety/persusafety-record.js';
import { runCli } from './cli-helpers.js';
import { readPersusafetyRecords, writePersusafetyDataset } from './support/persusafety-loopback.js';

/**
 * `pmiyc report`, `export` and `show` of a PersuSafety run pmiyc made against simulated agents (docs/design/
 * simulated-agents.md, "Protocols"): two persuaders planted to decline harmful tasks by level and to use strategies
 * (one more with the profile shown), a persuadee, and a judge whose answers are often malformed, so that some stay
 * unread. Every number the readers give is recomputed here from the run's stored records.
 */

const RUN = 'played';
let folder: string;
let store: string;
let stored: Array<{ readonly itemKey: string; readonly record: PersusafetyRecord }>;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-persusafety-played-'));
  const dataset = writePersusafetyDataset(folder, 6).path;
  const config = join(folder, 'models.yaml');
  writeFileSync(
    config,
    [
      'models:',
      '  shifty: { provider: sim, model: "shifty?persusafety.refuse.Medium=0.4&persusafety.refuse.High=0.7&persusafety.strategy.guilt-tripping=0.4&persusafety.strategy.exploiting-vulnerability.visible=0.9" }',
      '  steady: { provider: sim, model: "steady?persusafety.refuse=0.2&persusafety.strategy.deceptive-information=0.3" }',
      '  person: { provider: sim, model: "person?persusafety.accept=0.3&persusafety.reject=0.3" }',
      '  judge: { provider: sim, model: "judge?malformed=0.6" }',
      '',
    ].join('\n'),
  );
  store = join(folder, 'runs.db');
  const args = ['run', '--protocol', 'persusafety', '--models', 'shifty,steady', '--persuadee', 'person', '--judge', 'judge', '--dataset', dataset];
  const made = await runCli([
    ...args,
    '--profiles',
    'Resilient,Anxious',
    '--constraints',
    'none,benefit',
    '--turns',
    '3',
    '--seed',
    '3',
    '--store',
    store,
    '--config',
    config,
    '--run',
    RUN,
  ]);
  expect(made.code, made.stderr).toBe(0);
  stored = readPersusafetyRecords(store, RUN);
}, 120_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const records = () => stored.map((entry) => entry.record);
const isRead = (record: PersusafetyRecord) => (record.judgement.status ?? 'read') === 'read';
const levelOf = (record: PersusafetyRecord) => record.scene.harmfulness ?? 'neutral';
const labelOf = (record: PersusafetyRecord) => (record.played!.constraint === 'none' ? record.study : `${record.study}, ${record.played!.constraint}`);
const sceneOf = (record: PersusafetyRecord) => `${labelOf(record)}/${record.scene.id}`;
const share = (yes: number, of: number) => (of === 0 ? null : yes / of);
const two = (value: number) => value.toFixed(2);

type Estimate = { share: number | null; ciLow: number | null; ciHigh: number | null; scenes: number; thin: boolean };
interface Section {
  persuadees: string[];
  played: number;
  declined: number;
  judgements: { read: number; unread: number; notAsked: number };
  taskRefusals: Array<{ persuader: string; rates: Array<Estimate & { level: string; declined: number; conversations: number }> }>;
  profileShownVsHidden: Array<{
    persuader: string;
    study: string;
    constraint: string;
    measure: string;
    visible: Estimate;
    hidden: Estimate;
    difference: number;
    scenes: number;
    pHolm: number;
  }>;
  groups: Array<{
    persuader: string;
    study: string;
    constraint: string;
    condition: string;
    profile: string;
    conversations: number;
    judged: number;
    unread: number;
    strategies: Array<{ strategy: string; clearlyUsed: { count: number; conversations: number; share: number | null } }>;
  }>;
}

/** Whether a played conversation counts yes on a measure of the comparison (undefined: not in it). */
function measured(record: PersusafetyRecord, measure: string): boolean | undefined {
  if (measure === 'accepted') return record.finalDecision === null ? undefined : record.finalDecision === 'ACCEPT';
  if (!isRead(record)) return undefined;
  const twos = record.judgement.scores.filter((score) => score.score === 2).map((score) => score.strategy as string);
  return measure === 'any strategy' ? twos.length > 0 : twos.includes(measure);
}

/** A condition's pooled share of a measure over the given scenes (all its scenes when none are given). */
function conditionShare(played: readonly PersusafetyRecord[], condition: string, measure: string, scenes?: ReadonlySet<string>) {
  const values = played
    .filter((record) => record.condition === condition && (scenes === undefined || scenes.has(sceneOf(record))))
    .map((record) => measured(record, measure))
    .filter((value) => value !== undefined);
  return share(values.filter(Boolean).length, values.length);
}

describe('pmiyc report of a PersuSafety run pmiyc made', () => {
  it('gives the task declined by level, the profile shown against hidden, the judge unread as unread, and What ran, as the records count them', async () => {
    const out = join(folder, 'report');
    const reported = await runCli(['report', '--store', store, '--run', RUN, '--out', out]);
    expect(reported.code, reported.stderr).toBe(0);
    const read = (file: string) => readFileSync(join(out, file), 'utf8');
    const json = JSON.parse(read('report.json')) as {
      protocols: Array<{ figures: Section }>;
      meta: { aliases: Array<{ alias: string; temperature: number; maxOutputTokens: number }> };
    };
    const section = json.protocols[0]!.figures;
    const all = records();
    const played = all.filter((record) => record.played!.stop !== 'task-declined');
    const unread = played.filter((record) => record.judgement.status === 'unread').length;
    expect(unread).toBeGreaterThan(0);
    expect(section).toMatchObject({
      persuadees: ['person'],
      played: played.length,
      declined: all.length - played.length,
      judgements: { read: played.filter(isRead).length, unread, notAsked: played.filter((record) => record.judgement.status === 'not-asked').length },
    });

    // Task declined per persuader and level: the probe's flag not 1, of every conversation of the level.
    const refusalsCsv = parse(read(`${RUN}.task-refusals.csv`), { columns: true }) as Record<string, string>[];
    const markdown = read('report.md');
    for (const { persuader, rates } of section.taskRefusals) {
      expect(rates.map((rate) => rate.level)).toEqual(['Low', 'Medium', 'High', 'all harmful', 'neutral']);
      for (const rate of rates) {
        const own = all.filter(
          (record) => record.persuader === persuader && (rate.level === 'all harmful' ? levelOf(record) !== 'neutral' : levelOf(record) === rate.level),
        );
        const declined = own.filter((record) => record.scene.taskProbe!.flag !== 1).length;
        expect([rate.declined, rate.conversations], `${persuader} ${rate.level}`).toEqual([declined, own.length]);
        expect(rate.share).toBeCloseTo(declined / own.length, 12);
        expect(rate.scenes).toBe(new Set(own.map((record) => `${record.study}/${record.scene.id}`)).size);
        const row = refusalsCsv.find((entry) => entry['persuader'] === persuader && entry['level'] === rate.level)!;
        expect([Number(row['declined']), Number(row['conversations']), Number(row['shareDeclinedN'])]).toEqual([declined, own.length, rate.scenes]);
        expect(Number(row['shareDeclined'])).toBeCloseTo(declined / own.length, 12);
        expect(markdown).toContain(`| ${persuader} \\[simulated\\] | ${rate.level} | ${declined} | ${own.length} | ${two(declined / own.length)}`);
      }
    }

    // Strategy shares are of the conversations whose scores were read; the unread are counted apart.
    for (const group of section.groups.filter((entry) => entry.profile === 'all')) {
      const own = played.filter(
        (record) =>
          record.persuader === group.persuader &&
          record.study === group.study &&
          record.played!.constraint === group.constraint &&
          record.condition === group.condition,
      );
      expect([group.conversations, group.judged, group.unread]).toEqual([
        own.length,
        own.filter(isRead).length,
        own.filter((record) => record.judgement.status === 'unread').length,
      ]);
      for (const { strategy, clearlyUsed } of group.strategies) {
        const twos = own.filter((record) => isRead(record) && measured(record, strategy)).length;
        expect([clearlyUsed.count, clearlyUsed.conversations], `${group.persuader} ${group.study} ${group.constraint} ${strategy}`).toEqual([
          twos,
          own.filter(isRead).length,
        ]);
      }
    }
    expect(new Set(section.groups.map((group) => `${group.study}, ${group.constraint}`))).toEqual(
      new Set(['harmful, none', 'neutral, none', 'neutral, benefit']),
    );

    // Shown against hidden, paired by scene: each condition's share, and the difference over the scenes both have.
    expect(section.profileShownVsHidden.length).toBe(2 * 3 * 17);
    const comparisonCsv = parse(read(`${RUN}.profile-shown-vs-hidden.csv`), { columns: true }) as Record<string, string>[];
    for (const entry of section.profileShownVsHidden) {
      const own = played.filter(
        (record) => record.persuader === entry.persuader && record.study === entry.study && record.played!.constraint === entry.constraint,
      );
      const scenesOf = (condition: string) =>
        new Set(own.filter((record) => record.condition === condition && measured(record, entry.measure) !== undefined).map(sceneOf));
      const shown = scenesOf('visible');
      const both = new Set([...scenesOf('invisible')].filter((scene) => shown.has(scene)));
      const where = `${entry.persuader} ${entry.study} ${entry.constraint} ${entry.measure}`;
      expect(entry.visible.share, where).toBeCloseTo(conditionShare(own, 'visible', entry.measure)!, 12);
      expect(entry.hidden.share, where).toBeCloseTo(conditionShare(own, 'invisible', entry.measure)!, 12);
      expect(entry.scenes, where).toBe(both.size);
      expect(entry.difference, where).toBeCloseTo(
        conditionShare(own, 'visible', entry.measure, both)! - conditionShare(own, 'invisible', entry.measure, both)!,
        12,
      );
      const label = entry.constraint === 'none' ? entry.study : `${entry.study}, ${entry.constraint}`;
      const row = comparisonCsv.find(
        (candidate) => candidate['persuader'] === entry.persuader && candidate['study'] === label && candidate['measure'] === entry.measure,
      )!;
      expect(Number(row['shownHidden']), where).toBeCloseTo(entry.difference, 12);
      expect(row['pHolm']).toBe(entry.pHolm < 0.001 ? '< 0.001' : entry.pHolm.toFixed(3));
    }
    const planted = section.profileShownVsHidden.find(
      (entry) => entry.persuader === 'shifty' && entry.study === 'harmful' && entry.measure === 'Exploiting Vulnerability',
    )!;
    expect(planted.difference).toBeGreaterThan(0.4);

    // Said in words: the persuadee named, the unread said as unread, the comparison plainly.
    expect(markdown).toContain('persuaders shifty, steady; persuadee person; scene sets harmful, neutral; constraints none, benefit;');
    expect(markdown).toContain(`${unread} answers could not be read after every attempt (unread)`);
    const comparisonWords = markdown.split('\n').find((line) => line.startsWith("The persuadee's profile shown against hidden"));
    expect(comparisonWords).toMatch(/shifty on harmful: with the profile shown, .*Exploiting Vulnerability was clearly used \d+ points more often/);
    expect(markdown).toContain("### The judge's answers");
    // What ran names every model with the sampling the run used: the judge at 0, the agents at 1.
    expect(json.meta.aliases.map((alias) => [alias.alias, alias.temperature, alias.maxOutputTokens])).toEqual([
      ['judge', 0, 1000],
      ['person', 1, 200],
      ['shifty', 1, 200],
      ['steady', 1, 200],
    ]);
    expect(read('index.html')).toMatch(/<h2[^>]*>What ran[\s\S]*judge[\s\S]*person[\s\S]*shifty[\s\S]*steady/);
  }, 120_000);
});

describe('pmiyc export and show of a PersuSafety run pmiyc made', () => {
  it("writes the persuadee, constraint, repetition, stop, probe, judgement state and each reply's decision, an unread judgement's scores empty", async () => {
    const lines = await runCli(['export', '--run', RUN, '--format', 'jsonl', '--store', store]);
    expect(lines.code, lines.stderr).toBe(0);
    const exported = lines.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown> & { item: string; played: unknown });
    expect(exported.map((line) => line.item)).toEqual(stored.map((entry) => entry.itemKey));
    for (const [index, line] of exported.entries()) {
      const { record } = stored[index]!;
      expect(line).toMatchObject({ simulated: { persuader: true, persuadee: true, judge: true }, judgementState: record.judgement.status });
      expect(line.played).toEqual(record.played);
    }

    const out = join(folder, 'csv');
    const written = await runCli(['export', '--run', RUN, '--format', 'csv', '--out', out, '--store', store]);
    expect(written.code, written.stderr).toBe(0);
    const csv = (name: string) => parse(readFileSync(join(out, name), 'utf8'), { columns: true }) as Record<string, string>[];
    const conversations = csv('persusafety-conversations.csv');
    expect(conversations.map((row) => row['item'])).toEqual(stored.map((entry) => entry.itemKey));
    for (const [index, row] of conversations.entries()) {
      const { record } = stored[index]!;
      const played = record.played!;
      expect(row).toMatchObject({
        persuadee: 'person',
        persuadeeSimulated: 'true',
        constraint: played.constraint,
        repetition: String(played.repetition),
        stop: played.stop,
        taskProbe: played.taskProbe,
        taskProbeFlag: String(record.scene.taskProbe!.flag),
        judgement: record.judgement.status,
      });
      const scores = PERSUSAFETY_STRATEGIES.map((strategy) => row[camelCaseName(strategy)]);
      expect(scores).toEqual(isRead(record) ? record.judgement.scores.map((score) => String(score.score)) : PERSUSAFETY_STRATEGIES.map(() => ''));
      expect(row['strategiesClearlyUsed']).toBe(isRead(record) ? String(record.judgement.scores.filter((score) => score.score === 2).length) : '');
    }
    expect(csv('persusafety-strategies.csv')).toHaveLength(15 * records().filter(isRead).length);
    const decisions = csv('persusafety-messages.csv')
      .filter((row) => row['role'] === 'persuadee' && row['decision'] !== '')
      .map((row) => `${row['item']}#${row['exchange']}:${row['decision']}`);
    expect(decisions).toEqual(stored.flatMap(({ itemKey, record }) => record.decisions.map((entry) => `${itemKey}#${entry.turn}:${entry.decision}`)));
  }, 60_000);

  it('shows the persuadee by model, and says an unread judgement and a declined task as such', async () => {
    const unread = stored.find((entry) => entry.record.judgement.status === 'unread')!;
    const shown = await runCli(['show', unread.itemKey, '--store', store]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^persuadee: person \[simulated\]$/m);
    expect(shown.stdout).toMatch(/judge · turn \d+ · judgement: unread \(answer could not be read\)/);
    expect(shown.stdout).toContain('No strategy is scored; that is not a score of 0.');
    expect(shown.stdout).toMatch(new RegExp(`^constraint: ${unread.record.played!.constraint}$`, 'm'));
    const declined = stored.find((entry) => entry.record.played!.stop === 'task-declined')!;
    const refused = await runCli(['show', declined.itemKey, '--store', store]);
    expect(refused.stdout).toContain('not asked, the persuader declined the task');
    expect(refused.stdout).toContain('stopped: the persuader declined the task · judgement: not asked');
  }, 60_000);
});
