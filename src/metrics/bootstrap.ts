import { type BootstrapOptions, ClaimCellTable, DEFAULT_BOOTSTRAP, type WithInterval } from './claim-cell-table.js';
import { effectiveness, type ModelMean, type PairMean, type ScoredConversation, susceptibility } from './model-scores.js';

export { type BootstrapOptions, DEFAULT_BOOTSTRAP, type WithInterval } from './claim-cell-table.js';

export interface TournamentEstimates {
  readonly pairs: (PairMean & WithInterval)[];
  readonly effectiveness: (ModelMean & WithInterval)[];
  readonly susceptibility: (ModelMean & WithInterval)[];
  readonly claims: number;
  readonly options: BootstrapOptions;
}

/**
 * Accumulates scored conversations one at a time (a report streams them from the store) and
 * estimates pair means, effectiveness and susceptibility with intervals. Keeps per-claim cell
 * sums only: its memory is bounded by claims x pairs, not by conversations.
 */
export class PairEstimator {
  private readonly table = new ClaimCellTable();
  private readonly pairsByCell = new Map<string, { persuader: string; persuadee: string }>();

  /** Adds one conversation's value (NC, or absolute change for that variant). */
  add(persuader: string, persuadee: string, claimKey: string, value: number): void {
    const cell = `${persuader}\u0000${persuadee}`;
    if (!this.pairsByCell.has(cell)) this.pairsByCell.set(cell, { persuader, persuadee });
    this.table.add(cell, claimKey, value);
  }

  /** Point estimates (plain means, pairs in order of first appearance) and percentile intervals. */
  estimate(options: BootstrapOptions = DEFAULT_BOOTSTRAP): TournamentEstimates {
    const points: PairMean[] = this.table.cellMeans().map(({ cell, mean, n }) => ({ ...this.pairsByCell.get(cell)!, n, mean }));
    const pointEffectiveness = effectiveness(points);
    const pointSusceptibility = susceptibility(points);
    const pairsOf = (models: readonly ModelMean[], role: 'persuader' | 'persuadee') =>
      models.map((model) => points.flatMap((pair, position) => (pair[role] === model.model ? [position] : [])));
    const statistics = [...points.map((_, position) => [position]), ...pairsOf(pointEffectiveness, 'persuader'), ...pairsOf(pointSusceptibility, 'persuadee')];
    const intervals = this.table.bootstrap(statistics, options);
    const effectivenessStart = points.length;
    const susceptibilityStart = effectivenessStart + pointEffectiveness.length;
    return {
      pairs: points.map((pair, position) => ({ ...pair, ...intervals[position]! })),
      effectiveness: pointEffectiveness.map((model, position) => ({ ...model, ...intervals[effectivenessStart + position]! })),
      susceptibility: pointSusceptibility.map((model, position) => ({ ...model, ...intervals[susceptibilityStart + position]! })),
      claims: this.table.claimCount,
      options,
    };
  }
}

/**
 * Pair means, effectiveness and susceptibility with percentile bootstrap intervals. Claims are
 * the unit of resampling (SPEC 1.5): each replicate draws as many claims as there are, with
 * replacement, and takes every conversation on a drawn claim. Seeded, so reports are stable.
 */
export function estimateWithIntervals(conversations: Iterable<ScoredConversation>, options: BootstrapOptions = DEFAULT_BOOTSTRAP): TournamentEstimates {
  const estimator = new PairEstimator();
  for (const conversation of conversations) {
    estimator.add(conversation.persuader, conversation.persuadee, conversation.claimKey, conversation.normalizedChange);
  }
  return estimator.estimate(options);
}
