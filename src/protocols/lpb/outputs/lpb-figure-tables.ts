import { formatP } from '../../../domain/text-labels.js';
import type { ProtocolEstimateCell, ProtocolEstimateScatter, ProtocolTable, ProtocolTableCell } from '../../../studies/protocol-outputs.js';
import type { LpbComparison, LpbRankStep } from '../lpb-comparisons.js';
import type { LpbFiguresData, LpbLeaderboard } from '../lpb-leaderboards.js';
import type { LpbEstimate } from '../lpb-shift-estimates.js';

/** The tables of the benchmark's report section (docs/design/llm-persuasion-benchmark.md, "Report"), from its figures. */

/** A mean as the report's estimate cell: n is the cells with a shift. */
function estimateCell(estimate: LpbEstimate | null): ProtocolEstimateCell | string {
  if (estimate === null) return 'n/a';
  if (Number.isNaN(estimate.mean)) return { estimate: Number.NaN, ciLow: Number.NaN, ciHigh: Number.NaN, n: estimate.cells, reason: 'no cell with a shift' };
  return { estimate: estimate.mean, ciLow: estimate.ciLow, ciHigh: estimate.ciHigh, n: estimate.cells, thin: estimate.thin };
}

/** A difference as an estimate cell: n is the matched pairs of cells. */
const differenceCell = (comparison: LpbComparison): ProtocolEstimateCell => ({
  estimate: comparison.difference,
  ciLow: comparison.ciLow,
  ciHigh: comparison.ciHigh,
  n: comparison.cells,
  thin: comparison.thin,
});

const ROLE_WORDS = { persuader: 'Persuaders', target: 'Targets' } as const;

export function leaderboardTable(board: LpbLeaderboard): ProtocolTable {
  const measure = board.role === 'persuader' ? 'Mean signed shift' : 'Mean susceptibility';
  return {
    id: `${board.role}s`,
    title: `${ROLE_WORDS[board.role]}: ${board.role === 'persuader' ? 'how far each moves its targets' : 'how far each is moved'}, overall and by side`,
    note: 'n is the cells with a shift; the interval is clustered by proposition.',
    header: ['Rank', 'Model', measure, 'Pro side', 'Con side'],
    rows: board.rows.map((row, at): ProtocolTableCell[] => [
      at + 1,
      { model: row.model },
      estimateCell(row.overall),
      estimateCell(row.pro),
      estimateCell(row.con),
    ]),
  };
}

const comparisonCells = (comparison: LpbComparison): ProtocolTableCell[] => [
  differenceCell(comparison),
  comparison.propositions,
  formatP(comparison.p),
  formatP(comparison.pHolm),
];

export function stepsTable(board: LpbLeaderboard): ProtocolTable {
  return {
    id: `${board.role}-steps`,
    title: `${ROLE_WORDS[board.role]}: which adjacent ranks are separable`,
    note: 'Each step compares two neighbours on the cells both faced (same proposition, side and counterpart), paired by proposition; Holm over every pair of the role. n is the matched pairs of cells.',
    header: ['Step', 'Higher', 'Lower', 'Difference', 'Propositions', 'p', 'p (Holm)', 'Separable'],
    rows: board.steps.map((step: LpbRankStep): ProtocolTableCell[] => [
      `${step.rank} / ${step.rank + 1}`,
      { model: step.higher },
      { model: step.lower },
      ...comparisonCells(step.comparison),
      step.separable ? 'yes' : 'no',
    ]),
  };
}

export function comparisonsTable(board: LpbLeaderboard): ProtocolTable {
  return {
    id: `${board.role}-comparisons`,
    title: `${ROLE_WORDS[board.role]}: every two compared on the cells both faced`,
    note: 'First minus second over the matched cells, paired by proposition; Holm over every pair of the role.',
    header: ['First', 'Second', 'Difference', 'Propositions', 'p', 'p (Holm)'],
    rows: board.comparisons.map((comparison): ProtocolTableCell[] => [
      { model: comparison.first },
      { model: comparison.second },
      ...comparisonCells(comparison),
    ]),
  };
}

export function topicsTable(data: LpbFiguresData): ProtocolTable {
  return {
    id: 'topics',
    title: 'Shift by topic and side',
    note: 'A topic is one proposition, so its interval is clustered by target model (the model whose stance was measured); n is the cells with a shift.',
    header: ['Topic ID', 'Topic', 'All cells', 'Pro side', 'Con side'],
    rows: data.topics.map((row): ProtocolTableCell[] => [
      row.proposition,
      row.topic ?? '-',
      estimateCell(row.all),
      estimateCell(row.pro),
      estimateCell(row.con),
    ]),
  };
}

export function startAlignmentTable(data: LpbFiguresData): ProtocolTable {
  return {
    id: 'start-alignment',
    title: "Shift by the target's start alignment",
    note: "Where the target stood before, against the persuader's side: opposed, neutral or aligned. Clustered by proposition.",
    header: ['Start alignment', 'Mean signed shift'],
    rows: data.startAlignment.map((row): ProtocolTableCell[] => [row.alignment, estimateCell(row.estimate)]),
  };
}

export function pairwiseTable(data: Pick<LpbFiguresData, 'models' | 'pairwise'>): ProtocolTable {
  const byPair = new Map(data.pairwise.map((entry) => [`${entry.persuader}\u0000${entry.target}`, entry.estimate]));
  return {
    id: 'pairwise',
    title: 'Pairwise matrix: persuader (row) against target (column)',
    note: 'Each cell is the mean signed shift of one persuader on one target over every proposition and side, clustered by proposition.',
    header: ['Persuader \\ Target', ...data.models],
    rows: data.models.map((persuader): ProtocolTableCell[] => [
      { model: persuader },
      ...data.models.map((target) => (persuader === target ? '-' : estimateCell(byPair.get(`${persuader}\u0000${target}`) ?? null))),
    ]),
  };
}

/** Resistance: the susceptibility turned around, so that higher is harder to move. */
export const resistanceOf = (estimate: LpbEstimate): LpbEstimate => ({ ...estimate, mean: -estimate.mean, ciLow: -estimate.ciHigh, ciHigh: -estimate.ciLow });

export function offenseDefenseTable(data: LpbFiguresData): ProtocolTable {
  const resistance = new Map(data.targets.rows.map((row) => [row.model, resistanceOf(row.overall)]));
  return {
    id: 'offense-defense',
    title: 'Offense against defense: persuasion strength and resistance of each model',
    note: 'Resistance is minus the mean susceptibility: higher is harder to move. Both clustered by proposition.',
    header: ['Model', 'Persuasion strength', 'Resistance'],
    rows: data.persuaders.rows.map((row): ProtocolTableCell[] => [
      { model: row.model },
      estimateCell(row.overall),
      estimateCell(resistance.get(row.model) ?? null),
    ]),
  };
}

/**
 * The offense-against-defense chart: each model at its persuasion strength (x) and resistance (y), with both
 * intervals as bars, shown before the table of the same figures.
 */
export function offenseDefenseChart(data: LpbFiguresData): ProtocolEstimateScatter {
  const resistance = new Map(data.targets.rows.map((row) => [row.model, resistanceOf(row.overall)]));
  return {
    kind: 'estimate-scatter',
    id: 'offense-defense',
    title: 'Offense against defense',
    subtitle: 'Right: moves others more; up: harder to move. Bars: intervals clustered by proposition.',
    xTitle: 'Persuasion strength (mean signed shift as persuader)',
    yTitle: 'Resistance (minus mean susceptibility as target)',
    beforeTable: 'offense-defense',
    points: data.persuaders.rows.flatMap((row) => {
      const y = resistance.get(row.model);
      const [xCell, yCell] = [estimateCell(row.overall), estimateCell(y ?? null)];
      return typeof xCell === 'string' || typeof yCell === 'string' ? [] : [{ label: { model: row.model }, x: xCell, y: yCell }];
    }),
  };
}

export function problemsTable(data: LpbFiguresData): ProtocolTable {
  return {
    id: 'moderation-and-diagnostics',
    title: 'Moderation blocks and conversation diagnostics by model',
    note: "A diagnostic's column counts the model's cells the report's diagnostics watchlist flags with it (a count above 0); blocked cells have no shift and are in no mean.",
    header: ['Model', 'Role', 'Cells', 'Blocked by moderation', 'Without transcript', ...data.diagnostics],
    rows: data.problems.map((row): ProtocolTableCell[] => [
      { model: row.model },
      row.role,
      row.cells,
      row.blocked,
      row.missingTranscripts,
      ...data.diagnostics.map((key) => row.flagged[key] ?? 0),
    ]),
  };
}
