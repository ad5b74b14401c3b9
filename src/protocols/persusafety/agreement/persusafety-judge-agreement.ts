import { addCoincidences, addUnit, alphaFromCoincidences, type Coincidences, emptyCoincidences } from '../../../metrics/agreement/krippendorff-alpha.js';
import type { BootstrapOptions } from '../../../metrics/intervals/claim-cell-table.js';
import { bootstrapGroups } from '../../../metrics/intervals/group-bootstrap.js';
import { PERSUSAFETY_STRATEGIES, type PersusafetyScore, type PersusafetyStrategy } from '../persusafety-facts.js';

/**
 * How far two judges of the same PersuSafety conversations agree (docs/design/statistics.md, "Agreement between
 * two judges of PersuSafety"): per strategy, Krippendorff's alpha of their 0/1/2 scores with the ordinal metric,
 * each conversation scored by both a unit of two values, and a percentile bootstrap interval over conversations
 * (a replicate draws conversations with replacement; their coincidence matrices add up). Beside it, n (the
 * conversations both scored), the share each scored 2, and the share on which they gave the same score. One more
 * row pools the 15 strategies: every (conversation, strategy) a unit, the conversation still the unit resampled.
 */

/** A conversation's scores by each judge, in PersuSafety's order; undefined where that judge has none (unread, not asked, not labelled). */
export interface JudgedPair {
  readonly itemKey: string;
  readonly first: readonly PersusafetyScore[] | undefined;
  readonly second: readonly PersusafetyScore[] | undefined;
}

/** The agreement on one strategy (or `all` of them pooled). */
export interface StrategyAgreement {
  readonly strategy: PersusafetyStrategy | 'all';
  /** Ordinal alpha; NaN when no conversation was scored by both, or every score of both judges is the same. */
  readonly alpha: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  /** Conversations scored by both judges (for `all`, the same conversations: each gives 15 units). */
  readonly conversations: number;
  /** The share of those each judge scored 2 (for `all`, of the conversation-strategy units). */
  readonly firstClearlyUsed: number;
  readonly secondClearlyUsed: number;
  /** The share on which both gave the same score. */
  readonly sameScore: number;
}

/** The scale's values as alpha takes them: 0/1/2 read as 1..3. */
const CATEGORIES = 3;

interface Tally {
  readonly matrices: Coincidences[];
  units: number;
  firstTwos: number;
  secondTwos: number;
  same: number;
}

const newTally = (): Tally => ({ matrices: [], units: 0, firstTwos: 0, secondTwos: 0, same: 0 });

function addPair(tally: Tally, conversation: number, first: PersusafetyScore, second: PersusafetyScore): void {
  const matrix = tally.matrices[conversation] ?? emptyCoincidences(CATEGORIES);
  tally.matrices[conversation] = matrix;
  addUnit(matrix, [first + 1, second + 1]);
  tally.units += 1;
  if (first === 2) tally.firstTwos += 1;
  if (second === 2) tally.secondTwos += 1;
  if (first === second) tally.same += 1;
}

function agreementOf(strategy: StrategyAgreement['strategy'], tally: Tally, conversations: number, options: BootstrapOptions): StrategyAgreement {
  const total = emptyCoincidences(CATEGORIES);
  for (const matrix of tally.matrices) addCoincidences(total, matrix);
  const { alpha } = alphaFromCoincidences(total, 'ordinal');
  const [interval] = bootstrapGroups(
    conversations,
    [
      (draw) => {
        const replicate = emptyCoincidences(CATEGORIES);
        for (const conversation of draw) addCoincidences(replicate, tally.matrices[conversation]!);
        return alphaFromCoincidences(replicate, 'ordinal').alpha;
      },
    ],
    Number.isNaN(alpha) ? { ...options, replicates: 0 } : options,
  );
  const share = (count: number) => (tally.units === 0 ? Number.NaN : count / tally.units);
  return {
    strategy,
    alpha,
    ciLow: interval!.ciLow,
    ciHigh: interval!.ciHigh,
    conversations,
    firstClearlyUsed: share(tally.firstTwos),
    secondClearlyUsed: share(tally.secondTwos),
    sameScore: share(tally.same),
  };
}

/** Each of the 15 strategies' agreement, in PersuSafety's order, then all of them pooled (see the top of this file). */
export function persusafetyJudgeAgreement(pairs: Iterable<JudgedPair>, options: BootstrapOptions): StrategyAgreement[] {
  const perStrategy = PERSUSAFETY_STRATEGIES.map(newTally);
  const pooled = newTally();
  let conversations = 0;
  for (const { first, second } of pairs) {
    if (first === undefined || second === undefined) continue;
    PERSUSAFETY_STRATEGIES.forEach((_, index) => {
      addPair(perStrategy[index]!, conversations, first[index]!, second[index]!);
      addPair(pooled, conversations, first[index]!, second[index]!);
    });
    conversations += 1;
  }
  return [
    ...PERSUSAFETY_STRATEGIES.map((strategy, index) => agreementOf(strategy, perStrategy[index]!, conversations, options)),
    agreementOf('all', pooled, conversations, options),
  ];
}
