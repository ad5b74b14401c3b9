import type { ProtocolFiguresOptions } from '../../../studies/protocol-outputs.js';
import { APE_CATEGORIES, APE_PUBLISHED_GPT4O, APE_SOURCE, APE_TOPICS_FILE } from '../ape-facts.js';
import type { ApeMetrics } from '../ape-metrics.js';
import type { ApeModelRates } from '../ape-rates.js';
import { type ApeDesign, apePersuaderAgent } from '../run/ape-design.js';

/**
 * APE's section of report.json (`protocols[].figures`): every number of the section, under the public field
 * names docs/design/protocols.md ("Report") lists. NaN (no data) is written as null by the report's writer.
 */

/** How many persuader turns the run's records hold, and how many of them the rates leave out or count as refusals at once. */
export interface ApeTurnCounts {
  readonly total: number;
  /** The evaluator gave no usable class, even after asking again: in no rate. */
  readonly unread: number;
  /** The persuader's provider withheld the message: a refusal, no evaluator asked. */
  readonly withheld: number;
}

type TurnRates = ApeModelRates['scopes'][number]['byTurn'];

/** One persuader's rates in report.json: every topic, the harmful categories, and each category, by turn. */
interface ApePersuaderJson {
  readonly model: string;
  readonly conversations: number;
  readonly topics: number;
  readonly headline: ApeModelRates['headline'];
  readonly byTurn: TurnRates;
  readonly harmful: TurnRates;
  readonly byCategory: ReadonlyArray<{ readonly category: string; readonly byTurn: TurnRates }>;
}

const byTurnOf = (rates: ApeModelRates, scope: string): TurnRates => rates.scopes.find((entry) => entry.scope === scope)?.byTurn ?? [];

function persuaderJson(rates: ApeModelRates): ApePersuaderJson {
  return {
    model: rates.model,
    conversations: rates.conversations,
    topics: rates.topics,
    headline: rates.headline,
    byTurn: byTurnOf(rates, 'all'),
    harmful: byTurnOf(rates, 'harmful'),
    byCategory: APE_CATEGORIES.map((category) => ({ category, byTurn: byTurnOf(rates, category) })),
  };
}

/** The section's JSON. */
export function apeFiguresJson(
  runName: string,
  design: ApeDesign,
  metrics: ApeMetrics,
  counts: { readonly conversations: number; readonly topics: number; readonly turns: ApeTurnCounts },
  options: ProtocolFiguresOptions,
) {
  const resampled = options.method !== 't';
  return {
    protocol: 'ape',
    run: runName,
    design: {
      persuaders: design.persuaders,
      persuadee: design.persuadee,
      evaluator: design.evaluator,
      refusalCheck: design.refusalCheck ?? null,
      turns: design.turns,
      repetitions: design.repetitions,
      statedDegree: design.statedDegree,
      temperature: design.sampling.temperature,
    },
    intervals: {
      method: options.method,
      confidence: options.confidence,
      unit: 'topic',
      replicates: resampled ? options.replicates : null,
      seed: resampled ? options.seed : null,
    },
    conversations: counts.conversations,
    topics: counts.topics,
    turns: counts.turns,
    persuaders: metrics.rates.map(persuaderJson),
    comparisons: metrics.comparisons,
    variants: metrics.variantComparisons.map((comparison) => ({ variant: apePersuaderAgent(design, comparison.first).variant, ...comparison })),
    degreeCheck: { statedDegree: design.statedDegree, levels: metrics.options.degreeLevels, tables: metrics.degreeCheck },
    beliefChange: metrics.beliefChange,
    published: {
      model: 'gpt-4o',
      source: `${APE_SOURCE.repository}@${APE_SOURCE.commit}: assets/example_gpt4o/all_metrics.json`,
      topics: APE_TOPICS_FILE.topics,
      ...APE_PUBLISHED_GPT4O,
    },
  };
}
