import { InputError } from '../../../domain/errors/input-error.js';
import { formatCount, formatCounted } from '../../../domain/text-labels.js';
import { intervalsPhrase } from '../../../metrics/intervals/interval-words.js';
import type { ProtocolFigures, ProtocolFiguresOptions } from '../../../studies/protocol-outputs.js';
import type { StoredProtocolRecord } from '../../../studies/protocol-records.js';
import type { StudyRun } from '../../../studies/run-config.js';
import { type SyconDesign, syconDesignOf } from '../run/sycon-design.js';
import { readSyconRecord, type SyconStoredRecord, syconScoredConversationOf } from '../run/sycon-record.js';
import { SYCON_SOURCE } from '../sycon-facts.js';
import { type SyconMetrics, syconMetrics } from '../sycon-metrics.js';
import { SYCON_PRESSURE_SOURCES, type SyconPressureSource } from '../sycon-outcome.js';
import { defenceTable, flipRateTable, flipTable } from './sycon-figure-tables.js';
import { syconModelColumns } from './sycon-model-columns.js';

/**
 * SYCON's report section (`ProtocolOutputs.figures`): the run's stored records read by SYCON's schema, scored, and
 * measured with the report's interval settings (`syconMetrics`), then said as paragraphs, tables and JSON.
 */

/** The replies the run's records hold, those the judge's answer could not be read for, and where the push-backs came from. */
interface SyconCounts {
  readonly conversations: number;
  readonly questions: number;
  readonly replies: number;
  readonly unread: number;
  readonly pushBacks: Readonly<Record<SyconPressureSource, number>>;
}

function countsOf(records: readonly SyconStoredRecord[]): SyconCounts {
  const turns = records.flatMap((record) => record.turns);
  const pushBacks = Object.fromEntries(
    SYCON_PRESSURE_SOURCES.map((source) => [source, turns.filter((turn) => turn.pressure?.source === source).length]),
  ) as Record<SyconPressureSource, number>;
  return {
    conversations: records.length,
    questions: new Set(records.map((record) => `${record.setting}-${record.questionIndex}`)).size,
    replies: turns.length,
    unread: turns.filter((turn) => turn.judgement.status === 'unread').length,
    pushBacks,
  };
}

const intervalsText = (options: ProtocolFiguresOptions): string => intervalsPhrase(options, 'questions');

function paragraphs(run: StudyRun, design: SyconDesign, counts: SyconCounts, metrics: SyconMetrics, options: ProtocolFiguresOptions): string[] {
  const pressure =
    design.persuader === undefined
      ? "no pressure agent (a turn without the benchmark's push-back got pmiyc's fixed disagreement)"
      : `pressure agent ${design.persuader}`;
  const { benchmark, agent, fixed } = counts.pushBacks;
  const unread =
    counts.unread === 0
      ? 'The judge labelled every reply.'
      : `${formatCount(counts.unread)} of ${formatCounted(counts.replies, 'reply', 'replies')} got no usable label from the judge, even when asked again (unread): a figure that depends on one is unknown for that conversation, counted and in no mean.`;
  return [
    `SYCON-Bench asks how long a model holds a stance under pressure: it answers a question holding a stance (a debate's, or the correction of a false presupposition the question rests on), is pushed back on turn after turn, and a judge labels each reply aligned with the stance, neutral, or against it. Run ${run.name}: ${formatCount(counts.conversations)} conversations on ${formatCount(counts.questions)} questions, ${design.pressureTurns} pressure turns each, at temperature ${design.sampling.temperature}; models ${design.persuadees.join(', ')}; judge ${design.judge}; ${pressure}; defences ${design.defences.list.map((defence) => defence.name).join(', ')}.`,
    `Push-backs: ${formatCount(benchmark)} the benchmark's own, ${formatCount(agent)} the pressure agent's, ${formatCount(fixed)} pmiyc's fixed one. Every figure has its ${intervalsText(options)}: a question's repetitions count as one, and n is the questions a figure rests on. ~ marks an interval on too few questions (or too few that differ) to hold its coverage.`,
    unread,
    metrics.comparisons.length === 0 ? 'One defence only: there is nothing to compare with the baseline.' : '',
  ].filter((paragraph) => paragraph !== '');
}

/** The section's JSON: every number, under the field names docs/design/protocols.md lists. */
function figuresJson(runName: string, design: SyconDesign, counts: SyconCounts, metrics: SyconMetrics, options: ProtocolFiguresOptions) {
  const resampled = options.method !== 't';
  return {
    protocol: 'sycon',
    run: runName,
    source: `${SYCON_SOURCE.repository}@${SYCON_SOURCE.commit}`,
    design: {
      persuadees: design.persuadees,
      judge: design.judge,
      pressureAgent: design.persuader ?? null,
      settings: design.questions.selection.settings,
      defences: design.defences.list,
      pressureTurns: design.pressureTurns,
      repetitions: design.repetitions,
      temperature: design.sampling.temperature,
      judgeTemperature: design.judgeTemperature,
    },
    intervals: {
      method: options.method,
      confidence: options.confidence,
      unit: 'question',
      replicates: resampled ? options.replicates : null,
      seed: resampled ? options.seed : null,
    },
    ...counts,
    byModel: metrics.cells.filter((cell) => cell.scope === 'all' && cell.defence === design.defences.list[0]!.name),
    cells: metrics.cells,
    comparisons: metrics.comparisons,
  };
}

/** SYCON's report section of one run, from its stored records (in any order). */
export function syconFigures(run: StudyRun, stored: Iterable<StoredProtocolRecord>, options: ProtocolFiguresOptions): ProtocolFigures {
  if (run.config.kind !== 'protocol') throw new InputError(`run ${run.name} is not a SYCON-Bench run: report it without its SYCON-Bench section`);
  const design = syconDesignOf(run.name, run.config.design);
  const records = [...stored].map((record) => readSyconRecord(run.name, record));
  const metrics = syconMetrics(records.map(syconScoredConversationOf), { intervals: { ...options }, pressureTurns: design.pressureTurns });
  const counts = countsOf(records);
  return {
    id: 'sycon',
    title: 'SYCON-Bench: how long does a model hold its stance?',
    paragraphs: paragraphs(run, design, counts, metrics, options),
    tables: [flipTable(metrics), flipRateTable(metrics), ...(metrics.comparisons.length > 0 ? [defenceTable(metrics.comparisons)] : [])],
    json: figuresJson(run.name, design, counts, metrics, options),
    modelColumns: syconModelColumns(metrics, design.defences.list[0]!.name),
  };
}
