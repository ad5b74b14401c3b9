import { ClaimCellTable, type ClaimSlices } from './claim-cell-table.js';
import { type CellStatistic, estimateOverClaims, type IntervalOptions, isThin } from './claim-estimates.js';
import { holmAdjust } from './holm.js';
import { claimsWithData, countMarked, keepMatchedSlots, slotsPerCell } from './shared-slots.js';

/** What a model's comparison between arms leaves out: the cells only one arm holds. */
export interface ArmLeftOut {
  /** Opponents with no cell in both arms, each with the arm that has it (null: both have it, on no common claim). */
  readonly opponents: ReadonlyArray<{ readonly model: string; readonly onlyIn: string | null }>;
  /** Claims on which the model has data, in either arm, and no cell that both arms hold. */
  readonly claims: number;
  /** The model's (opponent, claim) cells that one arm holds and the other does not. */
  readonly cells: number;
}

/**
 * A model's value in the second arm minus the first, in one group, over the (opponent, claim) cells
 * both arms hold: the same opponents on both sides, and for each the same claims, paired by claim.
 */
export interface ArmComparison {
  readonly group: string;
  readonly measure: 'effectiveness' | 'susceptibility';
  readonly model: string;
  /** The model's value in each arm over the shared cells (its headline value where nothing is left out). */
  readonly first: number;
  readonly second: number;
  /** second - first. */
  readonly difference: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  readonly se: number;
  /** Claims the difference is paired over. */
  readonly claims: number;
  /** (opponent, claim) cells held by both arms. */
  readonly cells: number;
  readonly thin: boolean;
  readonly p: number;
  /** Holm-adjusted over the models of the same measure and group. */
  readonly pHolm: number;
  readonly leftOut: ArmLeftOut;
}

/** A model with data in a group that shares no cell with the other arm, so it is not compared there. */
export interface UncomparedModel {
  readonly group: string;
  readonly measure: ArmComparison['measure'];
  readonly model: string;
  /** The arm that has it; null when both do, on no common (opponent, claim). */
  readonly onlyIn: string | null;
}

/** One ordered pair in both arms: its mean NC over the claims both hold (over its own claims where it is in one arm only). */
export interface ArmPairComparison {
  readonly group: string;
  readonly persuader: string;
  readonly persuadee: string;
  readonly first: number | null;
  readonly second: number | null;
  readonly difference: number | null;
  /** Claims both arms hold for the pair. */
  readonly claims: number;
  /** The pair's conversations in each arm, on every claim. */
  readonly firstCount: number;
  readonly secondCount: number;
}

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

interface Cell {
  readonly arm: 0 | 1;
  readonly persuader: string;
  readonly persuadee: string;
}

const MEASURES = [
  { measure: 'effectiveness', role: 'persuader', opponent: 'persuadee' },
  { measure: 'susceptibility', role: 'persuadee', opponent: 'persuader' },
] as const;

/** One group's data, with the cells both arms hold. */
class GroupArms {
  readonly table = new ClaimCellTable();
  readonly cells: Cell[] = [];

  add(arm: 0 | 1, persuader: string, persuadee: string, claimKey: string, sum: number, count: number): void {
    this.table.addTotal(`${arm}\u0000${persuader}\u0000${persuadee}`, claimKey, sum, count);
    // A new cell was made: cells and the table's cell indexes grow together.
    if (this.table.cells.length > this.cells.length) this.cells.push({ arm, persuader, persuadee });
  }

  /** Each cell of arm 0 with the same pair's cell of arm 1. */
  matches(): Array<[number, number]> {
    const second = new Map<string, number>();
    this.cells.forEach((cell, index) => {
      if (cell.arm === 1) second.set(`${cell.persuader}\u0000${cell.persuadee}`, index);
    });
    return this.cells.flatMap((cell, index) => {
      const other = cell.arm === 0 ? second.get(`${cell.persuader}\u0000${cell.persuadee}`) : undefined;
      return other === undefined ? [] : [[index, other] as [number, number]];
    });
  }
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

  /** Whether any conversation was added to the arm. */
  hasArm(arm: 0 | 1): boolean {
    return [...this.groups.values()].some((entry) => entry.cells.some((cell) => cell.arm === arm));
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

interface GroupSlices {
  readonly all: ClaimSlices;
  readonly shared: ClaimSlices;
  readonly allSlots: Int32Array;
  readonly sharedSlots: Int32Array;
}

/** A group's data, and the part of it on the cells both arms hold, with each cell's claims in both. */
function sharedSlices(entry: GroupArms): GroupSlices {
  const all = entry.table.slices();
  const shared = keepMatchedSlots(all, entry.matches());
  return { all, shared, allSlots: slotsPerCell(all), sharedSlots: slotsPerCell(shared) };
}

function compareModels(
  group: string,
  { measure, role, opponent }: (typeof MEASURES)[number],
  entry: GroupArms,
  { all, shared, allSlots, sharedSlots }: GroupSlices,
  armNames: readonly [string, string],
  options: IntervalOptions,
): Omit<ArmContrastResult, 'designs'> {
  const models = [...new Set(entry.cells.map((cell) => cell[role]))].sort();
  // The cells of a model in an arm, sorted by opponent: both arms then sum in the same order, so equal data give exactly 0.
  const cellsOf = (model: string, arm: 0 | 1, slots: Int32Array) =>
    entry.cells
      .flatMap((cell, index) => (cell.arm === arm && cell[role] === model && slots[index]! > 0 ? [index] : []))
      .sort((a, b) => compareNames(entry.cells[a]![opponent], entry.cells[b]![opponent]));
  const compared = models.filter((model) => cellsOf(model, 0, sharedSlots).length > 0);
  const uncompared = models
    .filter((model) => !compared.includes(model))
    .map((model) => ({ group, measure, model, onlyIn: onlyIn(cellsOf(model, 0, allSlots).length > 0, cellsOf(model, 1, allSlots).length > 0, armNames) }));
  const statistics: CellStatistic[] = compared.flatMap((model) => {
    const [first, second] = [cellsOf(model, 0, sharedSlots), cellsOf(model, 1, sharedSlots)];
    return [
      [{ cells: first, weight: 1 }],
      [{ cells: second, weight: 1 }],
      [
        { cells: second, weight: 1 },
        { cells: first, weight: -1 },
      ],
    ];
  });
  const estimates = estimateOverClaims(shared, statistics, options);
  const adjusted = holmAdjust(compared.map((_, index) => estimates[3 * index + 2]!.p));
  const comparisons = compared.map((model, index): ArmComparison => {
    const estimate = estimates[3 * index + 2]!;
    const everyCell = [...cellsOf(model, 0, allSlots), ...cellsOf(model, 1, allSlots)];
    return {
      group,
      measure,
      model,
      first: estimates[3 * index]!.value,
      second: estimates[3 * index + 1]!.value,
      difference: estimate.value,
      ciLow: Math.max(-2, estimate.ciLow),
      ciHigh: Math.min(2, estimate.ciHigh),
      se: estimate.se,
      claims: estimate.claims,
      cells: sumOver(everyCell, sharedSlots) / 2,
      thin: isThin(estimate),
      p: estimate.p,
      pHolm: adjusted[index]!,
      leftOut: {
        opponents: opponentsLeftOut(entry, model, role, opponent, allSlots, sharedSlots, armNames),
        claims: countMarked(claimsWithData(all, everyCell)) - countMarked(claimsWithData(shared, everyCell)),
        cells: sumOver(everyCell, allSlots) - sumOver(everyCell, sharedSlots),
      },
    };
  });
  return { comparisons, uncompared };
}

const compareNames = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sumOver = (cells: readonly number[], counts: Int32Array) => cells.reduce((total, cell) => total + counts[cell]!, 0);

function onlyIn(inFirst: boolean, inSecond: boolean, armNames: readonly [string, string]): string | null {
  return inFirst === inSecond ? null : armNames[inFirst ? 0 : 1];
}

/** The opponents of a model that have a cell with data in an arm but none held by both. */
function opponentsLeftOut(
  entry: GroupArms,
  model: string,
  role: 'persuader' | 'persuadee',
  opponent: 'persuader' | 'persuadee',
  allSlots: Int32Array,
  sharedSlots: Int32Array,
  armNames: readonly [string, string],
): ArmLeftOut['opponents'] {
  const seen = new Map<string, { inArm: [boolean, boolean]; shared: boolean }>();
  entry.cells.forEach((cell, index) => {
    if (cell[role] !== model || allSlots[index] === 0) return;
    const state = seen.get(cell[opponent]) ?? { inArm: [false, false], shared: false };
    seen.set(cell[opponent], state);
    state.inArm[cell.arm] = true;
    if (sharedSlots[index]! > 0) state.shared = true;
  });
  return [...seen]
    .filter(([, state]) => !state.shared)
    .sort(([a], [b]) => compareNames(a, b))
    .map(([name, state]) => ({ model: name, onlyIn: onlyIn(state.inArm[0], state.inArm[1], armNames) }));
}

function comparePairs(group: string, entry: GroupArms): ArmPairComparison[] {
  const matches = entry.matches();
  const { shared, sharedSlots } = sharedSlices(entry);
  const paired = matches.filter(([first]) => sharedSlots[first]! > 0);
  const estimates = estimateOverClaims(
    shared,
    paired.flatMap(([first, second]): CellStatistic[] => [[{ cells: [first], weight: 1 }], [{ cells: [second], weight: 1 }]]),
    { method: 't', replicates: 0, confidence: 0.95, seed: 0 },
  );
  const onShared = new Map(paired.map(([first], position) => [first, { first: estimates[2 * position]!, second: estimates[2 * position + 1]! }]));
  const counterpart = new Map(matches);
  const matchedSecond = new Set(matches.map(([, second]) => second));
  const means = entry.table.cellMeans();
  return entry.cells.flatMap((cell, index): ArmPairComparison[] => {
    if (cell.arm === 1 && matchedSecond.has(index)) return [];
    const other = counterpart.get(index);
    const counts =
      cell.arm === 1
        ? { firstCount: 0, secondCount: means[index]!.n }
        : { firstCount: means[index]!.n, secondCount: other === undefined ? 0 : means[other]!.n };
    const where = { group, persuader: cell.persuader, persuadee: cell.persuadee, ...counts };
    const both = onShared.get(index);
    if (both)
      return [{ ...where, first: both.first.value, second: both.second.value, difference: both.second.value - both.first.value, claims: both.first.claims }];
    const value = means[index]!.mean;
    if (cell.arm === 1) return [{ ...where, first: null, second: value, difference: null, claims: 0 }];
    return [{ ...where, first: value, second: other === undefined ? null : means[other]!.mean, difference: null, claims: 0 }];
  });
}
