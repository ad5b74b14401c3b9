import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INTERVALS } from '../src/metrics/intervals/claim-estimates.js';
import { holmAdjust } from '../src/metrics/intervals/holm.js';
import { syconScoredConversationOf } from '../src/protocols/sycon/run/sycon-record.js';
import { SYCON_FILES } from '../src/protocols/sycon/sycon-facts.js';
import { type SyconEstimate, syconMetrics } from '../src/protocols/sycon/sycon-metrics.js';
import { runCli } from './cli-helpers.js';
import { SYCON_FIXTURE_FOLDER } from './support/sycon-fixture.js';
import { readSyconRecords } from './support/sycon-loopback.js';

/**
 * `pmiyc run --protocol sycon` end to end against simulated agents (docs/design/simulated-agents.md, "Protocols"): two
 * simulated models under test planted with chances to miss the stance, to give it up on each pressure turn (by turn
 * and by defence) and to come back to it, a simulated judge, over the fixture's 20 questions each asked in three
 * wordings (60 questions), under three defences. Every planted flip rate, Turn of Flip, Number of Flip and defence
 * difference lies within its interval over questions; the defences are compared with the baseline on the same
 * questions with Holm's adjustment; a second run replays every call.
 */

const WORDINGS = 3;
const REPETITIONS = 2;
const PRESSURE_TURNS = 4;
const DEFENCES = ['baseline', 'independent', 'persona'] as const;
type Defence = (typeof DEFENCES)[number];

/** A model's planted chances: missing the stance first, giving it up on pressure turn `turn` under `defence`, coming back. */
interface Planted {
  readonly keys: string;
  readonly miss: number;
  readonly flip: (defence: Defence, turn: number) => number;
  readonly back: number;
}

const MODELS: Readonly<Record<string, Planted>> = {
  // Gives in most on the first push under the baseline; the independent thinker rarely does, the persona in between.
  pliant: {
    keys: 'sycon.flip.t1=0.4&sycon.flip=0.2&sycon.flip.independent=0.1&sycon.flip.persona=0.25',
    miss: 0,
    flip: (defence, turn) => (defence === 'independent' ? 0.1 : defence === 'persona' ? 0.25 : turn === 1 ? 0.4 : 0.2),
    back: 0,
  },
  // Misses the stance now and then, rarely gives it up, and comes back to it half the time: Number of Flip above 1.
  wavering: { keys: 'sycon.miss=0.1&sycon.flip=0.15&sycon.return=0.5', miss: 0.1, flip: () => 0.15, back: 0.5 },
};

/** The expected Turn of Flip, Number of Flip and share held throughout of a planted model under a defence, exactly. */
function expected(planted: Planted, defence: Defence) {
  // States: [aligned now, flips so far] -> probability; Turn of Flip from the survival of the all-aligned path.
  let states = new Map<string, number>([
    ['1|0', 1 - planted.miss],
    ['0|0', planted.miss],
  ]);
  let survival = 1 - planted.miss;
  let turnOfFlip = survival;
  for (let turn = 1; turn <= PRESSURE_TURNS; turn++) {
    const flip = planted.flip(defence, turn);
    survival *= 1 - flip;
    turnOfFlip += survival;
    const next = new Map<string, number>();
    const add = (aligned: boolean, flips: number, chance: number) => {
      const key = `${aligned ? 1 : 0}|${flips}`;
      next.set(key, (next.get(key) ?? 0) + chance);
    };
    for (const [key, chance] of states) {
      const [aligned, flips] = key.split('|').map(Number) as [number, number];
      const change = aligned === 1 ? flip : planted.back;
      add(aligned === 1, flips, chance * (1 - change));
      add(aligned !== 1, flips + 1, chance * change);
    }
    states = next;
  }
  const numberOfFlip = [...states].reduce((sum, [key, chance]) => sum + Number(key.split('|')[1]) * chance, 0);
  return { turnOfFlip, numberOfFlip, heldThroughout: survival };
}

let folder: string;
let config: string;
let questions: string;

/** The fixture's questions in several wordings, as a folder laid out as the benchmark's (the push-backs follow their question). */
function writeWordings(target: string): void {
  const lines = (path: string) =>
    readFileSync(join(SYCON_FIXTURE_FOLDER, path), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
  const reworded = (text: string, wording: number) => `${text} (wording ${wording})`;
  const write = (path: string, content: string[]) => {
    mkdirSync(dirname(join(target, path)), { recursive: true });
    writeFileSync(join(target, path), `${content.join('\n')}\n`);
  };
  const each = (path: string, change: (line: string, wording: number) => string) =>
    write(path, Array.from({ length: WORDINGS }, (_, wording) => lines(path).map((line) => change(line, wording))).flat());
  each(SYCON_FILES.debateQuestions.path, reworded);
  each(SYCON_FILES.debateStances.path, (line) => line);
  each(SYCON_FILES.presuppositionQuestions.path, reworded);
  each(SYCON_FILES.presuppositions.path, (line) => line);
  each(SYCON_FILES.corrections.path, (line) => line);
  const [header, ...rows] = lines(SYCON_FILES.pushBacks.path);
  const rowsOf = (wording: number) =>
    rows.map((row) =>
      row.startsWith('"')
        ? row.replace(/^"((?:[^"]|"")*)"/, (_, question: string) => `"${reworded(question, wording)}"`)
        : row.replace(/^([^,]*)/, (question) => reworded(question, wording)),
    );
  write(SYCON_FILES.pushBacks.path, [header!, ...Array.from({ length: WORDINGS }, (_, wording) => rowsOf(wording)).flat()]);
}

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-sycon-sim-'));
  questions = join(folder, 'questions');
  writeWordings(questions);
  config = join(folder, 'models.yaml');
  const models = Object.entries(MODELS).map(([name, { keys }]) => `  ${name}: { provider: sim, model: "${name}?${keys}" }\n`);
  writeFileSync(config, `models:\n${models.join('')}  judge: { provider: sim, model: judge }\n`);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const syconArgs = (store: string, run: string) => [
  'run',
  '--protocol',
  'sycon',
  '--models',
  Object.keys(MODELS).join(','),
  '--judge',
  'judge',
  '--questions',
  questions,
  '--defences',
  'independent,persona',
  '--repeat',
  String(REPETITIONS),
  '--store',
  store,
  '--config',
  config,
  '--run',
  run,
];

const within = (estimate: Pick<SyconEstimate, 'ciLow' | 'ciHigh'>, truth: number, where: string) => {
  expect(estimate.ciLow, where).toBeLessThanOrEqual(truth + 1e-9);
  expect(estimate.ciHigh, where).toBeGreaterThanOrEqual(truth - 1e-9);
};

describe('pmiyc run --protocol sycon against simulated agents', () => {
  const store = () => join(folder, 'sycon.db');

  it('recovers the planted flip rates, Turn of Flip and Number of Flip within their intervals, and compares the defences paired with Holm', async () => {
    const result = await runCli(syconArgs(store(), 'planted'));
    expect(result.code, result.stderr).toBe(0);
    const records = readSyconRecords(store(), 'planted').map((entry) => entry.record);
    expect(records).toHaveLength(2 * DEFENCES.length * 60 * REPETITIONS);
    expect(result.stdout).toContain('Judge judge [simulated], no pressure agent.');
    expect(result.stdout).toMatch(/^pliant \[simulated\], defence independent: 120 conversations on 60 questions$/m);

    // Some 40 intervals at once, each at 99.9% (at 95% the family would miss several by chance alone).
    const metrics = syconMetrics(records.map(syconScoredConversationOf), { intervals: { ...DEFAULT_INTERVALS, confidence: 0.999 } });
    for (const [name, planted] of Object.entries(MODELS)) {
      for (const defence of DEFENCES) {
        const cell = metrics.cells.find((entry) => entry.persuadee === name && entry.defence === defence && entry.scope === 'all')!;
        const truth = expected(planted, defence);
        within(cell.turnOfFlip, truth.turnOfFlip, `${name} ${defence} Turn of Flip ${cell.turnOfFlip.value}`);
        within(cell.numberOfFlip, truth.numberOfFlip, `${name} ${defence} Number of Flip ${cell.numberOfFlip.value}`);
        within(cell.heldThroughout, truth.heldThroughout, `${name} ${defence} held throughout`);
        within(cell.stanceTaken, 1 - planted.miss, `${name} ${defence} stance taken`);
        for (const rate of cell.flipRateByTurn)
          within(rate, planted.flip(defence, rate.turn), `${name} ${defence} flip rate at turn ${rate.turn}: ${rate.value}`);
      }
    }

    // The closing's own 95% intervals of Turn of Flip hold the planted ones.
    for (const [name, planted] of Object.entries(MODELS)) {
      for (const defence of DEFENCES) {
        const block = new RegExp(`^${name} \\[simulated\\], defence ${defence}:.*\\n {2}Turn of Flip ([\\d.]+) \\[([\\d.]+), ([\\d.]+)\\] of 5`, 'm').exec(
          result.stdout,
        )!;
        const [low, high] = [Number(block[2]), Number(block[3])];
        expect(expected(planted, defence).turnOfFlip, `${name} ${defence}`).toBeGreaterThanOrEqual(low - 0.005);
        expect(expected(planted, defence).turnOfFlip, `${name} ${defence}`).toBeLessThanOrEqual(high + 0.005);
      }
    }

    // Each defence against the baseline on the same questions: the planted difference within its interval, Holm over the two defences.
    // At 95% the intervals are tight enough to tell the models and defences apart.
    const overall = syconMetrics(records.map(syconScoredConversationOf));
    for (const cell of overall.cells.filter((entry) => entry.scope === 'all')) {
      expect(cell.turnOfFlip.ciHigh - cell.turnOfFlip.ciLow, `${cell.persuadee} ${cell.defence}`).toBeLessThan(0.8);
      expect(cell.numberOfFlip.ciHigh - cell.numberOfFlip.ciLow, `${cell.persuadee} ${cell.defence}`).toBeLessThan(0.5);
      expect(cell.flipRateByTurn[0]!.ciHigh - cell.flipRateByTurn[0]!.ciLow, `${cell.persuadee} ${cell.defence}`).toBeLessThan(0.25);
    }
    for (const [name, planted] of Object.entries(MODELS)) {
      const compared = overall.comparisons.filter((entry) => entry.persuadee === name && entry.scope === 'all' && entry.measure === 'turnOfFlip');
      expect(compared.map((entry) => [entry.defence, entry.questions])).toEqual([
        ['independent', 60],
        ['persona', 60],
      ]);
      const adjusted = holmAdjust(compared.map((entry) => entry.p));
      for (const [index, entry] of compared.entries()) {
        const truth = expected(planted, entry.defence as Defence).turnOfFlip - expected(planted, 'baseline').turnOfFlip;
        within(entry, truth, `${name} ${entry.defence} - baseline: ${entry.difference}`);
        expect(entry.pHolm).toBeCloseTo(adjusted[index]!, 12);
      }
    }
    const independent = overall.comparisons.find(
      (entry) => entry.persuadee === 'pliant' && entry.defence === 'independent' && entry.scope === 'all' && entry.measure === 'turnOfFlip',
    )!;
    expect(independent.pHolm).toBeLessThan(0.001);
    expect(result.stdout).toMatch(/^ {2}pliant \[simulated\], independent - baseline, Turn of Flip: 1\.\d\d \[[\d.]+, [\d.]+\] on 60 questions, p \(Holm\) /m);
  }, 30_000);

  it('replays every call of an identical second run: nothing is asked of the simulated agents again, and the records are the same', async () => {
    const again = await runCli(syconArgs(store(), 'planted-again'));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/calls made: 0 this session, 0 in the whole run/);
    expect(again.stdout).toMatch(/replayed 7,200 \(planted: 7,200\) from earlier runs/);
    const texts = (run: string) => readSyconRecords(store(), run).map(({ itemKey, record }) => [itemKey, record.turns]);
    expect(texts('planted-again')).toEqual(texts('planted'));
  }, 20_000);

  it('refuses a SYCON key it does not know, a defence the run does not compare, or a chance past 1, before any store is made', async () => {
    const refused = async (model: string) => {
      const path = join(folder, 'refused.db');
      const result = await runCli(['run', '--protocol', 'sycon', '--models', model, '--judge', 'sim/judge', '--questions', questions, '--store', path]);
      expect(result.code).toBe(2);
      expect(existsSync(path)).toBe(false);
      return result.stderr;
    };
    expect(await refused('sim/x?sycon.flop=0.1')).toContain('sim/x?sycon.flop=0.1: unknown SYCON-Bench parameter "sycon.flop": use sycon.miss');
    expect(await refused('sim/x?sycon.flip.persona=0.1')).toContain('defences of this run: baseline;');
    expect(await refused('sim/x?sycon.miss.t1=0.1')).toContain('unknown SYCON-Bench parameter "sycon.miss.t1"');
    expect(await refused('sim/x?sycon.flip.t6=0.1')).toContain('turns t1 to t5');
    expect(await refused('sim/x?sycon.flip=1.5')).toContain('sycon.flip must be a number from 0 to 1, got "1.5"');
    expect(await refused('sim/x?ape.refuse=0.1')).toContain('unknown parameter "ape.refuse"');
  }, 20_000);
});
