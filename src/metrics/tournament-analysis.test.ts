import { describe, expect, it } from 'vitest';
import { handRecord } from '../../test/support/hand-records.js';
import { FIGURE_4, FIGURE_4_PERSUADEES as PERSUADEES } from '../../test/support/paper-figures.js';
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
  const analysis = analyzeTournament(recordsForMatrix(matrix, turns), { bootstrap: { replicates: 200, confidence: 0.95, seed: 1 }, samplesPerKind: 1 });
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

  // Figures 2 (single-turn subjective) and 5 (multi-turn misinformation) exist only as images in the
  // paper and its repository; their numbers are not available as text, so Figure 3's single-turn
  // effectiveness (Llama-3.3-70B 0.55, Claude 2 0.24) and multi-turn misinformation susceptibility
  // (GPT-4o-mini 0.19) cannot be checked yet. Add the matrices here when they are transcribed.
  it.todo('reproduces 0.55 / 0.24 (Figure 2) and 0.19 (Figure 5) once those matrices are available as numbers');
});
