import { compareNames } from '../../metrics/arms/arm-cells.js';
import type { IntervalOptions } from '../../metrics/intervals/claim-estimates.js';
import { compareLpbModels, type LpbComparison, type LpbRankStep, type LpbRole, rankedModels, rankSteps, rankTiers } from './lpb-comparisons.js';
import type { LpbRecord } from './lpb-record.js';
import { type LpbEstimate, type LpbShiftCell, meanShifts, shiftCellsOf } from './lpb-shift-estimates.js';

/**
 * Everything the report says of an imported bundle, as numbers (docs/design/llm-persuasion-benchmark.md): the
 * benchmark's own leaderboards and breakdowns recomputed with intervals, and what it does not publish (paired
 * comparisons with Holm, separable ranks, the offense-versus-defense picture, moderation and diagnostics by model).
 */

/** One role's leaderboard: each model's mean overall and by side, in rank order, with its steps and tiers. */
export interface LpbLeaderboard {
  readonly role: LpbRole;
  readonly rows: ReadonlyArray<{ readonly model: string; readonly overall: LpbEstimate; readonly pro: LpbEstimate | null; readonly con: LpbEstimate | null }>;
  readonly comparisons: readonly LpbComparison[];
  readonly steps: readonly LpbRankStep[];
  readonly tiers: readonly (readonly string[])[];
}

/** What is counted of each model in each role: cells, moderation blocks, and cells flagged by each diagnostic. */
interface LpbModelProblems {
  readonly model: string;
  readonly role: LpbRole;
  readonly cells: number;
  readonly blocked: number;
  readonly missingTranscripts: number;
  /** Cells whose count of the diagnostic is above 0, by diagnostic key. */
  readonly flagged: Readonly<Record<string, number>>;
}

export interface LpbFiguresData {
  readonly cells: number;
  readonly completed: number;
  readonly blocked: number;
  readonly withShift: number;
  readonly missingTranscripts: number;
  readonly propositions: readonly string[];
  readonly models: readonly string[];
  readonly persuaders: LpbLeaderboard;
  readonly targets: LpbLeaderboard;
  /** Per proposition: all cells and each side, clustered by target model. */
  readonly topics: ReadonlyArray<{
    readonly proposition: string;
    readonly topic: string | null;
    readonly all: LpbEstimate;
    readonly pro: LpbEstimate | null;
    readonly con: LpbEstimate | null;
  }>;
  readonly startAlignment: ReadonlyArray<{ readonly alignment: string; readonly estimate: LpbEstimate }>;
  readonly pairwise: ReadonlyArray<{ readonly persuader: string; readonly target: string; readonly estimate: LpbEstimate }>;
  readonly problems: readonly LpbModelProblems[];
  readonly diagnostics: readonly string[];
}

const keyOf = (...parts: string[]) => parts.join('\u0000');

function leaderboard(cells: readonly LpbShiftCell[], role: LpbRole, options: IntervalOptions): LpbLeaderboard {
  const modelOf = (cell: LpbShiftCell) => (role === 'persuader' ? cell.persuader : cell.target);
  const overall = meanShifts(cells, modelOf, options);
  const bySide = meanShifts(cells, (cell) => keyOf(modelOf(cell), cell.side), options);
  const ranked = rankedModels(overall);
  const comparisons = compareLpbModels(cells, role, options);
  const steps = rankSteps(ranked, comparisons, role, options.confidence);
  const rows = ranked.map((model) => ({
    model,
    overall: overall.get(model)!,
    pro: bySide.get(keyOf(model, 'pro')) ?? null,
    con: bySide.get(keyOf(model, 'con')) ?? null,
  }));
  return { role, rows, comparisons, steps, tiers: rankTiers(ranked, steps) };
}

function topicsOf(records: readonly LpbRecord[], cells: readonly LpbShiftCell[], options: IntervalOptions): LpbFiguresData['topics'] {
  // One proposition is one cluster: its cells are clustered by the target whose stance was measured.
  const byTarget = (cell: LpbShiftCell) => cell.target;
  const all = meanShifts(cells, (cell) => cell.proposition, options, byTarget);
  const sides = meanShifts(cells, (cell) => keyOf(cell.proposition, cell.side), options, byTarget);
  const topics = new Map(records.map((record) => [record.proposition.id, record.proposition.topic]));
  return [...all.entries()]
    .sort(([a, left], [b, right]) => right.mean - left.mean || compareNames(a, b))
    .map(([proposition, estimate]) => ({
      proposition,
      topic: topics.get(proposition) ?? null,
      all: estimate,
      pro: sides.get(keyOf(proposition, 'pro')) ?? null,
      con: sides.get(keyOf(proposition, 'con')) ?? null,
    }));
}

function problemsOf(records: readonly LpbRecord[], models: readonly string[], diagnostics: readonly string[]): LpbModelProblems[] {
  return (['persuader', 'target'] as const).flatMap((role) =>
    models.map((model) => {
      const mine = records.filter((record) => (role === 'persuader' ? record.persuader : record.target) === model);
      const flagged = Object.fromEntries(diagnostics.map((key) => [key, mine.filter((record) => (record.diagnostics?.[key] ?? 0) > 0).length]));
      return {
        model,
        role,
        cells: mine.length,
        blocked: mine.filter((record) => record.outcome !== 'completed').length,
        missingTranscripts: mine.filter((record) => record.outcome === 'completed' && record.source.transcript === null).length,
        flagged,
      };
    }),
  );
}

/** The pairwise matrix's figures alone: each persuader's mean on each target, clustered by proposition. */
export function lpbPairwiseData(records: readonly LpbRecord[], options: IntervalOptions): Pick<LpbFiguresData, 'models' | 'pairwise'> {
  const cells = shiftCellsOf(records);
  const models = modelsOf(records);
  const pairwise = meanShifts(cells, (cell) => keyOf(cell.persuader, cell.target), options);
  return {
    models,
    pairwise: models.flatMap((persuader) =>
      models.flatMap((target) => {
        const estimate = pairwise.get(keyOf(persuader, target));
        return estimate === undefined ? [] : [{ persuader, target, estimate }];
      }),
    ),
  };
}

const modelsOf = (records: readonly LpbRecord[]) => [...new Set(records.flatMap((record) => [record.persuader, record.target]))].sort(compareNames);

/** The figures of a run's records, with the report's interval settings. */
export function lpbFiguresData(records: readonly LpbRecord[], options: IntervalOptions): LpbFiguresData {
  const cells = shiftCellsOf(records);
  const { models, pairwise } = lpbPairwiseData(records, options);
  const diagnostics = [...new Set(records.flatMap((record) => Object.keys(record.diagnostics ?? {})))];
  const alignments = meanShifts(cells, (cell) => cell.startAlignment, options);
  const completed = records.filter((record) => record.outcome === 'completed');
  return {
    cells: records.length,
    completed: completed.length,
    blocked: records.length - completed.length,
    withShift: cells.length,
    missingTranscripts: completed.filter((record) => record.source.transcript === null).length,
    propositions: [...new Set(records.map((record) => record.proposition.id))].sort(compareNames),
    models,
    persuaders: leaderboard(cells, 'persuader', options),
    targets: leaderboard(cells, 'target', options),
    topics: topicsOf(records, cells, options),
    startAlignment: ['opposed', 'neutral', 'aligned', 'unknown'].flatMap((alignment) => {
      const estimate = alignments.get(alignment);
      return estimate === undefined ? [] : [{ alignment, estimate }];
    }),
    pairwise,
    problems: problemsOf(records, models, diagnostics),
    diagnostics,
  };
}
