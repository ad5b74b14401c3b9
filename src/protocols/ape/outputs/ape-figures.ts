import { InputError } from '../../../domain/errors/input-error.js';
import { formatCount, formatCounted } from '../../../domain/text-labels.js';
import { intervalsPhrase } from '../../../metrics/intervals/interval-words.js';
import type { ProtocolFigures, ProtocolFiguresOptions } from '../../../studies/protocol-outputs.js';
import type { StoredProtocolRecord } from '../../../studies/protocol-records.js';
import type { StudyRun } from '../../../studies/run-config.js';
import { APE_PUBLISHED_GPT4O, APE_TOPICS_FILE } from '../ape-facts.js';
import { type ApeMetrics, apeMetrics } from '../ape-metrics.js';
import type { ApeVariantPair } from '../ape-model-comparisons.js';
import { type ApeDesign, apeDesignOf, apePersuaderAgent } from '../run/ape-design.js';
import { type ApeStoredRecord, apeScoredConversationOf, readApeRecord } from '../run/ape-record.js';
import {
  beliefTable,
  comparisonsTable,
  degreeTable,
  headlineTable,
  publishedTable,
  ratesByCategoryTable,
  ratesByTurnTable,
  variantsTable,
} from './ape-figure-tables.js';
import { type ApeTurnCounts, apeFiguresJson } from './ape-figures-json.js';
import { apeModelColumns } from './ape-model-columns.js';

/**
 * APE's report section (`ProtocolOutputs.figures`): the run's stored records read by APE's schema, scored, and
 * measured with the report's interval settings (`apeMetrics`), then said as paragraphs, tables and JSON.
 */

function turnCountsOf(records: readonly ApeStoredRecord[]): ApeTurnCounts {
  const turns = records.flatMap((record) => record.turns);
  return {
    total: turns.length,
    unread: turns.filter((turn) => turn.evaluation.status === 'unread').length,
    withheld: turns.filter((turn) => turn.evaluation.status === 'withheld').length,
  };
}

function whoText(design: ApeDesign): string {
  const check = design.refusalCheck ? `; a second refusal check by ${design.refusalCheck} (its readings are in the export)` : '';
  return `persuaders ${design.persuaders.join(', ')}; persuadee ${design.persuadee}; evaluator ${design.evaluator}${check}`;
}

/** The persuaders under a variant whose model the run asks with APE's own prompt too: each pair the variant table compares. */
function variantPairsOf(design: ApeDesign): ApeVariantPair[] {
  const agents = design.persuaders.map((name) => apePersuaderAgent(design, name));
  return agents.filter((agent) => agent.name !== agent.model && design.persuaders.includes(agent.model)).map(({ name, model }) => ({ agent: name, model }));
}

/** What the report says of the run's prompt variants: none, what the variant table holds, and any variant with no model to compare with. */
function variantsText(design: ApeDesign, pairs: readonly ApeVariantPair[]): string {
  const unpaired = design.persuaders
    .map((name) => apePersuaderAgent(design, name))
    .filter((agent) => agent.name !== agent.model && !design.persuaders.includes(agent.model));
  if (pairs.length === 0 && unpaired.length === 0) return '';
  const compared =
    pairs.length === 0
      ? ''
      : "A persuader under a prompt variant (model+variant) is compared with its model under APE's own prompt on the same measures, paired by topic, Holm-adjusted over the variant pairs of a measure (a family of its own).";
  const alone = unpaired.map(
    (agent) => `${agent.name} has no ${agent.model} under APE's own prompt in this run to be compared with (add ${agent.model} to --models).`,
  );
  return [compared, ...alone].filter((text) => text !== '').join(' ');
}

const intervalsText = (options: ProtocolFiguresOptions): string => intervalsPhrase(options, 'topics');

function countsText(turns: ApeTurnCounts): string {
  const unread =
    turns.unread === 0
      ? 'The evaluator gave every persuader turn a class.'
      : `${formatCount(turns.unread)} of ${formatCounted(turns.total, 'persuader turn')} got no usable class from the evaluator, even when asked again (unclassified): they are in no rate.`;
  const withheld =
    turns.withheld === 0
      ? ''
      : ` Withheld by the persuader's provider: ${formatCounted(turns.withheld, 'message')}, each counted as a refusal with no evaluator asked.`;
  return `${unread}${withheld}`;
}

function paragraphs(run: StudyRun, design: ApeDesign, metrics: ApeMetrics, records: readonly ApeStoredRecord[], options: ProtocolFiguresOptions): string[] {
  const topics = new Set(records.map((record) => record.topicIndex)).size;
  const degree = design.statedDegree
    ? 'Each persuader was told a persuasion degree (0: leave the belief alone, 1: argue as hard as it can), and the degree check below compares it with the degree the evaluator read.'
    : "The persuaders were told no persuasion degree (the benchmark's default prompt: full effort), so the degree the evaluator read has nothing to be checked against; a run with --state-degree tells it and checks it.";
  return [
    `APE (the Attempt to Persuade Eval) asks whether a model will try to persuade at all, on topics from benign to plainly harmful. Run ${run.name}: ${formatCount(records.length)} conversations on ${formatCount(topics)} topics, ${design.turns} persuader turns each, every call at temperature ${design.sampling.temperature}; ${whoText(design)}.`,
    `The evaluator classes each persuader turn as an attempt (it tries to move the persuadee the way it was told, however weakly, whatever the truth of the statement), a refusal, or no attempt. A rate is a class's share of a persuader's classified turns, with its ${intervalsText(options)}: a topic's repetitions count as one, and n is the topics a figure rests on. ~ marks an interval on too few topics (or too few that differ) to hold its coverage.`,
    countsText(turnCountsOf(records)),
    metrics.comparisons.length === 0 ? 'One persuader: there is no pair to compare.' : '',
    variantsText(design, variantPairsOf(design)),
    degree,
    `For reference, APE's published GPT-4o run (its own ${APE_TOPICS_FILE.topics} topics, prompts and evaluator) moved the persuadee's belief from ${APE_PUBLISHED_GPT4O.meanBeliefBefore.toFixed(1)} to ${APE_PUBLISHED_GPT4O.meanBeliefAfter.toFixed(1)} on average; its rates by turn are in the last table.`,
  ].filter((paragraph) => paragraph !== '');
}

/** APE's report section of one run, from its stored records (in any order). */
export function apeFigures(run: StudyRun, stored: Iterable<StoredProtocolRecord>, options: ProtocolFiguresOptions): ProtocolFigures {
  if (run.config.kind !== 'protocol') throw new InputError(`run ${run.name} is not an APE run: report it without its APE section`);
  const design = apeDesignOf(run.name, run.config.design);
  const records = [...stored].map((record) => readApeRecord(run.name, record));
  const variantPairs = variantPairsOf(design);
  const metrics = apeMetrics(records.map(apeScoredConversationOf), { intervals: { ...options }, turns: design.turns, variantPairs });
  const topics = new Set(records.map((record) => record.topicIndex)).size;
  return {
    id: 'ape',
    title: 'APE: will a model try to persuade?',
    paragraphs: paragraphs(run, design, metrics, records, options),
    tables: [
      headlineTable(metrics),
      ratesByTurnTable(metrics),
      ratesByCategoryTable(metrics),
      comparisonsTable(metrics.comparisons),
      ...(variantPairs.length > 0 ? [variantsTable(metrics.variantComparisons)] : []),
      ...(design.statedDegree ? [degreeTable(metrics.degreeCheck, metrics.options.degreeLevels)] : []),
      beliefTable(metrics.beliefChange),
      publishedTable(),
    ],
    json: apeFiguresJson(run.name, design, metrics, { conversations: records.length, topics, turns: turnCountsOf(records) }, options),
    modelColumns: apeModelColumns(metrics),
  };
}
