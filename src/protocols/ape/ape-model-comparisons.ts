import { compareNames } from '../../metrics/arms/arm-cells.js';
import { ClaimCellTable } from '../../metrics/intervals/claim-cell-table.js';
import { type IntervalOptions, isThin } from '../../metrics/intervals/claim-estimates.js';
import { holmAdjust } from '../../metrics/intervals/holm.js';
import { pairedDifferences } from '../../metrics/pair-estimates.js';
import { type ApeScope, scopesOf } from './ape-rates.js';
import { type ApeScoredConversation, type ApeTurnClass, topicKeyOf } from './ape-scored-conversation.js';

/** A rate two persuaders are compared on: one class's share on one turn in one scope. */
export interface ApeMeasure {
  readonly turnClass: ApeTurnClass;
  readonly turn: number;
  readonly scope: ApeScope;
}

/** The headline measure: attempts at turn 1 on the harmful categories. */
export const APE_HEADLINE_MEASURE: ApeMeasure = { turnClass: 'attempt', turn: 1, scope: 'harmful' };

/** The comparisons a report makes unless asked for others: the headline, then the attempt and refusal rates of every turn on every topic. */
export function defaultApeMeasures(turns: number): ApeMeasure[] {
  const everyTurn = Array.from({ length: turns }, (_, index) => index + 1);
  return [
    APE_HEADLINE_MEASURE,
    ...everyTurn.map((turn): ApeMeasure => ({ turnClass: 'attempt', turn, scope: 'all' })),
    ...everyTurn.map((turn): ApeMeasure => ({ turnClass: 'refusal', turn, scope: 'all' })),
  ];
}

/**
 * Two persuaders' rates on one measure, paired over the topics both have a classified turn on: each
 * side's rate is taken over those topics only, so a topic one model never faced cannot make a difference.
 */
export interface ApeModelDifference {
  readonly measure: ApeMeasure;
  readonly first: string;
  readonly second: string;
  /** first's rate - second's, over the shared topics (-1 to 1); NaN when they share none. */
  readonly difference: number;
  /** Student t (or the chosen bootstrap) over the shared topics, clipped to [-1, 1]. */
  readonly ciLow: number;
  readonly ciHigh: number;
  readonly se: number;
  /** The shared topics: the pairs of the test. */
  readonly topics: number;
  readonly thin: boolean;
  /** Two-sided p of no difference (t test over topics). */
  readonly p: number;
  /** Holm-adjusted over every pair of models on the same measure. */
  readonly pHolm: number;
  /** Topics each model's own rate rests on that the other did not face (0 and 0: the difference of the two rates shown). */
  readonly topicsLeftOut: { readonly first: number; readonly second: number };
}

const cellOf = (model: string, measure: number) => `${model}\u0000${measure}`;

/** Each measure's 0/1 per classified turn, in one table whose claims are topics. */
function measureTable(conversations: readonly ApeScoredConversation[], measures: readonly ApeMeasure[]): ClaimCellTable {
  const table = new ClaimCellTable();
  for (const conversation of conversations) {
    const scopes = scopesOf(conversation.category);
    for (const { turn, turnClass } of conversation.turns) {
      if (turnClass === null) continue;
      measures.forEach((measure, index) => {
        if (measure.turn === turn && scopes.includes(measure.scope))
          table.add(cellOf(conversation.persuader, index), topicKeyOf(conversation), turnClass === measure.turnClass ? 1 : 0);
      });
    }
  }
  return table;
}

type CellPair = { first: string; second: string; cells: [number, number] };

/** Every two models (in name order) that both have data on measure `index`, with their cells. */
function pairsOn(table: ClaimCellTable, models: readonly string[], index: number): CellPair[] {
  const present = models.flatMap((model) => {
    const cell = table.cellIndex(cellOf(model, index));
    return cell === undefined ? [] : [{ model, cell }];
  });
  return present.flatMap((first, position) =>
    present.slice(position + 1).map((second) => ({ first: first.model, second: second.model, cells: [first.cell, second.cell] as [number, number] })),
  );
}

/** The listed pairs (first against second) whose two persuaders both have data on measure `index`, with their cells. */
function listedPairsOn(table: ClaimCellTable, pairs: readonly ApeVariantPair[], index: number): CellPair[] {
  return pairs.flatMap(({ agent, model }) => {
    const first = table.cellIndex(cellOf(agent, index));
    const second = table.cellIndex(cellOf(model, index));
    return first === undefined || second === undefined ? [] : [{ first: agent, second: model, cells: [first, second] as [number, number] }];
  });
}

/**
 * The pairs `pairsOf` gives on each measure compared, paired by topic over the topics both faced, with the
 * machinery of the tournament's comparisons (`pairedDifferences`); Holm's adjustment runs over the pairs of one
 * measure.
 */
function comparePairs(
  conversations: readonly ApeScoredConversation[],
  measures: readonly ApeMeasure[],
  options: IntervalOptions,
  pairsOf: (table: ClaimCellTable, index: number) => CellPair[],
): ApeModelDifference[] {
  const table = measureTable(conversations, measures);
  const slices = table.slices();
  return measures.flatMap((measure, index) => {
    const pairs = pairsOf(table, index);
    const paired = pairedDifferences(
      slices,
      pairs.map(({ cells }) => [[cells[0]], [cells[1]]] as const),
      options,
    );
    const adjusted = holmAdjust(paired.map(({ estimate }) => estimate.p));
    return pairs.map(({ first, second }, position): ApeModelDifference => {
      const { estimate, claimsLeftOut } = paired[position]!;
      return {
        measure,
        first,
        second,
        difference: estimate.value,
        ciLow: Math.max(-1, estimate.ciLow),
        ciHigh: Math.min(1, estimate.ciHigh),
        se: estimate.se,
        topics: estimate.claims,
        thin: isThin(estimate),
        p: estimate.p,
        pHolm: adjusted[position]!,
        topicsLeftOut: claimsLeftOut,
      };
    });
  });
}

/**
 * Every two persuaders compared on each measure, paired by topic over the topics both faced; Holm's adjustment
 * runs over the pairs of a measure. A model with no classified turn on a measure is in none of its pairs.
 */
export function compareApeModels(
  conversations: readonly ApeScoredConversation[],
  measures: readonly ApeMeasure[],
  options: IntervalOptions,
): ApeModelDifference[] {
  const models = [...new Set(conversations.map((conversation) => conversation.persuader))].sort(compareNames);
  return comparePairs(conversations, measures, options, (table, index) => pairsOn(table, models, index));
}

/** A persuader under a prompt variant and its model, which the run asks with APE's own prompt too. */
export interface ApeVariantPair {
  /** The agent's name, `model+variant`. */
  readonly agent: string;
  readonly model: string;
}

/**
 * Each prompt variant against its model's APE prompt (docs/design/variants.md, "Protocols"): the agent's rate
 * minus its model's on each measure (`first` the agent, `second` the model), paired by topic as
 * `compareApeModels` pairs; Holm's adjustment runs over the variant pairs of a measure, a family of its own.
 */
export function compareApeVariants(
  conversations: readonly ApeScoredConversation[],
  measures: readonly ApeMeasure[],
  options: IntervalOptions,
  pairs: readonly ApeVariantPair[],
): ApeModelDifference[] {
  return comparePairs(conversations, measures, options, (table, index) => listedPairsOn(table, pairs, index));
}
