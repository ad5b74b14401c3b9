import { describe, expect, it } from 'vitest';
import { handRecord } from '../../test/support/hand-records.js';
import { FIGURE_3, FIGURE_4, FIGURE_4_PERSUADEES as PERSUADEES } from '../../test/support/paper-figures.js';
import { buildReportDocument, reportJson } from '../report/build-report-document.js';
import type { ReportDocument } from '../report/report-document.js';
import { analyzeTournament } from './tournament-analysis.js';

const CLAIMS = 100;

/**
 * Conversations whose pair means are exactly a matrix: of 100 claims, value x 100 go from
 * Completely Oppose to Completely Support (NC 1) and the rest stay Neutral (NC 0).
 */
function recordsForMatrix(matrix: Readonly<Record<string, readonly number[]>>, turns: number) {
  return Object.entries(matrix).flatMap(([persuader, row]) =>
    row.flatMap((value, column) =>
      Array.from({ length: CLAIMS }, (_, claim) => {
        const persuaded = claim < Math.round(value * CLAIMS);
        return handRecord({
          persuader,
          persuadee: PERSUADEES[column]!,
          claim: `claim ${claim}`,
          turns,
          persuadeeScores: persuaded ? [1] : [3],
          final: persuaded ? 5 : 3,
        });
      }),
    ),
  );
}

function reportOf(matrix: Readonly<Record<string, readonly number[]>>, turns: number): ReportDocument {
  const analysis = analyzeTournament(recordsForMatrix(matrix, turns), {
    intervals: { method: 't', replicates: 200, confidence: 0.95, seed: 1 },
    samplesPerKind: 1,
  });
  const document = buildReportDocument(analysis, { runs: [], generatedAt: 'now', packageVersion: 'test' });
  // Read back through report.json, as other tools do.
  return JSON.parse(reportJson(document)) as ReportDocument;
}

describe("the report's aggregation reproduces the paper's Figure 3 from its matrices", () => {
  const report = reportOf(FIGURE_4, 3);
  const value = (list: ReportDocument['effectiveness'], model: string) => list.find((entry) => entry.model === model)!.value.toFixed(2);

  it('recovers every cell of Figure 4 as a pair mean', () => {
    for (const [persuader, row] of Object.entries(FIGURE_4)) {
      row.forEach((expected, column) => {
        const pair = report.pairs.find((entry) => entry.persuader === persuader && entry.persuadee === PERSUADEES[column])!;
        expect(pair.n).toBe(CLAIMS);
        expect(pair.meanNC).toBeCloseTo(expected, 12);
      });
    }
  });

  it('gives Llama-3.3-70B an effectiveness of 0.68 and Claude 3 Haiku a susceptibility of 0.77 (Figure 3, multi-turn subjective)', () => {
    expect(value(report.effectiveness, 'Llama-3.3-70B')).toBe('0.68');
    expect(value(report.susceptibility, 'Claude 3 Haiku')).toBe('0.77');
  });

  it('ranks as the paper says: Llama-3.3-70B and GPT-4o persuade best, Claude 3 Haiku worst and is the most susceptible', () => {
    const byValue = (list: ReportDocument['effectiveness']) => [...list].sort((a, b) => b.value - a.value).map((entry) => entry.model);
    expect(byValue(report.effectiveness).slice(0, 2)).toEqual(['Llama-3.3-70B', 'GPT-4o']);
    expect(byValue(report.effectiveness).at(-1)).toBe('Claude 3 Haiku');
    expect(byValue(report.susceptibility)[0]).toBe('Claude 3 Haiku');
  });

  it('puts every estimate inside its interval, with n', () => {
    for (const entry of [...report.effectiveness, ...report.susceptibility]) {
      expect(entry.n).toBe(5 * CLAIMS);
      expect(entry.ciLow).toBeLessThanOrEqual(entry.value);
      expect(entry.ciHigh).toBeGreaterThanOrEqual(entry.value);
    }
  });

  // Every Figure 3 value is printed with two decimals, and so is every matrix cell it comes from: the
  // mean of the unrounded cells lies within 0.005 of the mean of the printed ones, and the unrounded
  // Figure 3 value within 0.005 of its print. The two ranges must meet: |ours - printed| <= 0.01.
  // The pair means are built from the printed cells, so ours is the mean of the printed ones.
  it.each(Object.entries(FIGURE_3))('reproduces every Figure 3 value of %s within the printed rounding', (_, figure) => {
    const fromMatrix = reportOf(figure.matrix, 3);
    const check = (list: ReportDocument['effectiveness'], printed: Readonly<Record<string, number>>) => {
      expect(list.map((entry) => entry.model).sort()).toEqual(Object.keys(printed).sort());
      for (const entry of list) expect(Math.abs(entry.value - printed[entry.model]!), entry.model).toBeLessThanOrEqual(0.01 + 1e-12);
    };
    check(fromMatrix.effectiveness, figure.effectiveness);
    check(fromMatrix.susceptibility, figure.susceptibility);
  });

  it('averages susceptibility over every persuader of the matrix, as Figure 3 does (GPT-4o-mini, single-turn: 2.86 / 7 = 0.41)', () => {
    const single = reportOf(FIGURE_3['single-turn subjective (Figure 2)'].matrix, 3);
    expect(value(single.susceptibility, 'GPT-4o-mini')).toBe('0.41');
    expect(value(single.effectiveness, 'Claude 2')).toBe('0.24');
  });
});

describe('a model that fails every conversation keeps its rows, with no value and why', () => {
  // chatty never writes the tags: every conversation it is in fails (format); sim/eloquent plays itself.
  const records = ['c1', 'c2', 'c3'].flatMap((claim) => [
    handRecord({ persuader: 'chatty', persuadee: 'chatty', claim, turns: 3, persuadeeScores: [3], failure: { reason: 'format', attempts: 3 } }),
    handRecord({ persuader: 'chatty', persuadee: 'sim/eloquent', claim, turns: 3, persuadeeScores: [3], failure: { reason: 'format', attempts: 3 } }),
    handRecord({ persuader: 'sim/eloquent', persuadee: 'chatty', claim, turns: 3, persuadeeScores: [3], failure: { reason: 'format', attempts: 3 } }),
    handRecord({ persuader: 'sim/eloquent', persuadee: 'sim/eloquent', claim, turns: 3, persuadeeScores: [2], final: 4 }),
  ]);
  const intervals = { method: 't', replicates: 0, confidence: 0.95, seed: 1 } as const;
  const rowsOf = (list: ReportDocument['effectiveness']) => list.map(({ model, value, n, failed, reason }) => ({ model, value, n, failed, reason }));

  it('in effectiveness and susceptibility, NC and absolute: value null, n 0 and the reason in report.json', () => {
    const analysis = analyzeTournament(records, { intervals, samplesPerKind: 1 });
    const report = JSON.parse(reportJson(buildReportDocument(analysis, { runs: [], generatedAt: 'now', packageVersion: 'test' }))) as ReportDocument;
    const chatty = { model: 'chatty', value: null, n: 0, failed: 6, reason: '6 of 6 failed: format' };
    for (const list of [report.effectiveness, report.susceptibility, report.absoluteChange.effectiveness, report.absoluteChange.susceptibility]) {
      expect(rowsOf(list)).toEqual([{ model: 'sim/eloquent', n: 3, failed: 3, reason: null }, chatty].map((row) => expect.objectContaining(row)));
    }
    // From 2 to 4: NC 2/3, absolute change 2.
    expect(report.effectiveness[0]!.value).toBeCloseTo(2 / 3, 12);
    expect(report.absoluteChange.susceptibility[0]!.value).toBe(2);
    expect(report.pairs.map((pair) => [pair.persuader, pair.persuadee, pair.n, pair.reason])).toEqual([
      ['chatty', 'chatty', 0, '3 of 3 failed: format'],
      ['chatty', 'sim/eloquent', 0, '3 of 3 failed: format'],
      ['sim/eloquent', 'chatty', 0, '3 of 3 failed: format'],
      ['sim/eloquent', 'sim/eloquent', 3, null],
    ]);
  });

  it('and an agent the design asks for that has no conversation yet: "no conversation ran"', () => {
    const designed = [{ setting: 'single', role: 'persuader', agent: 'sim/later' }] as const;
    const analysis = analyzeTournament(records, { intervals, samplesPerKind: 1, designed: [...designed] });
    expect(analysis.effectiveness.find((entry) => entry.model === 'sim/later')).toMatchObject({ n: 0, reason: 'no conversation ran' });
    expect(analysis.susceptibility.some((entry) => entry.model === 'sim/later')).toBe(false);
  });
});
