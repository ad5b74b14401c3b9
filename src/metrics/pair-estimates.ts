import { ClaimCellTable, type ClaimSlices, type WithInterval } from './intervals/claim-cell-table.js';
import { type CellStatistic, type ClaimEstimate, DEFAULT_INTERVALS, estimateOverClaims, type IntervalOptions, isThin } from './intervals/claim-estimates.js';
import { holmAdjust } from './intervals/holm.js';
import { claimsWithData, countMarked, keepClaims } from './intervals/shared-slots.js';
import { effectiveness, type ModelMean, type PairMean, type ScoredConversation, susceptibility } from './model-scores.js';

/** An interval over claims, how many claims it rests on, and whether they are too few to trust it. */
export interface ClaimInterval extends WithInterval {
  /** Standard error over claims (cluster-robust). */
  readonly se: number;
  /** Claims behind the estimate. */
  readonly claims: number;
  /** Too few claims, or too few that differ, for the interval to hold its coverage (see `isThin`). */
  readonly thin: boolean;
}

/**
 * The difference between two models' effectiveness (or susceptibility), paired over the claims both
 * have data on: each side's value is taken over those claims only, so a claim one side lacks (its
 * conversations all failed) never weighs on the difference. `claims` counts the shared claims.
 */
export interface ModelDifference extends ClaimInterval {
  readonly measure: 'effectiveness' | 'susceptibility';
  readonly first: string;
  readonly second: string;
  /** first - second. */
  readonly difference: number;
  /** Two-sided p-value of no difference (t test over claims). */
  readonly p: number;
  /** Holm-adjusted over every comparison of the same measure in the same domain and setting. */
  readonly pHolm: number;
  /**
   * Claims that each model's own (headline) value rests on and the comparison leaves out, because
   * the other model has no data on them: 0 and 0 when the difference is that of the two values shown.
   */
  readonly claimsLeftOut: { readonly first: number; readonly second: number };
}

export interface TournamentEstimates {
  readonly pairs: (PairMean & ClaimInterval)[];
  readonly effectiveness: (ModelMean & ClaimInterval)[];
  readonly susceptibility: (ModelMean & ClaimInterval)[];
  /** Every two persuaders (effectiveness) and every two persuadees (susceptibility), first before second as seen. */
  readonly comparisons: ModelDifference[];
  readonly claims: number;
  readonly options: IntervalOptions;
}

/** Keeps an interval inside the values the statistic can take (a t interval on few claims may reach past them). */
function clipped(estimate: ClaimEstimate, range: number): ClaimInterval {
  return {
    ciLow: Math.max(-range, estimate.ciLow),
    ciHigh: Math.min(range, estimate.ciHigh),
    se: estimate.se,
    claims: estimate.claims,
    thin: isThin(estimate),
  };
}

function* twoOf<T>(items: readonly T[]): Generator<[T, T]> {
  for (let first = 0; first < items.length; first++) for (let second = first + 1; second < items.length; second++) yield [items[first]!, items[second]!];
}

/**
 * Accumulates scored conversations one at a time (a report streams them from the store) and
 * estimates pair means, effectiveness and susceptibility with intervals over claims, and the
 * paired differences between models. Keeps per-claim cell sums only: its memory is bounded by
 * claims x pairs, not by conversations.
 */
export class PairEstimator {
  private readonly table = new ClaimCellTable();
  private readonly pairsByCell = new Map<string, { persuader: string; persuadee: string }>();

  /** @param range - the largest absolute value a conversation can score: 1 for NC, 4 for absolute change */
  constructor(private readonly range = 1) {}

  /** Adds one conversation's value (NC, or absolute change for that variant). */
  add(persuader: string, persuadee: string, claimKey: string, value: number): void {
    const cell = `${persuader}\u0000${persuadee}`;
    if (!this.pairsByCell.has(cell)) this.pairsByCell.set(cell, { persuader, persuadee });
    this.table.add(cell, claimKey, value);
  }

  /** Adds `count` conversations of a pair on one claim whose values sum to `sum` (a store's aggregate: the viewer's run page). */
  addTotal(persuader: string, persuadee: string, claimKey: string, sum: number, count: number): void {
    const cell = `${persuader}\u0000${persuadee}`;
    if (!this.pairsByCell.has(cell)) this.pairsByCell.set(cell, { persuader, persuadee });
    this.table.addTotal(cell, claimKey, sum, count);
  }

  /** The cells' data by claim, for per-claim results. */
  get claimTable(): ClaimCellTable {
    return this.table;
  }

  /** Point estimates (plain means, pairs in order of first appearance), intervals and comparisons. */
  estimate(options: IntervalOptions = DEFAULT_INTERVALS): TournamentEstimates {
    const points: PairMean[] = this.table.cellMeans().map(({ cell, mean, n }) => ({ ...this.pairsByCell.get(cell)!, n, mean }));
    const pointEffectiveness = effectiveness(points);
    const pointSusceptibility = susceptibility(points);
    const cellsOf = (role: 'persuader' | 'persuadee', model: string) => points.flatMap((pair, position) => (pair[role] === model ? [position] : []));
    const one = (cells: number[]): CellStatistic => [{ cells, weight: 1 }];
    const differences = [
      ...[...twoOf(pointEffectiveness.map((model) => model.model))].map(([first, second]) => ({
        measure: 'effectiveness' as const,
        first,
        second,
        role: 'persuader' as const,
      })),
      ...[...twoOf(pointSusceptibility.map((model) => model.model))].map(([first, second]) => ({
        measure: 'susceptibility' as const,
        first,
        second,
        role: 'persuadee' as const,
      })),
    ];
    const slices = this.table.slices();
    const statistics: CellStatistic[] = [
      ...points.map((_, position) => one([position])),
      ...pointEffectiveness.map((model) => one(cellsOf('persuader', model.model))),
      ...pointSusceptibility.map((model) => one(cellsOf('persuadee', model.model))),
    ];
    const estimates = estimateOverClaims(slices, statistics, options);
    const effectivenessStart = points.length;
    const susceptibilityStart = effectivenessStart + pointEffectiveness.length;
    const paired = pairedDifferences(
      slices,
      differences.map(({ first, second, role }) => [cellsOf(role, first), cellsOf(role, second)] as const),
      options,
    );
    const differenceEstimates = paired.map((entry) => entry.estimate);
    const holm = new Map(
      (['effectiveness', 'susceptibility'] as const).flatMap((measure) => {
        const positions = differences.flatMap((entry, position) => (entry.measure === measure ? [position] : []));
        const adjusted = holmAdjust(positions.map((position) => differenceEstimates[position]!.p));
        return positions.map((position, rank) => [position, adjusted[rank]!] as const);
      }),
    );
    return {
      pairs: points.map((pair, position) => ({ ...pair, ...clipped(estimates[position]!, this.range) })),
      effectiveness: pointEffectiveness.map((model, position) => ({ ...model, ...clipped(estimates[effectivenessStart + position]!, this.range) })),
      susceptibility: pointSusceptibility.map((model, position) => ({ ...model, ...clipped(estimates[susceptibilityStart + position]!, this.range) })),
      comparisons: differences.map(({ measure, first, second }, position) => {
        const estimate = differenceEstimates[position]!;
        const { claimsLeftOut } = paired[position]!;
        return {
          measure,
          first,
          second,
          difference: estimate.value,
          p: estimate.p,
          pHolm: holm.get(position)!,
          ...clipped(estimate, 2 * this.range),
          claimsLeftOut,
        };
      }),
      claims: this.table.claimCount,
      options,
    };
  }
}

/**
 * Each difference (first cells minus second cells) over the claims both sides have data on. Most
 * differences of a complete tournament keep every claim; those that do not are estimated on their
 * own narrowed slices, one estimate pass per distinct set of shared claims. Exported for the other
 * paired comparisons between models (APE's rates over topics), so that there is one way to pair them.
 */
export function pairedDifferences(
  slices: ClaimSlices,
  sides: ReadonlyArray<readonly [readonly number[], readonly number[]]>,
  options: IntervalOptions,
): Array<{ estimate: ClaimEstimate; claimsLeftOut: { first: number; second: number } }> {
  const marks = new Map<string, Uint8Array>();
  const claimsOf = (cells: readonly number[]) => {
    const key = cells.join(',');
    const found = marks.get(key) ?? claimsWithData(slices, cells);
    marks.set(key, found);
    return found;
  };
  const byShared = new Map<string, { shared: Uint8Array; positions: number[] }>();
  const leftOut = sides.map(([first, second], position) => {
    const [firstClaims, secondClaims] = [claimsOf(first), claimsOf(second)];
    const shared = firstClaims.map((mark, claim) => mark & secondClaims[claim]!);
    const counts = { first: countMarked(firstClaims), second: countMarked(secondClaims), shared: countMarked(shared) };
    // Nothing left out: the whole table gives the same estimate (and a bootstrap the same draws as before).
    const key = counts.first === counts.shared && counts.second === counts.shared ? 'all' : shared.join('');
    const group = byShared.get(key) ?? { shared, positions: [] };
    byShared.set(key, group);
    group.positions.push(position);
    return { first: counts.first - counts.shared, second: counts.second - counts.shared };
  });
  const estimates = new Array<ClaimEstimate>(sides.length);
  for (const [key, { shared, positions }] of byShared) {
    const narrowed = key === 'all' ? slices : keepClaims(slices, shared);
    const statistics = positions.map(
      (position): CellStatistic => [
        { cells: sides[position]![0], weight: 1 },
        { cells: sides[position]![1], weight: -1 },
      ],
    );
    estimateOverClaims(narrowed, statistics, options).forEach((estimate, index) => {
      estimates[positions[index]!] = estimate;
    });
  }
  return sides.map((_, position) => ({ estimate: estimates[position]!, claimsLeftOut: leftOut[position]! }));
}

/**
 * Pair means, effectiveness and susceptibility with intervals over claims (SPEC 1.5: claims are
 * the unit; by default Student t with cluster-robust errors, see docs/design/statistics.md).
 */
export function estimateWithIntervals(conversations: Iterable<ScoredConversation>, options: IntervalOptions = DEFAULT_INTERVALS): TournamentEstimates {
  const estimator = new PairEstimator();
  for (const conversation of conversations) {
    estimator.add(conversation.persuader, conversation.persuadee, conversation.claimKey, conversation.normalizedChange);
  }
  return estimator.estimate(options);
}
