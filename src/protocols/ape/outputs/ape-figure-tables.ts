import { formatP } from '../../../domain/text-labels.js';
import type { ProtocolEstimateCell, ProtocolTable, ProtocolTableCell } from '../../../studies/protocol-outputs.js';
import type { ApeBeliefChange } from '../ape-belief-change.js';
import type { ApeDegreeTable } from '../ape-degree-check.js';
import { APE_CATEGORIES, APE_PUBLISHED_GPT4O, APE_TOPICS_FILE } from '../ape-facts.js';
import type { ApeMetrics } from '../ape-metrics.js';
import type { ApeMeasure, ApeModelDifference } from '../ape-model-comparisons.js';
import type { ApeModelRates, ApeRate, ApeScope } from '../ape-rates.js';

/**
 * The tables of APE's report section, from its metrics: rates by turn, the headline, rates by category, paired
 * comparisons, the degree check, belief change, and the published GPT-4o figures. Every rate is an estimate
 * cell whose n is the topics it rests on; the report renders the cells (and labels simulated models).
 */

/** A rate as a table cell: the share, its interval over topics, n = topics. */
export const rateCell = (rate: ApeRate): ProtocolEstimateCell => ({
  estimate: rate.rate,
  ciLow: rate.ciLow,
  ciHigh: rate.ciHigh,
  n: rate.topics,
  thin: rate.thin,
});

/** A value without an interval (a share of turns, a published figure) as a cell with its n. */
const plainCell = (value: number, n: number): ProtocolEstimateCell => ({ estimate: value, ciLow: Number.NaN, ciHigh: Number.NaN, n });

const RATE_COLUMNS = ['attempt', 'refusal', 'no attempt', 'unclassified turns'];

/** The turns of one scope of a persuader's rates. */
export const scopeTurns = (rates: ApeModelRates, scope: ApeScope): ApeModelRates['scopes'][number]['byTurn'] =>
  rates.scopes.find((entry) => entry.scope === scope)?.byTurn ?? [];

function rateRows(rates: ApeModelRates, scope: ApeScope, lead: readonly ProtocolTableCell[]): ProtocolTableCell[][] {
  return scopeTurns(rates, scope).map((turn) => [
    ...lead,
    turn.turn,
    rateCell(turn.attempt),
    rateCell(turn.refusal),
    rateCell(turn.noAttempt),
    turn.unclassified,
  ]);
}

export function ratesByTurnTable(metrics: ApeMetrics): ProtocolTable {
  return {
    id: 'rates-by-turn',
    title: 'Attempt, refusal and no-attempt rates by turn',
    note: "Each rate is the class's share of the persuader's classified turns at that turn, over every topic; n = topics.",
    header: ['persuader', 'turn', ...RATE_COLUMNS],
    rows: metrics.rates.flatMap((rates) => rateRows(rates, 'all', [{ model: rates.model }])),
  };
}

export function headlineTable(metrics: ApeMetrics): ProtocolTable {
  return {
    id: 'headline',
    title: 'Headline: turn-1 attempts on the harmful categories',
    note: "APE's headline figure: the share of turn-1 messages that try to persuade on the NoncontroversiallyHarmful and UnderminingControl topics (lower is safer); the refusal rate beside it. n = topics.",
    header: ['persuader', 'turn-1 attempt, harmful', 'turn-1 refusal, harmful'],
    rows: metrics.rates.map((rates) => [{ model: rates.model }, rateCell(rates.headline), rateCell(scopeTurns(rates, 'harmful')[0]!.refusal)]),
  };
}

export function ratesByCategoryTable(metrics: ApeMetrics): ProtocolTable {
  return {
    id: 'rates-by-category',
    title: 'Rates by category',
    note: 'The same rates on the topics of each category (a persuader with no topic in a category has n/a there); n = topics.',
    header: ['persuader', 'category', 'turn', ...RATE_COLUMNS],
    rows: metrics.rates.flatMap((rates) => APE_CATEGORIES.flatMap((category) => rateRows(rates, category, [{ model: rates.model }, category]))),
  };
}

const scopeWords = (scope: ApeScope) => (scope === 'all' ? 'every topic' : scope === 'harmful' ? 'harmful categories' : scope);

/** "turn 1 attempt rate, harmful categories". */
const measureText = (measure: ApeMeasure): string => `turn ${measure.turn} ${measure.turnClass} rate, ${scopeWords(measure.scope)}`;

/** A comparison as a row: the measure, the two persuaders, the difference with its interval over topics, p and p (Holm). */
const comparisonRow = (comparison: ApeModelDifference): ProtocolTableCell[] => [
  measureText(comparison.measure),
  { model: comparison.first },
  { model: comparison.second },
  { estimate: comparison.difference, ciLow: comparison.ciLow, ciHigh: comparison.ciHigh, n: comparison.topics, thin: comparison.thin },
  formatP(comparison.p),
  formatP(comparison.pHolm),
];

export function comparisonsTable(comparisons: readonly ApeModelDifference[]): ProtocolTable {
  return {
    id: 'comparisons',
    title: 'Persuaders compared, paired by topic',
    note: "First persuader's rate minus the second's, over the topics both faced (n = those topics), with a t test over topics; p (Holm) is adjusted over every pair on the same measure.",
    header: ['measure', 'first', 'second', 'difference', 'p', 'p (Holm)'],
    rows: comparisons.map(comparisonRow),
  };
}

/** Each prompt variant against its model under APE's own prompt (`compareApeVariants`). */
export function variantsTable(comparisons: readonly ApeModelDifference[]): ProtocolTable {
  return {
    id: 'variants',
    title: "Prompt variants against APE's own prompt, paired by topic",
    note: "The rate of a persuader under a prompt variant minus its model's under APE's own prompt, over the topics both faced (n = those topics), with a t test over topics; p (Holm) is adjusted over the variant pairs on the same measure.",
    header: ['measure', 'under the variant', "under APE's prompt", 'difference', 'p', 'p (Holm)'],
    rows: comparisons.map(comparisonRow),
  };
}

/** Every instructed x read degree pair of the scale, row by row: "told 0, read 1". */
const degreePairs = (levels: number) => Array.from({ length: levels * levels }, (_, index) => [Math.floor(index / levels), index % levels] as const);

export function degreeTable(tables: readonly ApeDegreeTable[], levels: number): ProtocolTable {
  const pairs = degreePairs(levels);
  return {
    id: 'degree-check',
    title: 'Persuasion degree: told against read',
    note: 'Turns by the degree the persuader was told and the degree the evaluator read in its message; agreement is the share on the diagonal (n = turns with both degrees). Turns the evaluator read no degree in are counted apart.',
    header: ['persuader', 'turn', ...pairs.map(([told, read]) => `told ${told}, read ${read}`), 'agreement', 'no degree read'],
    rows: tables.map((table) => [
      { model: table.model },
      table.turn,
      ...pairs.map(([told, read]) => table.counts[told]![read]!),
      plainCell(table.agreement, table.turns),
      table.unread,
    ]),
  };
}

const meanCell = (mean: ApeBeliefChange['before'], change: ApeBeliefChange): ProtocolEstimateCell => ({
  estimate: mean.mean,
  ciLow: mean.ciLow,
  ciHigh: mean.ciHigh,
  n: change.topics,
  thin: change.thin,
});

export function beliefTable(changes: readonly ApeBeliefChange[]): ProtocolTable {
  return {
    id: 'belief-change',
    title: "The persuadee's belief, before and after",
    note: "Belief in the topic's statement on 0-100, before the first persuader turn and after the persuadee's reply to the last, per direction the persuader was told (into: raise it; out of: lower it); change is after minus before over the same conversations. n = topics.",
    header: ['persuader', 'direction', 'before', 'after', 'change', 'conversations', 'belief unread'],
    rows: changes
      .filter((change) => change.conversations + change.unread > 0)
      .map((change) => [
        { model: change.model },
        change.direction === 'into' ? 'into' : 'out of',
        meanCell(change.before, change),
        meanCell(change.after, change),
        meanCell(change.change, change),
        change.conversations,
        change.unread,
      ]),
  };
}

export function publishedTable(): ProtocolTable {
  return {
    id: 'published-gpt-4o',
    title: "APE's published figures for GPT-4o, for reference",
    note: `From the benchmark's repository (assets/example_gpt4o/all_metrics.json), over its ${APE_TOPICS_FILE.topics} topics: a point of reference, not a comparison (other topics, prompts and evaluator). n = topics.`,
    header: ['turn', 'attempt', 'refusal'],
    rows: APE_PUBLISHED_GPT4O.attemptRateByTurn.map((attempt, index) => [
      index + 1,
      plainCell(attempt, APE_TOPICS_FILE.topics),
      plainCell(APE_PUBLISHED_GPT4O.refusalRateByTurn[index]!, APE_TOPICS_FILE.topics),
    ]),
  };
}
