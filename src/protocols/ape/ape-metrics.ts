import { DEFAULT_INTERVALS, type IntervalOptions } from '../../metrics/intervals/claim-estimates.js';
import { type ApeBeliefChange, apeBeliefChange } from './ape-belief-change.js';
import { type ApeDegreeTable, apeDegreeCheck } from './ape-degree-check.js';
import { APE_DEFAULTS } from './ape-facts.js';
import {
  type ApeMeasure,
  type ApeModelDifference,
  type ApeVariantPair,
  compareApeModels,
  compareApeVariants,
  defaultApeMeasures,
} from './ape-model-comparisons.js';
import { type ApeModelRates, apeRates } from './ape-rates.js';
import type { ApeScoredConversation } from './ape-scored-conversation.js';

/** The evaluator's scale in the benchmark's config (`evaluation_scale`): degrees 0 and 1. */
export const APE_DEGREE_LEVELS = 2;

export interface ApeMetricsOptions {
  /** How intervals are made; topics are the unit. Default: Student t at 95%, as every interval of the report. */
  readonly intervals?: IntervalOptions;
  /** The persuader turns a conversation has: every table lists turns 1 to this (or the last seen, if later). Default 3. */
  readonly turns?: number;
  /** Levels of the persuasion degree (0 to levels - 1). Default `APE_DEGREE_LEVELS`. */
  readonly degreeLevels?: number;
  /** The rates persuaders are compared on. Default `defaultApeMeasures(turns)`: the headline, attempts and refusals per turn. */
  readonly measures?: readonly ApeMeasure[];
  /** Persuaders under a prompt variant, each compared with its model on the same measures (`compareApeVariants`). Default: none. */
  readonly variantPairs?: readonly ApeVariantPair[];
}

/** Everything APE measures of a run's persuaders. */
export interface ApeMetrics {
  /** Per persuader: attempt, refusal and no-attempt rates by turn, overall, on the harmful categories and per category. */
  readonly rates: ApeModelRates[];
  /** Every two persuaders on each measure, paired by topic, Holm-adjusted over the pairs of a measure. */
  readonly comparisons: ApeModelDifference[];
  /** Each variant pair, the agent minus its model, on each measure, paired by topic, Holm-adjusted over the variant pairs of a measure. */
  readonly variantComparisons: ApeModelDifference[];
  /** Instructed against read persuasion degree, per persuader and turn. */
  readonly degreeCheck: ApeDegreeTable[];
  /** Belief on 0-100 before and after, and its change, per persuader and direction. */
  readonly beliefChange: ApeBeliefChange[];
  readonly options: { readonly intervals: IntervalOptions; readonly turns: number; readonly degreeLevels: number; readonly measures: readonly ApeMeasure[] };
}

/** Refuses a turn number no table has a row for: the mapping onto `ApeScoredConversation` is wrong, not the run. */
function checkTurns(conversations: readonly ApeScoredConversation[]): void {
  for (const conversation of conversations) {
    for (const { turn } of conversation.turns) {
      if (!Number.isInteger(turn) || turn < 1)
        throw new RangeError(`APE turn ${turn} of ${conversation.persuader} on topic ${conversation.topicIndex}: persuader turns are numbered from 1`);
    }
  }
}

/**
 * APE's metrics over scored conversations, in any order (a repetition of a topic is another
 * conversation on it). Pure: the same conversations and options give the same result, intervals
 * included (a bootstrap is seeded by `intervals.seed`). See docs/design/statistics.md, "APE".
 */
export function apeMetrics(conversations: Iterable<ApeScoredConversation>, options: ApeMetricsOptions = {}): ApeMetrics {
  const all = [...conversations];
  checkTurns(all);
  const intervals = options.intervals ?? DEFAULT_INTERVALS;
  const turns = options.turns ?? APE_DEFAULTS.turns;
  const degreeLevels = options.degreeLevels ?? APE_DEGREE_LEVELS;
  const measures = options.measures ?? defaultApeMeasures(turns);
  return {
    rates: apeRates(all, turns, intervals),
    comparisons: compareApeModels(all, measures, intervals),
    variantComparisons: compareApeVariants(all, measures, intervals, options.variantPairs ?? []),
    degreeCheck: apeDegreeCheck(all, degreeLevels, turns),
    beliefChange: apeBeliefChange(all, intervals),
    options: { intervals, turns, degreeLevels, measures },
  };
}
