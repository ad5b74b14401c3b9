import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INTERVALS, type IntervalOptions } from '../src/metrics/intervals/claim-estimates.js';
import { persusafetyConditionComparison } from '../src/protocols/persusafety/persusafety-condition-comparison.js';
import type { PersusafetyRecord } from '../src/protocols/persusafety/persusafety-record.js';
import { persusafetyStrategyShares } from '../src/protocols/persusafety/persusafety-strategy-shares.js';
import { type PersusafetyRefusalLevel, persusafetyTaskRefusals } from '../src/protocols/persusafety/persusafety-task-refusals.js';
import { runCli } from './cli-helpers.js';
import { readPersusafetyRecords, writePersusafetyDataset } from './support/persusafety-loopback.js';

/**
 * `pmiyc run --protocol persusafety` end to end against simulated agents (docs/design/simulated-agents.md,
 * "Protocols"): two simulated persuaders planted with task-refusal chances by harmfulness level and strategy-use
 * chances (one that differs with the profile shown and hidden), a simulated persuadee and judge, over the fixture's
 * scenes each in ten wordings (ten scenes a level, so the intervals over scenes rest on more than one). Every
 * planted rate lies within its interval, the shown-hidden difference is recovered paired by scene, and a second
 * run replays every call.
 */

const WORDINGS = 10;

/**
 * Planted chances by persuader: declining the task by level, and each strategy's use with the profile shown and
 * hidden. None is near 0 or 1, where a level's few scenes could all agree and leave an interval of no width.
 */
const PLANTED = {
  shifty: {
    keys: 'persusafety.refuse.Low=0.3&persusafety.refuse.Medium=0.5&persusafety.refuse.High=0.75&persusafety.strategy.guilt-tripping=0.3&persusafety.strategy.fear-mongering=0.5&persusafety.strategy.exploiting-vulnerability.visible=0.75&persusafety.strategy.exploiting-vulnerability.hidden=0.25',
    refuse: { Low: 0.3, Medium: 0.5, High: 0.75, neutral: 0 },
    strategies: { 'Guilt Tripping': [0.3, 0.3], 'Fear-mongering': [0.5, 0.5], 'Exploiting Vulnerability': [0.75, 0.25] },
  },
  steady: {
    keys: 'persusafety.refuse=0.25&persusafety.strategy.deceptive-information=0.4',
    refuse: { Low: 0.25, Medium: 0.25, High: 0.25, neutral: 0.25 },
    strategies: { 'Deceptive Information': [0.4, 0.4] },
  },
} as const satisfies Record<string, { keys: string; refuse: Record<string, number>; strategies: Record<string, readonly [number, number]> }>;

let folder: string;
let config: string;
let dataset: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-persusafety-sim-'));
  dataset = writePersusafetyDataset(folder, WORDINGS).path;
  config = join(folder, 'models.yaml');
  const persuaders = Object.entries(PLANTED).map(([name, { keys }]) => `  ${name}: { provider: sim, model: "${name}?${keys}" }\n`);
  writeFileSync(
    config,
    `models:\n${persuaders.join('')}  person: { provider: sim, model: "person?persusafety.accept=0.3&persusafety.reject=0.3" }\n  judge: { provider: sim, model: judge }\n`,
  );
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const runArgs = (store: string, run: string) => [
  'run',
  '--protocol',
  'persusafety',
  '--models',
  Object.keys(PLANTED).join(','),
  '--persuadee',
  'person',
  '--judge',
  'judge',
  '--dataset',
  dataset,
  '--profiles',
  'Resilient,Anxious',
  '--turns',
  '3',
  // One fixed draw of the planted chances (the test is deterministic): every seed is a sample, this one an ordinary one.
  '--seed',
  '1',
  '--store',
  store,
  '--config',
  config,
  '--run',
  run,
];

const readRecords = (store: string, run: string): PersusafetyRecord[] => readPersusafetyRecords(store, run).map((entry) => entry.record);
/** Some 70 intervals are checked at once, so each at 99.9% (at 95% each the family would miss several); the closing's stay at 95%. */
const WIDE: IntervalOptions = { ...DEFAULT_INTERVALS, confidence: 0.999 };
const holds = (interval: { readonly ciLow: number; readonly ciHigh: number }, truth: number, where: string) => {
  expect(interval.ciLow, where).toBeLessThanOrEqual(truth + 1e-9);
  expect(interval.ciHigh, where).toBeGreaterThanOrEqual(truth - 1e-9);
};

describe('pmiyc run --protocol persusafety against simulated agents', () => {
  const store = () => join(folder, 'persusafety.db');

  it('recovers the planted task refusals by harmfulness level and strategy use by condition within their intervals, and the shown-hidden difference paired by scene', async () => {
    const result = await runCli(runArgs(store(), 'planted'));
    expect(result.code, result.stderr).toBe(0);
    const records = readRecords(store(), 'planted');
    // (30 harmful tasks + 20 neutral scenes) x 2 profiles x 2 conditions x 2 persuaders.
    expect(records).toHaveLength(400);
    expect(result.stdout).toContain('Persuadee person [simulated], judge judge [simulated].');
    expect(result.stdout).toMatch(/^shifty \[simulated\]: 200 conversations on 50 scenes$/m);
    // The closing's own 95% interval over the harmful tasks holds the mean of the three planted levels.
    const closing = /^shifty[\s\S]*?all harmful [\d.]+% \[([\d.]+)%, ([\d.]+)%\]/m.exec(result.stdout)!;
    holds({ ciLow: Number(closing[1]) / 100 - 0.0005, ciHigh: Number(closing[2]) / 100 + 0.0005 }, (0.3 + 0.5 + 0.75) / 3, 'shifty, all harmful');

    for (const { persuader, rates } of persusafetyTaskRefusals(records, WIDE)) {
      const planted: Readonly<Record<string, number>> = PLANTED[persuader as keyof typeof PLANTED].refuse;
      for (const rate of rates.filter((entry) => entry.level !== ('all harmful' satisfies PersusafetyRefusalLevel)))
        holds(rate, planted[rate.level]!, `${persuader} declines ${rate.level}: measured ${rate.share} [${rate.ciLow}, ${rate.ciHigh}]`);
    }

    const played = records.filter((record) => record.played?.stop !== 'task-declined');
    for (const group of persusafetyStrategyShares(played, WIDE).filter((entry) => entry.profile === 'all')) {
      const planted: Readonly<Record<string, readonly [number, number]>> = PLANTED[group.persuader as keyof typeof PLANTED].strategies;
      for (const { strategy, clearlyUsed } of group.strategies) {
        const truth = planted[strategy]?.[group.condition === 'visible' ? 0 : 1] ?? 0;
        holds(
          clearlyUsed,
          truth,
          `${group.persuader} ${group.study} ${group.condition} ${strategy}: measured ${clearlyUsed.share} [${clearlyUsed.ciLow}, ${clearlyUsed.ciHigh}]`,
        );
      }
    }

    // Shown minus hidden, paired by scene: 0.75 - 0.25 where planted so, excluding 0; none where the strategy does not depend on it.
    const differences = persusafetyConditionComparison(played, WIDE).filter((difference) => difference.persuader === 'shifty');
    for (const difference of differences.filter((entry) => entry.measure === 'Exploiting Vulnerability')) {
      holds(difference, 0.5, `${difference.study}: ${difference.difference} [${difference.ciLow}, ${difference.ciHigh}]`);
      expect(difference.ciLow).toBeGreaterThan(0);
    }
    // Same seeds with the profile shown and hidden: a strategy planted alike is used alike in each pair.
    expect(differences.filter((entry) => entry.measure === 'Guilt Tripping').map((entry) => entry.difference)).toEqual([0, 0]);
    expect(result.stdout).toMatch(/^ {4}Exploiting Vulnerability .*\+[\d.]+% \[\+[\d.]+%, \+[\d.]+%\]$/m);
  }, 30_000);

  it('replays every call of an identical second run: nothing is asked of the simulated agents again, and the records are the same', async () => {
    const again = await runCli(runArgs(store(), 'planted-again'));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/calls made: 0 this session, 0 in the whole run/);
    const messages = (run: string) => readRecords(store(), run).map((record) => [record.messages, record.judgement.scores]);
    expect(messages('planted-again')).toEqual(messages('planted'));
  }, 30_000);

  it('refuses a PersuSafety key it does not know before any store is made; a tournament and an APE run refuse PersuSafety keys', async () => {
    const refused = async (models: string, ...more: string[]) => {
      const path = join(folder, 'refused.db');
      const result = await runCli(['run', '--models', models, '--store', path, ...more]);
      expect(result.code).toBe(2);
      expect(existsSync(path)).toBe(false);
      return result.stderr;
    };
    const persusafety = ['--protocol', 'persusafety', '--persuadee', 'sim/person', '--judge', 'sim/judge', '--dataset', dataset];
    expect(await refused('sim/x?persusafety.refuze=0.1', ...persusafety)).toContain(
      'sim/x?persusafety.refuze=0.1: unknown PersuSafety parameter "persusafety.refuze"',
    );
    expect(await refused('sim/x?persusafety.strategy.lying=0.1', ...persusafety)).toContain('strategy ids: manipulative-emotional-appeals');
    expect(await refused('sim/x?ape.refuse=0.1', ...persusafety)).toContain('unknown parameter "ape.refuse"');
    expect(await refused('sim/x?persusafety.refuse=0.1')).toContain('unknown parameter "persusafety.refuse"');
  }, 30_000);
});
