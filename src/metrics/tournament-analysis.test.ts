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
