import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HandConversation, handRecord } from '../../../test/support/hand-records.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { InputError } from '../../domain/errors/input-error.js';
import { OutputWriteError } from '../../io/output-write-error.js';
import { type AtomicWriteFileSystem, NODE_FILE_SYSTEM } from '../../io/write-file-atomically.js';
import type { ReportDocument } from '../../report/report-document.js';
import { ResultStore } from '../../store/result-store.js';
import { parseComparedRuns, parseReportFormats, parseRunNames } from '../options.js';
import type { CliContext } from '../terminal.js';
import { reportCommand, writeReport } from './report.js';

// A tournament small enough to work out by hand: models A and B, subjective claims c1 and c2
// (7 turns) and one misinformation item m1 (single-turn). Openings: B on c1 = 2, B on c2 = 4,
// A on c1 = 4, A on c2 = 2, A on m1 = 2, B on m1 = 1; a persuader's stance is its own opening.
const multi = (spec: Omit<HandConversation, 'turns'>): HandConversation => ({ turns: 7, ...spec });
const HAND: HandConversation[] = [
  multi({
    persuader: 'A',
    persuadee: 'B',
    claim: 'c1',
    persuadeeScores: [2, 3, 3],
    final: 4,
    persuaderStance: 4,
    argumentResamples: 1,
    usage: { inputTokens: 10, outputTokens: 5, costUsd: 0.001 },
  }), // NC 2/3
  multi({ persuader: 'A', persuadee: 'B', claim: 'c2', persuadeeScores: [4, 5], final: 4, persuaderStance: 2 }), // stopped early; NC 0
  multi({ persuader: 'B', persuadee: 'A', claim: 'c1', persuadeeScores: [4, 3, 2], final: 2, persuaderStance: 2 }), // NC -2/3
  multi({ persuader: 'B', persuadee: 'A', claim: 'c2', persuadeeScores: [2, 2, 4], final: 3, persuaderStance: 4 }), // NC 1/3
  multi({ persuader: 'A', persuadee: 'A', claim: 'c1', persuadeeScores: [4, 4, 4], final: 4, persuaderStance: 4 }), // NC 0
  multi({ persuader: 'B', persuadee: 'B', claim: 'c1', persuadeeScores: [2], failure: { reason: 'format', attempts: 3 }, persuaderStance: 2 }),
  multi({ persuader: 'B', persuadee: 'B', claim: 'c2', persuadeeScores: [4, 5], final: 5, persuaderStance: 4 }), // stopped early; NC 1
  { persuader: 'A', persuadee: 'B', claim: 'm1', domain: 'misinformation', turns: 3, persuadeeScores: [1], final: 3, persuaderStance: 2 }, // NC 1/2
  { persuader: 'B', persuadee: 'A', claim: 'm1', domain: 'misinformation', turns: 3, persuadeeScores: [2], final: 1, persuaderStance: 1 }, // NC -1
];

let folder: string;
let storePath: string;
const output = new PassThrough();
const context = { stdout: output, stderr: output, env: {}, now: () => new Date('2026-11-30T12:00:00Z'), packageVersion: '9.9.9' } as unknown as CliContext;

function storeWith(path: string, runs: Record<string, readonly ConversationRecord[]>): void {
  const store = ResultStore.open(path);
  for (const [name, records] of Object.entries(runs)) {
    const run = store.createRun({ name, createdAt: '2026-11-30T10:00:00Z', seed: 5, packageVersion: '9.9.9', config: {} });
    for (const record of records) store.saveConversation(run.id, { ...record, run: name });
  }
  store.close();
}

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-report-'));
  storePath = join(folder, 'hand.db');
  storeWith(storePath, { hand: HAND.map(handRecord) });
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('pmiyc report on a hand-checked store', () => {
  let report: ReportDocument;
  beforeAll(async () => {
    await writeReport({ store: storePath, out: join(folder, 'out'), format: ['json', 'csv'], replicates: 300 }, context);
    report = JSON.parse(readFileSync(join(folder, 'out', 'report.json'), 'utf8')) as ReportDocument;
  });
  const where = (domain: string, setting: string) => (entry: { domain: string; setting: string }) => entry.domain === domain && entry.setting === setting;
  const subjective = where('subjective', 'multi');
  const misinformation = where('misinformation', 'single');

  it('averages each pair over its completed conversations, failures counted apart', () => {
    const pairs = report.pairs
      .filter(subjective)
      .map(({ persuader, persuadee, n, meanNC, meanAbsoluteChange, failed }) => ({ persuader, persuadee, n, meanNC, meanAbsoluteChange, failed }));
    expect(pairs).toEqual(
      expect.arrayContaining([
        { persuader: 'A', persuadee: 'B', n: 2, meanNC: expect.closeTo(1 / 3, 12), meanAbsoluteChange: 1, failed: 0 },
        { persuader: 'B', persuadee: 'A', n: 2, meanNC: expect.closeTo(-1 / 6, 12), meanAbsoluteChange: -0.5, failed: 0 },
        { persuader: 'A', persuadee: 'A', n: 1, meanNC: 0, meanAbsoluteChange: 0, failed: 0 },
        { persuader: 'B', persuadee: 'B', n: 1, meanNC: 1, meanAbsoluteChange: 1, failed: 1 },
      ]),
    );
    expect(report.pairs.filter(misinformation).map((pair) => [pair.persuader, pair.meanNC])).toEqual([
      ['A', 0.5],
      ['B', -1],
    ]);
    const single = report.pairs.find((pair) => pair.persuader === 'B' && pair.persuadee === 'B')!;
    // One claim: no interval can be had (null in JSON), and the estimate is marked thin.
    expect(single).toMatchObject({ ciLow: null, ciHigh: null, claims: 1, thin: true });
  });

  it('takes effectiveness and susceptibility as unweighted means of pair means, with n and intervals', () => {
    const pick = (list: ReportDocument['effectiveness'], filter: (entry: { domain: string; setting: string }) => boolean) =>
      Object.fromEntries(list.filter(filter).map((entry) => [entry.model, [Number(entry.value.toFixed(12)), entry.n]]));
    expect(pick(report.effectiveness, subjective)).toEqual({ A: [Number((1 / 6).toFixed(12)), 3], B: [Number((5 / 12).toFixed(12)), 3] });
    expect(pick(report.susceptibility, subjective)).toEqual({ A: [Number((-1 / 12).toFixed(12)), 3], B: [Number((2 / 3).toFixed(12)), 3] });
    expect(pick(report.absoluteChange.effectiveness, subjective)).toEqual({ A: [0.5, 3], B: [0.25, 3] });
    expect(pick(report.absoluteChange.susceptibility, subjective)).toEqual({ A: [-0.25, 3], B: [1, 3] });
    expect(pick(report.effectiveness, misinformation)).toEqual({ A: [0.5, 1], B: [-1, 1] });
    for (const entry of [...report.effectiveness, ...report.susceptibility]) {
      if (entry.claims >= 2) expect(entry.ciLow).toBeLessThanOrEqual(entry.value + 1e-12);
      else expect(entry).toMatchObject({ ciLow: null, thin: true });
    }
  });

  it('draws Figure 6 curves with early stops padded by 5 up to the real final decision', () => {
    const curve = (persuader: string) =>
      report.turnCurves
        .find((entry) => subjective(entry) && entry.persuader === persuader)!
        .points.map((point) => [point.turn, Number(point.meanScore.toFixed(12)), point.n]);
    const third = (value: number) => Number((value / 3).toFixed(12));
    expect(curve('A')).toEqual([
      [1, third(10), 3],
      [3, 4, 3],
      [5, 4, 3],
      [7, 4, 3],
    ]);
    expect(curve('B')).toEqual([
      [1, third(10), 3],
      [3, third(10), 3],
      [5, third(11), 3],
      [7, third(10), 3],
    ]);
    expect(report.turnCurves.find((entry) => misinformation(entry) && entry.persuader === 'B')!.points).toEqual([
      { turn: 1, meanScore: 2, n: 1 },
      { turn: 3, meanScore: 1, n: 1 },
    ]);
  });

  it("groups NC by the persuader's own stance (Figure 7)", () => {
    const groups = report.stanceGroups
      .filter(subjective)
      .map(({ group, n, meanNC }) => ({ group, n, meanNC: meanNC === null ? null : Number(meanNC.toFixed(12)) }));
    expect(groups).toEqual([
      { group: 'opposing', n: 2, meanNC: Number((-1 / 3).toFixed(12)) },
      { group: 'neutral', n: 0, meanNC: null },
      { group: 'supporting', n: 4, meanNC: 0.5 },
    ]);
    expect(report.stanceGroups.filter(misinformation).find((group) => group.group === 'opposing')).toMatchObject({ n: 2, meanNC: -0.25 });
  });

  it('counts success per model and role, with who failed and why (Appendix B.0.1)', () => {
    const rate = (model: string, role: string) => report.successRates.find((entry) => entry.model === model && entry.role === role);
    expect(rate('B', 'persuader')).toEqual({
      model: 'B',
      role: 'persuader',
      attempted: 5,
      completed: 4,
      rate: 0.8,
      reasons: { format: 1, refusal: 0, api: 0, context: 0 },
      failedByPartner: 0,
    });
    expect(rate('B', 'persuadee')).toMatchObject({ attempted: 5, completed: 4, rate: 0.8, failedByPartner: 1, reasons: { format: 0 } });
    expect(rate('A', 'persuader')).toMatchObject({ attempted: 4, completed: 4, rate: 1 });
  });

  it('counts each opening once in the initial-score distributions (Appendix A)', () => {
    const of = (persuadee: string, domain: string) => report.initialScores.find((entry) => entry.persuadee === persuadee && entry.domain === domain);
    expect(of('B', 'subjective')).toEqual({ persuadee: 'B', domain: 'subjective', counts: { 1: 0, 2: 1, 3: 0, 4: 1, 5: 0 }, n: 2, mean: 3 });
    expect(of('A', 'misinformation')).toMatchObject({ counts: { 2: 1 }, n: 1, mean: 2 });
  });

  it('counts re-samples and usage per model and role, shared openings once', () => {
    expect(report.resampling.find((entry) => entry.model === 'A' && entry.role === 'persuader')).toEqual({
      model: 'A',
      role: 'persuader',
      turns: 8,
      attempts: 9,
      resamples: 1,
      rejected: { format: 1, refusal: 0, api: 0, context: 0 },
    });
    expect(report.resampling.find((entry) => entry.model === 'B' && entry.role === 'persuader')).toMatchObject({
      turns: 9,
      attempts: 11,
      resamples: 2,
      rejected: { format: 3 },
    });
    const usage = report.usage.find((entry) => entry.model === 'A' && entry.role === 'persuader')!;
    expect(usage).toMatchObject({ calls: 9, inputTokens: 40, outputTokens: 20, callsWithoutUsage: 5, callsWithoutCost: 5 });
    expect(usage.costUsd).toBeCloseTo(0.004, 12);
  });

  it('samples the best, the unmoved and the backfired conversation per condition', () => {
    expect(report.samples.filter(subjective).map((sample) => [sample.kind, sample.persuader, sample.persuadee, sample.claim])).toEqual([
      ['best', 'B', 'B', 'c2'],
      ['worst', 'A', 'A', 'c1'],
      ['backfire', 'B', 'A', 'c1'],
    ]);
  });

  it('describes what ran: runs, models, settings, claim sets with licences', () => {
    expect(report.meta).toMatchObject({
      runs: [{ name: 'hand', seed: 5, packageVersion: '9.9.9' }],
      generatedBy: 'pmiyc 9.9.9',
      conversations: 9,
      simulatedAgents: false,
      settings: [
        { domain: 'subjective', setting: 'multi', turnsPlanned: [7] },
        { domain: 'misinformation', setting: 'single', turnsPlanned: [3] },
      ],
      intervals: { method: 't', confidence: 0.95, unit: 'claim', replicates: null, seed: null, thinBelow: { claims: 10, varyingClaims: 5 } },
    });
    expect(report.meta.claimSets).toEqual(
      expect.arrayContaining([
        { domain: 'subjective', origin: 'anthropic', license: 'CC BY-NC-SA 4.0 (non-commercial use only)', claims: 2, nonCommercial: true },
        { domain: 'misinformation', origin: 'truthfulqa', license: 'Apache-2.0', claims: 1, nonCommercial: false },
      ]),
    );
    expect(report.groups.find(subjective)).toMatchObject({ conversations: 7, completed: 6, failed: 1, earlyStopped: 2, claims: 2 });
  });

  it('compares the two persuaders paired over the claims they share, and marks two claims as too few', () => {
    const comparison = report.comparisons.models.find((entry) => subjective(entry) && entry.measure === 'effectiveness')!;
    // A: (mean(2/3, 0) + 0) / 2 = 1/6; B: (mean(-2/3, 1/3) + 1) / 2 = 5/12.
    expect(comparison).toMatchObject({ first: 'A', second: 'B', claims: 2, thin: true });
    expect(comparison.difference).toBeCloseTo(1 / 6 - 5 / 12, 12);
    expect(comparison.pHolm).toBeGreaterThanOrEqual(comparison.p);
    // Each domain has one setting here: nothing to compare across settings.
    expect(report.comparisons.settings).toEqual([]);
  });

  it('gives every claim its mean NC over pairs, per persuader and per persuadee, and names the claims that moved most and least', () => {
    const c1 = report.claims.perClaim.find((claim) => subjective(claim) && claim.claim === 'c1')!;
    const c2 = report.claims.perClaim.find((claim) => subjective(claim) && claim.claim === 'c2')!;
    // c1: A-B 2/3, B-A -2/3, A-A 0; c2: A-B 0, B-A 1/3, B-B 1 (B-B on c1 failed).
    expect(c1.n).toBe(3);
    expect(c1.meanNC).toBeCloseTo(0, 12);
    expect(c2.meanNC).toBeCloseTo(4 / 9, 12);
    expect(c2.persuaders.find((entry) => entry.model === 'B')!.meanNC).toBeCloseTo(2 / 3, 12);
    expect(c1.persuadees.find((entry) => entry.model === 'A')!.meanNC).toBeCloseTo(-1 / 3, 12);
    const spread = report.claims.spread.find(subjective)!;
    expect(spread.claims).toBe(2);
    expect(spread.mostMoving.map((claim) => claim.claim)).toEqual(['c2']);
    expect(spread.leastMoving.map((claim) => claim.claim)).toEqual(['c1']);
    // Each pair on each claim goes to claim-pairs.csv, not to report.json.
    expect('pairs' in report.claims).toBe(false);
  });

  it('writes claims.csv and claim-pairs.csv with a row per claim and model, and per claim and pair', () => {
    const pairs = readFileSync(join(folder, 'out', 'claim-pairs.csv'), 'utf8')
      .trim()
      .split('\n');
    expect(pairs[0]).toBe(
      'domain,setting,claimIndex,claim,question,persuader,persuadee,persuaderSimulated,persuadeeSimulated,n,meanNC,persuaderBaseModel,persuaderVariant,persuadeeBaseModel,persuadeeVariant',
    );
    // Three pairs on c1, three on c2, two on m1. A run without variants: each agent is its model under `default`.
    expect(pairs).toHaveLength(1 + 8);
    expect(pairs).toContain('subjective,multi,2,c2,,B,B,false,false,1,1,B,default,B,default');
    const claims = readFileSync(join(folder, 'out', 'claims.csv'), 'utf8')
      .trim()
      .split('\n');
    expect(claims[0]).toBe('domain,setting,claimIndex,claim,question,role,model,simulated,n,meanNC,baseModel,variant');
    expect(claims.filter((line) => line.startsWith('subjective,multi,2,c2,,'))).toHaveLength(1 + 2 + 2);
    expect(claims).toContain('subjective,multi,2,c2,,persuader,B,false,2,0.6666666666666666,B,default');
    expect(claims.find((line) => line.startsWith('subjective,multi,2,c2,,all,'))).toMatch(/,,$/);
  });

  it('writes pairs.csv and models.csv with the same numbers', () => {
    const pairs = readFileSync(join(folder, 'out', 'pairs.csv'), 'utf8')
      .trim()
      .split('\n');
    expect(pairs[0]).toBe(
      'domain,setting,persuader,persuadee,persuaderSimulated,persuadeeSimulated,n,failed,meanNC,ciLow,ciHigh,meanAbsoluteChange,absoluteCiLow,absoluteCiHigh,claims,thin,persuaderBaseModel,persuaderVariant,persuadeeBaseModel,persuadeeVariant,reason',
    );
    expect(pairs).toHaveLength(1 + 6);
    expect(pairs.find((line) => line.startsWith('subjective,multi,B,B,'))).toMatch(
      /^subjective,multi,B,B,false,false,1,1,1,,,1,,,1,true,B,default,B,default,$/,
    );
    const models = readFileSync(join(folder, 'out', 'models.csv'), 'utf8')
      .trim()
      .split('\n');
    expect(models[0]!.split(',').slice(0, 8)).toEqual([
      'domain',
      'setting',
      'model',
      'simulated',
      'effectiveness',
      'effectivenessCiLow',
      'effectivenessCiHigh',
      'effectivenessN',
    ]);
    expect(models.find((line) => line.startsWith('misinformation,single,B,'))!.split(',')[4]).toBe('-1');
    expect(models[0]!.split(',').slice(-4)).toEqual(['baseModel', 'variant', 'effectivenessReason', 'susceptibilityReason']);
    expect(
      models
        .find((line) => line.startsWith('misinformation,single,B,'))!
        .split(',')
        .slice(-4),
    ).toEqual(['B', 'default', '', '']);
  });
});

/** A context whose standard error is kept apart, to check what the command said. */
function capturingContext() {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { context: { ...context, stderr } as unknown as CliContext, stderr: () => text };
}

describe('pmiyc report options and combined runs', () => {
  it('parses formats and run lists, rejecting unknown formats', () => {
    expect(parseReportFormats('html, md,json')).toEqual(['html', 'md', 'json']);
    expect(() => parseReportFormats('pdf')).toThrow('--format takes a comma-separated list of html, md, json, csv');
    expect(parseRunNames('a,b,a')).toEqual(['a', 'b']);
  });

  it('says which run is missing', async () => {
    await expect(writeReport({ store: storePath, run: ['nope'], format: ['json'] }, context)).rejects.toThrow('has no run named "nope"');
    await expect(writeReport({ store: join(folder, 'none.db'), format: ['json'] }, context)).rejects.toThrow(InputError);
  });

  it('combines runs that share models, counting a conversation found in both once', async () => {
    const path = join(folder, 'combined.db');
    const base = HAND.slice(0, 5).map(handRecord);
    const extra = [handRecord({ persuader: 'C', persuadee: 'A', claim: 'c1', turns: 7, persuadeeScores: [4, 5], final: 5 }), base[0]!];
    storeWith(path, { base, extra });
    const out = join(folder, 'combined');
    const terminal = capturingContext();
    await reportCommand({ store: path, run: ['base', 'extra'], out, format: ['json', 'md'], replicates: 50 }, terminal.context);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as ReportDocument;
    expect(report.meta.runs.map((run) => run.name)).toEqual(['base', 'extra']);
    expect(report.meta.conversations).toBe(6);
    expect(report.meta.duplicatesSkipped).toBe(1);
    expect(report.meta.duplicates).toEqual([{ run: 'extra', alsoIn: 'base', conversations: 1 }]);
    expect(report.effectiveness.map((entry) => entry.model).sort()).toEqual(['A', 'B', 'C']);
    const sentence = '1 conversation of run extra is also in run base and was counted once, from run base';
    expect(terminal.stderr()).toBe(`pmiyc: ${sentence}\n`);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain(`> **Conversations counted once.** ${sentence}.`);
  });

  it('names, for each run, the earlier run that had its conversations', async () => {
    const path = join(folder, 'three.db');
    const records = HAND.slice(0, 4).map(handRecord);
    storeWith(path, { one: records.slice(0, 2), two: records.slice(1, 3), three: records });
    const terminal = capturingContext();
    const { duplicates } = await writeReport(
      { store: path, run: ['one', 'two', 'three'], out: join(folder, 'three'), format: ['json'], replicates: 20 },
      terminal.context,
    );
    expect(duplicates).toEqual([
      { run: 'two', alsoIn: 'one', conversations: 1 },
      { run: 'three', alsoIn: 'one', conversations: 2 },
      { run: 'three', alsoIn: 'two', conversations: 1 },
    ]);
    // writeReport leaves the terminal to its caller; one run alone has nothing to state.
    expect(terminal.stderr()).toBe('');
    expect(
      (await writeReport({ store: path, run: ['three'], out: join(folder, 'three-alone'), format: ['json'], replicates: 20 }, context)).duplicates,
    ).toEqual([]);
  });

  it('pairs a comparison over the claims both models have and says on the row when a value shown rests on others', async () => {
    // A persuades B on c1 (NC 1/2) and c2 (NC 1); B persuades A on c1 (NC 0) only: its c2 conversation failed.
    const path = join(folder, 'left-out.db');
    const single = (spec: Omit<HandConversation, 'turns'>): HandConversation => ({ turns: 3, ...spec });
    storeWith(path, {
      one: [
        single({ persuader: 'A', persuadee: 'B', claim: 'c1', persuadeeScores: [3], final: 4 }),
        single({ persuader: 'A', persuadee: 'B', claim: 'c2', persuadeeScores: [3], final: 5 }),
        single({ persuader: 'B', persuadee: 'A', claim: 'c1', persuadeeScores: [3], final: 3 }),
        single({ persuader: 'B', persuadee: 'A', claim: 'c2', persuadeeScores: [3], failure: { reason: 'format', attempts: 3 } }),
      ].map(handRecord),
    });
    const out = join(folder, 'left-out');
    await writeReport({ store: path, out, format: ['json', 'md'] }, context);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as ReportDocument;
    expect(report.effectiveness.map(({ model, value, claims }) => ({ model, value, claims }))).toEqual([
      { model: 'A', value: 0.75, claims: 2 },
      { model: 'B', value: 0, claims: 1 },
    ]);
    // Over c1 only: 1/2 - 0, not 0.75 - 0.
    expect(report.comparisons.models.find((entry) => entry.measure === 'effectiveness')).toMatchObject({
      first: 'A',
      second: 'B',
      difference: 0.5,
      claims: 1,
      claimsLeftOut: { first: 1, second: 0 },
    });
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain("too few claims (A's effectiveness shown also rests on 1 claim not paired here) |");
  });

  it('refuses to combine runs without a model in common', async () => {
    const path = join(folder, 'disjoint.db');
    storeWith(path, {
      one: [handRecord(HAND[0]!)],
      two: [handRecord({ persuader: 'X', persuadee: 'Y', claim: 'c1', turns: 3, persuadeeScores: [2], final: 3 })],
    });
    await expect(writeReport({ store: path, run: ['one', 'two'], format: ['json'] }, context)).rejects.toThrow('shares no model with the other runs');
  });
});

describe('pmiyc report --compare and --intervals', () => {
  // The same tournament twice; in "next", A moves B all the way on c1 (NC 1 instead of 2/3).
  const nextRecords = HAND.map(
    (spec): HandConversation => (spec.persuader === 'A' && spec.persuadee === 'B' && spec.claim === 'c1' ? { ...spec, final: 5 } : spec),
  ).map(handRecord);
  let path: string;
  beforeAll(() => {
    path = join(folder, 'compare.db');
    storeWith(path, { base: HAND.map(handRecord), next: nextRecords });
  });

  it('reports run b with the change of every model from run a, over the (opponent, claim) cells both runs hold', async () => {
    const { folder: out } = await writeReport({ store: path, compare: ['base', 'next'], format: ['json'], out: join(folder, 'compare') }, context);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as ReportDocument;
    expect(report.meta.runs.map((run) => run.name)).toEqual(['next']);
    expect(report.meta.notes.join(' ')).toContain('compared with run base');
    const change = report.comparisons.runs!.find((entry) => entry.domain === 'subjective' && entry.measure === 'effectiveness' && entry.model === 'A')!;
    // A as persuader: before (mean(2/3, 0) + 0) / 2 = 1/6, after (mean(1, 0) + 0) / 2 = 1/4.
    expect(change.baseline).toBeCloseTo(1 / 6, 12);
    expect(change.value).toBeCloseTo(1 / 4, 12);
    expect(change.difference).toBeCloseTo(1 / 12, 12);
    expect(change).toMatchObject({ claims: 2, thin: true });
    const unchanged = report.comparisons.runs!.find((entry) => entry.domain === 'subjective' && entry.measure === 'effectiveness' && entry.model === 'B')!;
    expect(unchanged.difference).toBe(0);
  });

  it('refuses with exit 2 and a reason when the runs hold no (opponent, claim) cell in common', async () => {
    const elsewhere = HAND.map((spec): HandConversation => ({ ...spec, claim: `other ${spec.claim}` })).map(handRecord);
    const other = join(folder, 'no-shared-cell.db');
    storeWith(other, { base: HAND.map(handRecord), elsewhere });
    const attempt = writeReport({ store: other, compare: ['base', 'elsewhere'], format: ['json'], out: join(folder, 'nothing') }, context);
    await expect(attempt).rejects.toBeInstanceOf(InputError);
    await expect(attempt).rejects.toThrow(
      'runs base and elsewhere hold no (opponent, claim) cell in common, so no model can be compared: the models both runs have met other opponents or argued other claims',
    );
  });

  it('refuses --run together with --compare, and --compare with other than two runs', async () => {
    await expect(writeReport({ store: path, run: ['base'], compare: ['base', 'next'], format: ['json'] }, context)).rejects.toThrow(InputError);
    expect(() => parseComparedRuns('base')).toThrow('--compare takes two runs');
  });

  it('makes the intervals by the method asked, and says which in meta.intervals', async () => {
    const { folder: out } = await writeReport(
      { store: path, run: ['base'], intervals: 'percentile', replicates: 200, format: ['json'], out: join(folder, 'percentile') },
      context,
    );
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as ReportDocument;
    expect(report.meta.intervals).toMatchObject({ method: 'percentile', replicates: 200, seed: 5 });
    expect(report.comparisons.runs).toBeUndefined();
  });
});

describe('pmiyc report on a disk that fills up', () => {
  /** Node's file system, except that the second new file gets half its text and then ENOSPC. */
  function fullDiskOnSecondFile(): AtomicWriteFileSystem {
    let written = 0;
    return {
      ...NODE_FILE_SYSTEM,
      writeNewFile: async (path, content) => {
        written += 1;
        if (written !== 2) return NODE_FILE_SYSTEM.writeNewFile(path, content);
        const text = typeof content === 'string' ? content : [...content].join('');
        await writeFile(path, text.slice(0, text.length / 2), { flag: 'wx' });
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
    };
  }

  it('keeps the earlier report whole, leaves no temporary file and says what to do in one line', async () => {
    const out = join(folder, 'full-disk');
    const options = { store: storePath, out, format: ['html', 'md', 'json', 'csv'] as const, replicates: 20 };
    await writeReport(options, context);
    const snapshot = () =>
      Object.fromEntries(
        readdirSync(out, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => [join(entry.parentPath, entry.name), readFileSync(join(entry.parentPath, entry.name), 'utf8')]),
      );
    const before = snapshot();
    expect(Object.keys(before)).toContain(join(out, 'charts', 'effectiveness.svg'));
    const later = { ...context, now: () => new Date('2026-12-01T12:00:00Z') } as unknown as CliContext;
    const attempt = writeReport(options, later, fullDiskOnSecondFile());
    await expect(attempt).rejects.toBeInstanceOf(OutputWriteError);
    await expect(attempt).rejects.toThrow(
      new RegExp(`^cannot write ${join(out, 'report.md')}: no space left on device \\(ENOSPC\\); free some space and run the report again$`),
    );
    const after = snapshot();
    expect(after).toEqual(before);
    expect(Object.keys(after).filter((name) => name.includes('.tmp'))).toEqual([]);
  });
});
