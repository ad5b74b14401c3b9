import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INTERVALS } from '../src/metrics/intervals/claim-estimates.js';
import { APE_CATEGORIES, type ApeCategory, type ApeTurnClass } from '../src/protocols/ape/ape-facts.js';
import { apeMetrics } from '../src/protocols/ape/ape-metrics.js';
import type { ApeRate, ApeScope } from '../src/protocols/ape/ape-rates.js';
import { apeScoredConversationOf, readApeRecord } from '../src/protocols/ape/run/ape-record.js';
import { openStore } from '../src/store/result-store.js';
import { runCli } from './cli-helpers.js';

/**
 * `pmiyc run --protocol ape` end to end against simulated agents (docs/design/simulated-agents.md, "Protocols"):
 * two simulated persuaders planted with attempt, refusal and no-attempt chances that differ by turn and by
 * category, a simulated persuadee and evaluator, over APE's 12 fixture topics each asked in four wordings (eight
 * topics a category, so the intervals over topics are not on two topics each). Every planted rate lies within its
 * interval, per turn, per category and overall, the closing text names every simulated agent as such, and a
 * second run replays every call.
 */

const FIXTURE = join(import.meta.dirname, 'fixtures/data/benchmarks/ape/src/topics/diverse_topics.sample.jsonl');
const WORDINGS = 4;
const REPETITIONS = 4;
const HARMFUL: readonly ApeCategory[] = ['NoncontroversiallyHarmful', 'UnderminingControl'];

/** Planted chances by turn (1-3) and category, as the keys below plant them. */
type Planted = (category: ApeCategory, turn: number) => { readonly refusal: number; readonly noAttempt: number };

/** Refuses a fifth of its turns everywhere, and makes no attempt more often as the conversation goes on. */
const BY_TURN: Planted = (_category, turn) => ({ refusal: 0.2, noAttempt: [0, 0.3, 0.5][turn - 1]! });
/** Refuses on the harmful categories (less at turn 1 on UnderminingControl), makes no attempt on Controversial, attempts elsewhere. */
const BY_CATEGORY: Planted = (category, turn) => ({
  refusal: category === 'UnderminingControl' && turn === 1 ? 0.4 : HARMFUL.includes(category) ? 0.7 : 0,
  noAttempt: category === 'Controversial' ? 0.5 : 0,
});

const PERSUADERS: Readonly<Record<string, { readonly keys: string; readonly planted: Planted }>> = {
  'by-turn': { keys: 'ape.refuse=0.2&ape.noattempt.t2=0.3&ape.noattempt.t3=0.5', planted: BY_TURN },
  'by-category': {
    keys: 'ape.refuse.NoncontroversiallyHarmful=0.7&ape.refuse.UnderminingControl=0.7&ape.refuse.UnderminingControl.t1=0.4&ape.noattempt.Controversial=0.5',
    planted: BY_CATEGORY,
  },
};

/** A planted rate over a scope: each category's topics are as many, so the mean over its categories. */
function plantedRate(planted: Planted, scope: ApeScope, turn: number, turnClass: ApeTurnClass): number {
  const categories = scope === 'all' ? APE_CATEGORIES : scope === 'harmful' ? HARMFUL : [scope];
  const rateIn = (category: ApeCategory) => {
    const { refusal, noAttempt } = planted(category, turn);
    return turnClass === 'refusal' ? refusal : turnClass === 'no-attempt' ? noAttempt : 1 - refusal - noAttempt;
  };
  return categories.reduce((sum, category) => sum + rateIn(category), 0) / categories.length;
}

let folder: string;
let config: string;
let topics: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-ape-sim-'));
  const fixture = readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, string>);
  const lines = Array.from({ length: WORDINGS }, (_, wording) =>
    fixture.map((topic) => JSON.stringify({ ...topic, short_title: `${topic['short_title']} ${wording}`, text: `${topic['text']} (wording ${wording})` })),
  ).flat();
  topics = join(folder, 'topics.jsonl');
  writeFileSync(topics, `${lines.join('\n')}\n`);
  config = join(folder, 'models.yaml');
  const persuaders = Object.entries(PERSUADERS).map(([name, { keys }]) => `  ${name}: { provider: sim, model: "${name}?${keys}" }\n`);
  writeFileSync(
    config,
    `models:\n${persuaders.join('')}  person: { provider: sim, model: "person?susceptibility=0.6" }\n  judge: { provider: sim, model: judge }\n`,
  );
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const apeArgs = (store: string, run: string) => [
  'run',
  '--protocol',
  'ape',
  '--models',
  Object.keys(PERSUADERS).join(','),
  '--persuadee',
  'person',
  '--evaluator',
  'judge',
  '--topics',
  topics,
  '--repeat',
  String(REPETITIONS),
  '--store',
  store,
  '--config',
  config,
  '--run',
  run,
];

function readConversations(store: string, runName: string) {
  const opened = openStore(store, { access: 'read' });
  try {
    const run = opened.findRun(runName);
    return [...opened.protocolRecords.list(run.id)].map((stored) => readApeRecord(runName, stored));
  } finally {
    opened.close();
  }
}

describe('pmiyc run --protocol ape against simulated agents', () => {
  const store = () => join(folder, 'ape.db');

  it('recovers the planted attempt, refusal and no-attempt rates within their intervals, per turn and per category', async () => {
    const result = await runCli(apeArgs(store(), 'planted'));
    expect(result.code, result.stderr).toBe(0);
    const records = readConversations(store(), 'planted');
    expect(records).toHaveLength(2 * 12 * WORDINGS * REPETITIONS);
    expect(records.every((record) => record.turns.every((turn) => turn.persuader.message.startsWith('[simulated] ')))).toBe(true);

    // Every simulated agent is named as such, aliases included.
    expect(result.stdout).toContain('Persuadee person [simulated], evaluator judge [simulated].');
    expect(result.stdout).toMatch(/^by-turn \[simulated\]: 192 conversations on 48 topics$/m);

    // The closing's own intervals (95%, over all topics) hold every planted rate of every turn.
    const closingRates = (name: string, turn: number) =>
      new RegExp(`^${name} \\[simulated\\]:[^]*?^ {2}turn ${turn}: attempt (.*) {2}refusal (.*) {2}no attempt (.*)$`, 'm').exec(result.stdout)!.slice(1);
    for (const [name, { planted }] of Object.entries(PERSUADERS)) {
      for (const turn of [1, 2, 3]) {
        const shown = closingRates(name, turn).map((text) => /\[([\d.]+)%, ([\d.]+)%\]/.exec(text)!.slice(1).map(Number));
        (['attempt', 'refusal', 'no-attempt'] as const).forEach((turnClass, index) => {
          const [low, high] = shown[index]!;
          expect(100 * plantedRate(planted, 'all', turn, turnClass), `${name} turn ${turn} ${turnClass}`).toBeGreaterThanOrEqual(low! - 0.05);
          expect(100 * plantedRate(planted, 'all', turn, turnClass), `${name} turn ${turn} ${turnClass}`).toBeLessThanOrEqual(high! + 0.05);
        });
      }
    }

    // Per category and turn, from the stored records: every planted rate within its interval over topics. Some 160
    // intervals are checked at once, so each at 99.9% (the family misses one with a chance near 10%, at 95% each
    // would miss several); the overall ones stay at 95% and must be tight.
    const metrics = apeMetrics(records.map(apeScoredConversationOf), { intervals: { ...DEFAULT_INTERVALS, confidence: 0.999 } });
    const overall = apeMetrics(records.map(apeScoredConversationOf));
    for (const [name, { planted }] of Object.entries(PERSUADERS)) {
      const scopes = metrics.rates.find((rates) => rates.model === name)!.scopes;
      for (const { scope, byTurn } of scopes) {
        for (const rates of byTurn) {
          const check = (rate: ApeRate, turnClass: ApeTurnClass) => {
            const truth = plantedRate(planted, scope, rates.turn, turnClass);
            const where = `${name} ${scope} turn ${rates.turn} ${turnClass}: planted ${truth}, measured ${rate.rate} [${rate.ciLow}, ${rate.ciHigh}]`;
            expect(rate.ciLow, where).toBeLessThanOrEqual(truth + 1e-9);
            expect(rate.ciHigh, where).toBeGreaterThanOrEqual(truth - 1e-9);
          };
          check(rates.attempt, 'attempt');
          check(rates.refusal, 'refusal');
          check(rates.noAttempt, 'no-attempt');
        }
      }
      for (const rates of overall.rates.find((model) => model.model === name)!.scopes[0]!.byTurn) {
        for (const rate of [rates.attempt, rates.refusal, rates.noAttempt]) expect(rate.ciHigh - rate.ciLow).toBeLessThan(0.25);
      }
    }
  }, 60_000);

  it('replays every call of an identical second run: nothing is asked of the simulated agents again, and the records are the same', async () => {
    const again = await runCli(apeArgs(store(), 'planted-again'));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/calls made: 0 this session, 0 in the whole run/);
    expect(again.stdout).toMatch(/replayed 3,648 \(planted: 3,648\) from earlier runs/);
    const texts = (run: string) => readConversations(store(), run).map((record) => [record.opening, record.turns]);
    expect(texts('planted-again')).toEqual(texts('planted'));
  }, 60_000);

  it('prices a dry run over the store of its planted agents: every call of the plan is found stored, none to make', async () => {
    const dry = await runCli([...apeArgs(store(), 'planted-dry'), '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/3,648/);
    expect(dry.stdout).not.toMatch(/unknown|does not know/i);
  }, 60_000);

  it('refuses an APE key it does not know, or chances that add up past 1, before any store is made; a tournament refuses APE keys', async () => {
    const refused = async (models: string, ...more: string[]) => {
      const store = join(folder, 'refused.db');
      const result = await runCli(['run', '--models', models, '--store', store, ...more]);
      expect(result.code).toBe(2);
      expect(existsSync(store)).toBe(false);
      return result.stderr;
    };
    const ape = ['--protocol', 'ape', '--persuadee', 'sim/person', '--evaluator', 'sim/judge', '--topics', topics];
    expect(await refused('sim/x?ape.refuze=0.1', ...ape)).toContain(
      'sim/x?ape.refuze=0.1: unknown APE parameter "ape.refuze": use ape.refuse or ape.noattempt',
    );
    expect(await refused('sim/x?ape.refuse.Cooking=0.1', ...ape)).toContain('unknown APE parameter "ape.refuse.Cooking"');
    expect(await refused('sim/x?ape.refuse.t4=0.1', ...ape)).toContain('turns t1 to t3');
    expect(await refused('sim/x?ape.refuse=0.6&ape.noattempt.Conspiracy=0.5', ...ape)).toContain(
      'on Conspiracy at turn 1 the chances of refusing (0.6) and of making no attempt (0.5) add up to more than 1',
    );
    expect(await refused('sim/x?sycon.hold=0.5', ...ape)).toContain('unknown parameter "sycon.hold"');
    expect(await refused('sim/x?ape.refuse=0.1')).toContain(
      `unknown parameter "ape.refuse": a key <protocol>.<trait> plants a trait for that protocol's simulated agents`,
    );
  }, 60_000);
});
