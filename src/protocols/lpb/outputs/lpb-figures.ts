import { InputError } from '../../../domain/errors/input-error.js';
import { formatCount, formatCounted } from '../../../domain/text-labels.js';
import { intervalsPhrase } from '../../../metrics/intervals/interval-words.js';
import type { ProtocolFigures, ProtocolFiguresOptions } from '../../../studies/protocol-outputs.js';
import type { StoredProtocolRecord } from '../../../studies/protocol-records.js';
import type { StudyRun } from '../../../studies/run-config.js';
import type { LpbComparison, LpbRankStep } from '../lpb-comparisons.js';
import { type LpbDesign, lpbDesignOf } from '../lpb-design.js';
import { LPB_PROBES_PER_PHASE, LPB_PROTOCOL, LPB_SOURCE, LPB_STANCE_SCALE } from '../lpb-facts.js';
import { type LpbFiguresData, type LpbLeaderboard, lpbFiguresData } from '../lpb-leaderboards.js';
import { readLpbRecord } from '../lpb-record.js';
import type { LpbEstimate } from '../lpb-shift-estimates.js';
import {
  comparisonsTable,
  leaderboardTable,
  offenseDefenseChart,
  offenseDefenseTable,
  pairwiseTable,
  problemsTable,
  resistanceOf,
  startAlignmentTable,
  stepsTable,
  topicsTable,
} from './lpb-figure-tables.js';

/**
 * The benchmark's report section (`ProtocolOutputs.figures`; docs/design/llm-persuasion-benchmark.md, "Report"): the
 * run's records read by the benchmark's schema, measured with the report's interval settings (`lpbFiguresData`),
 * then said as paragraphs, tables and JSON.
 */

const { low, high } = LPB_STANCE_SCALE;

function measureParagraph(): string {
  return `The LLM Persuasion Benchmark (${LPB_SOURCE.repository}) asks how far one model moves another's stated position: a persuader argues one side of a proposition (pro or con) with a target over a multi-turn conversation, and the target's stance on the proposition (${low} to ${high}) is probed ${LPB_PROBES_PER_PHASE} times before and ${LPB_PROBES_PER_PHASE} times after, each in a separate hidden call. A cell's signed shift is its post mean minus its pre mean, sign-flipped when the persuader argued con: positive is toward the persuader's side. The means below are the benchmark's own measure, recomputed here from its published per-cell table; they are not PMIYC's normalized change (NC), and no stance was asked again.`;
}

const importedText = (design: LpbDesign) =>
  design.imports
    .map(
      (entry) =>
        `bundle ${entry.bundle} (${entry.commit === null ? 'commit not known' : `commit ${entry.commit}`}, report sha256 ${entry.report.sha256.slice(0, 12)})`,
    )
    .join('; ');

function runParagraph(run: StudyRun, design: LpbDesign, data: LpbFiguresData): string {
  const missing =
    data.missingTranscripts === 0
      ? 'every completed cell has its transcript'
      : `${formatCounted(data.missingTranscripts, 'completed cell')} without a transcript (kept, with no turns)`;
  return `Run ${run.name} holds ${importedText(design)}: ${formatCounted(data.cells, 'cell')} of ${formatCounted(data.models.length, 'model')} on ${formatCounted(data.propositions.length, 'proposition')}, ${formatCount(data.completed)} completed and ${formatCount(data.blocked)} blocked by the provider's moderation (no shift, in no mean); ${missing}.`;
}

const intervalsParagraph = (options: ProtocolFiguresOptions) =>
  `Each mean has its ${intervalsPhrase(options, 'propositions')}: the cells of one proposition share its wording and difficulty, so a proposition is one cluster (the report's claim clusters, with propositions as claims); n is the cells with a shift. ~ marks an interval on too few propositions, or too few that differ, to hold its coverage. Published values are printed to three decimals; each is read back to the third it is (three integer probes), so the means equal the benchmark's own.`;

const estimateText = (estimate: LpbEstimate) => `${estimate.mean.toFixed(3)} [${estimate.ciLow.toFixed(3)}, ${estimate.ciHigh.toFixed(3)}]`;

function stepsSentence(board: LpbLeaderboard): string {
  const separable = board.steps.filter((step) => step.separable).length;
  const top = board.tiers[0] ?? [];
  const topText = top.length > 1 ? `the top ${top.length} (${top.join(', ')}) cannot be told apart` : `rank 1 (${top[0] ?? '-'}) stands apart from rank 2`;
  return `Of the ${formatCounted(board.steps.length, 'adjacent step')} of the ${board.role} ranking, ${formatCount(separable)} ${separable === 1 ? 'survives' : 'survive'} Holm; ${topText}.`;
}

function comparisonParagraph(data: LpbFiguresData): string {
  const first = data.persuaders.steps[0];
  const lead =
    first === undefined
      ? ''
      : ` The top two persuaders differ by ${formatSigned(first.comparison)} on the cells both faced (p = ${first.comparison.p.toFixed(3)}).`;
  return `What the benchmark does not publish: every two models of a role compared on the cells both faced (the same proposition, side and counterpart, neither of the two), the difference paired by proposition, with Holm's adjustment over the ${formatCounted(data.persuaders.comparisons.length, 'pair')} of the role.${lead} ${stepsSentence(data.persuaders)} ${stepsSentence(data.targets)}`;
}

const formatSigned = (comparison: LpbComparison) => `${comparison.difference >= 0 ? '+' : ''}${comparison.difference.toFixed(3)}`;

const estimateJson = (estimate: LpbEstimate | null) =>
  estimate === null
    ? null
    : {
        mean: estimate.mean,
        ciLow: estimate.ciLow,
        ciHigh: estimate.ciHigh,
        se: estimate.se,
        cells: estimate.cells,
        clusters: estimate.clusters,
        thin: estimate.thin,
      };

const stepJson = (step: LpbRankStep) => ({ rank: step.rank, higher: step.higher, lower: step.lower, separable: step.separable, ...step.comparison });

const boardJson = (board: LpbLeaderboard) => ({
  rows: board.rows.map((row, at) => ({
    rank: at + 1,
    model: row.model,
    overall: estimateJson(row.overall),
    pro: estimateJson(row.pro),
    con: estimateJson(row.con),
  })),
  comparisons: board.comparisons,
  steps: board.steps.map(stepJson),
  tiers: board.tiers,
});

function figuresJson(run: StudyRun, design: LpbDesign, data: LpbFiguresData, options: ProtocolFiguresOptions) {
  const resampled = options.method !== 't';
  const resistance = new Map(data.targets.rows.map((row) => [row.model, resistanceOf(row.overall)]));
  return {
    protocol: LPB_PROTOCOL,
    run: run.name,
    source: {
      repository: design.repository,
      imports: design.imports.map(({ bundle, commit, report, transcripts }) => ({ bundle, commit, report, transcripts })),
    },
    measure: { scale: [low, high], probesPerPhase: LPB_PROBES_PER_PHASE, shift: 'post mean - pre mean, sign-flipped for con' },
    intervals: {
      method: options.method,
      confidence: options.confidence,
      unit: 'proposition',
      replicates: resampled ? options.replicates : null,
      seed: resampled ? options.seed : null,
    },
    cells: data.cells,
    completed: data.completed,
    blocked: data.blocked,
    withShift: data.withShift,
    missingTranscripts: data.missingTranscripts,
    propositions: data.propositions,
    models: data.models,
    persuaders: boardJson(data.persuaders),
    targets: boardJson(data.targets),
    topics: data.topics.map((row) => ({
      proposition: row.proposition,
      topic: row.topic,
      all: estimateJson(row.all),
      pro: estimateJson(row.pro),
      con: estimateJson(row.con),
    })),
    startAlignment: data.startAlignment.map((row) => ({ alignment: row.alignment, ...estimateJson(row.estimate) })),
    pairwise: data.pairwise.map((row) => ({ persuader: row.persuader, target: row.target, ...estimateJson(row.estimate) })),
    offenseDefense: data.persuaders.rows.map((row) => ({
      model: row.model,
      strength: estimateJson(row.overall),
      resistance: estimateJson(resistance.get(row.model) ?? null),
    })),
    problems: data.problems,
  };
}

/** The benchmark's report section of one run, from its stored records. */
export function lpbFigures(run: StudyRun, stored: Iterable<StoredProtocolRecord>, options: ProtocolFiguresOptions): ProtocolFigures {
  if (run.config.kind !== 'protocol') throw new InputError(`run ${run.name} is not an import of the LLM Persuasion Benchmark: report it without that section`);
  const design = lpbDesignOf(run.name, run.config.design);
  const records = [...stored].map((record) => readLpbRecord(run.name, record));
  const data = lpbFiguresData(records, options);
  const top = data.persuaders.rows[0];
  return {
    id: LPB_PROTOCOL,
    title: 'LLM Persuasion Benchmark: its leaderboards recomputed, with intervals and paired tests',
    paragraphs: [
      measureParagraph(),
      runParagraph(run, design, data),
      intervalsParagraph(options),
      ...(top === undefined ? [] : [`The strongest persuader by mean is ${top.model}, ${estimateText(top.overall)}.`]),
      comparisonParagraph(data),
    ],
    tables: [
      leaderboardTable(data.persuaders),
      stepsTable(data.persuaders),
      leaderboardTable(data.targets),
      stepsTable(data.targets),
      offenseDefenseTable(data),
      topicsTable(data),
      startAlignmentTable(data),
      pairwiseTable(data),
      comparisonsTable(data.persuaders),
      comparisonsTable(data.targets),
      problemsTable(data),
    ],
    json: figuresJson(run, design, data, options),
    charts: [offenseDefenseChart(data)],
  };
}
