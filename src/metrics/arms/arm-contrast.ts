import type { IntervalOptions } from '../intervals/claim-estimates.js';
import { GroupArms, sharedSlices } from './arm-cells.js';
import { type ArmComparison, compareModels, MEASURES, type UncomparedModel } from './arm-comparisons.js';
import { type ArmPairComparison, comparePairs } from './arm-pairs.js';

/** What one group's comparison rests on: the claims paired, and the claims and cells held by one arm only. */
interface ArmDesign {
  readonly group: string;
  /** Claims with a (pair, claim) cell both arms hold. */
  readonly claims: number;
  /** Claims with data in an arm and no cell both arms hold. */
  readonly claimsLeftOut: number;
  /** (pair, claim) cells held by one arm only. */
  readonly cellsLeftOut: number;
}

export interface ArmContrastResult {
  readonly comparisons: ArmComparison[];
  readonly uncompared: UncomparedModel[];
  readonly designs: ArmDesign[];
}

/**
 * Two arms of the same design compared model by model: single-turn against multi-turn (does a
 * second chance help a persuader?), or one run against another (did a new model version change?).
 * Each model is compared over the (opponent, claim) cells both arms hold, so a model's change is
 * never the effect of an opponent or a claim that only one arm has; what is left out is named. The
 * differences are paired over claims, with the same intervals and test as between models. The
 * report feeds it conversation by conversation, the viewer with the store's per-cell sums.
 * Memory: claims x pairs x 2 per group.
 */
export class ArmContrast {
  private readonly groups = new Map<string, GroupArms>();

  /** @param armNames - what each arm is called where something is only in one ("baseline", "single") */
  constructor(private readonly armNames: readonly [string, string] = ['first', 'second']) {}

  add(group: string, arm: 0 | 1, persuader: string, persuadee: string, claimKey: string, nc: number): void {
    this.addTotal(group, arm, persuader, persuadee, claimKey, nc, 1);
  }

  /** `count` conversations of one pair on one claim whose NC sums to `sum`. */
  addTotal(group: string, arm: 0 | 1, persuader: string, persuadee: string, claimKey: string, sum: number, count: number): void {
    const entry = this.groups.get(group) ?? new GroupArms();
    this.groups.set(group, entry);
    entry.add(arm, persuader, persuadee, claimKey, sum, count);
  }

  result(options: IntervalOptions): ArmContrastResult {
    const parts = [...this.groups].map(([group, entry]) => {
      const slices = sharedSlices(entry);
      return {
        models: MEASURES.map((measure) => compareModels(group, measure, entry, slices, this.armNames, options)),
        design: {
          group,
          claims: slices.shared.claims,
          claimsLeftOut: slices.all.claims - slices.shared.claims,
          cellsLeftOut: slices.all.order.length - slices.shared.order.length,
        },
      };
    });
    return {
      comparisons: parts.flatMap((part) => part.models.flatMap((models) => models.comparisons)),
      uncompared: parts.flatMap((part) => part.models.flatMap((models) => models.uncompared)),
      designs: parts.map((part) => part.design),
    };
  }

  /** Each pair's mean in both arms over the claims both hold (what the viewer lists under the models). */
  pairs(): ArmPairComparison[] {
    return [...this.groups].flatMap(([group, entry]) => comparePairs(group, entry));
  }
}
