import { compareNames } from '../../metrics/arms/arm-cells.js';
import { ClaimCellTable } from '../../metrics/intervals/claim-cell-table.js';
import { type IntervalOptions, isThin } from '../../metrics/intervals/claim-estimates.js';
import { type ShareEstimate, sharesOverClaims } from '../../metrics/intervals/claim-shares.js';
import { holmAdjust } from '../../metrics/intervals/holm.js';
import { pairedDifferences } from '../../metrics/pair-estimates.js';
import { PERSUSAFETY_STRATEGIES, type PersusafetyCondition, type PersusafetyStrategy } from './persusafety-facts.js';
import type { PersusafetyScoredConversation } from './persusafety-strategy-shares.js';

/**
 * PersuSafety's profile shown against hidden, paired by scene: per persuader and study, how much more often the
 * persuader clearly used each strategy (and any strategy), and how much more often the persuadee accepted, when it
 * was shown the persuadee's profile. A scene played both ways is one pair; the difference's interval is over the
 * scenes both conditions have (the tournament's paired machinery, `pairedDifferences`), Holm's adjustment over
 * the 15 strategies of one persuader and study. Pure.
 */

/** What is compared: one strategy scored 2, any strategy scored 2, or the persuadee's acceptance (of decided conversations). */
type PersusafetyConditionMeasure = PersusafetyStrategy | 'any strategy' | 'accepted';

export interface PersusafetyConditionDifference {
  readonly persuader: string;
  readonly study: string;
  readonly measure: PersusafetyConditionMeasure;
  /** Each condition's share, over all its scenes. */
  readonly visible: ShareEstimate;
  readonly hidden: ShareEstimate;
  /** Visible minus hidden over the scenes both have (-1 to 1); NaN when they share none. */
  readonly difference: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  readonly p: number;
  /** Holm-adjusted over the strategies of the persuader and study (the other two measures: as p). */
  readonly pHolm: number;
  /** The scenes both conditions have: the pairs. */
  readonly scenes: number;
  readonly thin: boolean;
}

const MEASURES: readonly PersusafetyConditionMeasure[] = ['any strategy', ...PERSUSAFETY_STRATEGIES, 'accepted'];
const STRATEGY_NAMES: ReadonlySet<string> = new Set(PERSUSAFETY_STRATEGIES);
const cellOf = (group: string, measure: PersusafetyConditionMeasure, condition: PersusafetyCondition) => `${group}\u0000${measure}\u0000${condition}`;
const groupOf = (conversation: PersusafetyScoredConversation) => `${conversation.persuader}\u0000${conversation.study}`;

/** Each conversation's 0/1 on each measure it has, its scene the claim. */
function observe(conversations: readonly PersusafetyScoredConversation[]) {
  const observations: Array<{ cell: string; claim: string; yes: boolean }> = [];
  for (const conversation of conversations) {
    const group = groupOf(conversation);
    const add = (measure: PersusafetyConditionMeasure, yes: boolean) =>
      observations.push({ cell: cellOf(group, measure, conversation.condition), claim: String(conversation.scene.id), yes });
    const { scores } = conversation.judgement;
    if (scores.length === PERSUSAFETY_STRATEGIES.length) {
      add(
        'any strategy',
        scores.some((score) => score.score === 2),
      );
      for (const score of scores) add(score.strategy, score.score === 2);
    }
    if (conversation.finalDecision !== null) add('accepted', conversation.finalDecision === 'ACCEPT');
  }
  return observations;
}

interface Pair {
  readonly persuader: string;
  readonly study: string;
  readonly measure: PersusafetyConditionMeasure;
  readonly names: readonly [string, string];
  readonly cells: readonly [number, number];
}

/** Every measure of every persuader and study that has both conditions, as a pair of cells of the table. */
function pairsOf(conversations: readonly PersusafetyScoredConversation[], table: ClaimCellTable): Pair[] {
  const groups = [...new Map(conversations.map((conversation) => [groupOf(conversation), conversation])).values()].sort(
    (a, b) => compareNames(a.persuader, b.persuader) || compareNames(a.study, b.study),
  );
  return groups.flatMap(({ persuader, study }) =>
    MEASURES.flatMap((measure): Pair[] => {
      const group = `${persuader}\u0000${study}`;
      const names = [cellOf(group, measure, 'visible'), cellOf(group, measure, 'invisible')] as const;
      const [visible, hidden] = [table.cellIndex(names[0]), table.cellIndex(names[1])];
      return visible === undefined || hidden === undefined ? [] : [{ persuader, study, measure, names, cells: [visible, hidden] }];
    }),
  );
}

/** Holm's adjustment of each strategy's p over the strategies of its persuader and study, by the pair's position. */
function holmOverStrategies(pairs: readonly Pair[], p: readonly number[]): Map<number, number> {
  const adjusted = new Map<number, number>();
  const byGroup = new Map<string, number[]>();
  pairs.forEach((pair, position) => {
    if (!STRATEGY_NAMES.has(pair.measure)) return;
    const key = `${pair.persuader}\u0000${pair.study}`;
    byGroup.set(key, [...(byGroup.get(key) ?? []), position]);
  });
  for (const positions of byGroup.values()) {
    const holm = holmAdjust(positions.map((position) => p[position]!));
    positions.forEach((position, index) => {
      adjusted.set(position, holm[index]!);
    });
  }
  return adjusted;
}

/** The profile-shown-against-hidden differences of every persuader and study that has both conditions: see the top of this file. */
export function persusafetyConditionComparison(
  conversations: readonly PersusafetyScoredConversation[],
  options: IntervalOptions,
): PersusafetyConditionDifference[] {
  const observations = observe(conversations);
  const table = new ClaimCellTable();
  for (const { cell, claim, yes } of observations) table.add(cell, claim, yes ? 1 : 0);
  const pairs = pairsOf(conversations, table);
  const paired = pairedDifferences(
    table.slices(),
    pairs.map(({ cells }) => [[cells[0]], [cells[1]]] as const),
    options,
  );
  const shares = sharesOverClaims(observations, [...new Set(observations.map((observation) => observation.cell))], options);
  const holm = holmOverStrategies(
    pairs,
    paired.map(({ estimate }) => estimate.p),
  );
  return pairs.map(({ persuader, study, measure, names }, position): PersusafetyConditionDifference => {
    const { estimate } = paired[position]!;
    return {
      persuader,
      study,
      measure,
      visible: shares.get(names[0])!,
      hidden: shares.get(names[1])!,
      difference: estimate.value,
      ciLow: Math.max(-1, estimate.ciLow),
      ciHigh: Math.min(1, estimate.ciHigh),
      p: estimate.p,
      pHolm: holm.get(position) ?? estimate.p,
      scenes: estimate.claims,
      thin: isThin(estimate),
    };
  });
}
