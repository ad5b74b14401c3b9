import { createRandom, randomIndex } from '../domain/random.js';
import { effectiveness, pairMeans, susceptibility, type ModelMean, type PairMean, type ScoredConversation } from './model-scores.js';
import { quantileOfSorted } from './quantile.js';

export interface BootstrapOptions {
  readonly replicates: number;
  /** Two-sided coverage, e.g. 0.95. */
  readonly confidence: number;
  readonly seed: number;
}

export const DEFAULT_BOOTSTRAP: BootstrapOptions = { replicates: 2000, confidence: 0.95, seed: 0 };

export interface WithInterval {
  /** Percentile bootstrap bounds; NaN when there is nothing to resample. */
  readonly ciLow: number;
  readonly ciHigh: number;
}

export interface TournamentEstimates {
  readonly pairs: (PairMean & WithInterval)[];
  readonly effectiveness: (ModelMean & WithInterval)[];
  readonly susceptibility: (ModelMean & WithInterval)[];
  readonly claims: number;
  readonly options: BootstrapOptions;
}

interface ClaimCell {
  readonly pair: number;
  readonly sum: number;
  readonly n: number;
}

function indexBy<T>(values: readonly T[]): Map<T, number> {
  return new Map(values.map((value, position) => [value, position]));
}

/** Per claim, the NC sum and count of each pair: what one draw of that claim contributes. */
function cellsByClaim(conversations: readonly ScoredConversation[], pairIndex: (c: ScoredConversation) => number): ClaimCell[][] {
  const byClaim = new Map<string, Map<number, { sum: number; n: number }>>();
  for (const conversation of conversations) {
    const cells = byClaim.get(conversation.claimKey) ?? new Map<number, { sum: number; n: number }>();
    const pair = pairIndex(conversation);
    const cell = cells.get(pair) ?? { sum: 0, n: 0 };
    cell.sum += conversation.normalizedChange;
    cell.n += 1;
    cells.set(pair, cell);
    byClaim.set(conversation.claimKey, cells);
  }
  return [...byClaim.values()].map((cells) => [...cells].map(([pair, { sum, n }]) => ({ pair, sum, n })));
}

function intervalOf(samples: number[], confidence: number): WithInterval {
  const finite = samples.filter(Number.isFinite).sort((a, b) => a - b);
  const tail = (1 - confidence) / 2;
  return { ciLow: quantileOfSorted(finite, tail), ciHigh: quantileOfSorted(finite, 1 - tail) };
}

/** Mean over the listed pairs that have data in this replicate; NaN when none has. */
function meanOfPairs(pairIndexes: readonly number[], sums: Float64Array, counts: Float64Array): number {
  let total = 0;
  let used = 0;
  for (const pair of pairIndexes) {
    if (counts[pair]! > 0) {
      total += sums[pair]! / counts[pair]!;
      used += 1;
    }
  }
  return used === 0 ? Number.NaN : total / used;
}

/**
 * Pair means, effectiveness and susceptibility with percentile bootstrap intervals. Claims are
 * the unit of resampling (SPEC 1.5): each replicate draws as many claims as there are, with
 * replacement, and takes every conversation on a drawn claim. Seeded, so reports are stable.
 */
export function estimateWithIntervals(
  conversations: readonly ScoredConversation[],
  options: BootstrapOptions = DEFAULT_BOOTSTRAP,
): TournamentEstimates {
  const points = pairMeans(conversations);
  const pairIndex = indexBy(points.map((pair) => `${pair.persuader}\u0000${pair.persuadee}`));
  const claims = cellsByClaim(conversations, (c) => pairIndex.get(`${c.persuader}\u0000${c.persuadee}`)!);
  const pointEffectiveness = effectiveness(points);
  const pointSusceptibility = susceptibility(points);
  const pairsOf = (models: ModelMean[], role: 'persuader' | 'persuadee') =>
    models.map((model) => points.flatMap((pair, position) => (pair[role] === model.model ? [position] : [])));
  const persuaderPairs = pairsOf(pointEffectiveness, 'persuader');
  const persuadeePairs = pairsOf(pointSusceptibility, 'persuadee');

  const pairSamples = points.map(() => [] as number[]);
  const effectivenessSamples = persuaderPairs.map(() => [] as number[]);
  const susceptibilitySamples = persuadeePairs.map(() => [] as number[]);
  const random = createRandom(options.seed);
  const sums = new Float64Array(points.length);
  const counts = new Float64Array(points.length);

  for (let replicate = 0; claims.length > 0 && replicate < options.replicates; replicate++) {
    sums.fill(0);
    counts.fill(0);
    for (let draw = 0; draw < claims.length; draw++) {
      for (const cell of claims[randomIndex(random, claims.length)]!) {
        sums[cell.pair]! += cell.sum;
        counts[cell.pair]! += cell.n;
      }
    }
    pairSamples.forEach((samples, pair) => samples.push(counts[pair]! > 0 ? sums[pair]! / counts[pair]! : Number.NaN));
    persuaderPairs.forEach((own, model) => effectivenessSamples[model]!.push(meanOfPairs(own, sums, counts)));
    persuadeePairs.forEach((own, model) => susceptibilitySamples[model]!.push(meanOfPairs(own, sums, counts)));
  }

  return {
    pairs: points.map((pair, position) => ({ ...pair, ...intervalOf(pairSamples[position]!, options.confidence) })),
    effectiveness: pointEffectiveness.map((model, position) => ({ ...model, ...intervalOf(effectivenessSamples[position]!, options.confidence) })),
    susceptibility: pointSusceptibility.map((model, position) => ({ ...model, ...intervalOf(susceptibilitySamples[position]!, options.confidence) })),
    claims: claims.length,
    options,
  };
}
