import { createRandom, randomIndex } from '../../domain/random.js';
import type { BootstrapOptions, WithInterval } from './claim-cell-table.js';
import { quantileOfSorted } from './quantile.js';

/**
 * Percentile bootstrap intervals over groups (e.g. conversations): each replicate draws as many
 * groups as there are, with replacement, and every statistic is computed from the drawn groups
 * (`draw` holds the drawn group indexes; a group may appear more than once). Replicates whose
 * statistic is not finite are left out. Seeded, so a report is stable. NaN bounds when there
 * are no groups.
 */
export function bootstrapGroups(groups: number, statistics: ReadonlyArray<(draw: Int32Array) => number>, options: BootstrapOptions): WithInterval[] {
  if (groups === 0 || options.replicates === 0) return statistics.map(() => ({ ciLow: Number.NaN, ciHigh: Number.NaN }));
  const samples = statistics.map(() => new Float64Array(options.replicates));
  const random = createRandom(options.seed);
  const draw = new Int32Array(groups);
  for (let replicate = 0; replicate < options.replicates; replicate++) {
    for (let position = 0; position < groups; position++) draw[position] = randomIndex(random, groups);
    for (let index = 0; index < statistics.length; index++) samples[index]![replicate] = statistics[index]!(draw);
  }
  const tail = (1 - options.confidence) / 2;
  return samples.map((values) => {
    const finite = values.filter(Number.isFinite).sort();
    return { ciLow: quantileOfSorted(finite, tail), ciHigh: quantileOfSorted(finite, 1 - tail) };
  });
}
