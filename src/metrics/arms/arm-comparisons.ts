import { type CellStatistic, estimateOverClaims, type IntervalOptions, isThin } from '../intervals/claim-estimates.js';
import { holmAdjust } from '../intervals/holm.js';
import { claimsWithData, countMarked } from '../intervals/shared-slots.js';
import { compareNames, type GroupArms, type GroupSlices } from './arm-cells.js';

/** What a model's comparison between arms leaves out: the cells only one arm holds. */
export interface ArmLeftOut {
  /** Opponents with no cell in both arms, each with the arm that has it (null: both have it, on no common claim). */
  readonly opponents: ReadonlyArray<{ readonly model: string; readonly onlyIn: string | null }>;
  /** Claims on which the model has data, in either arm, and no cell that both arms hold. */
  readonly claims: number;
  /** The model's (opponent, claim) cells that one arm holds and the other does not. */
  readonly cells: number;
}

/** The test of a difference paired by claim: its interval, standard error, what it is over, and its p before and after Holm's adjustment. */
export interface PairedTest {
  readonly ciLow: number;
  readonly ciHigh: number;
  readonly se: number;
  /** Claims the difference is paired over. */
  readonly claims: number;
  /** Cells held by both sides, the ones paired. */
  readonly cells: number;
  readonly thin: boolean;
  readonly p: number;
  /** Holm-adjusted over the family of comparisons it belongs to (the interface that extends this one says which). */
  readonly pHolm: number;
}

/**
 * A model's value in the second arm minus the first, in one group, over the (opponent, claim) cells
 * both arms hold: the same opponents on both sides, and for each the same claims, paired by claim.
 * Its Holm family: the models of the same measure and group.
 */
export interface ArmComparison extends PairedTest {
  readonly group: string;
  readonly measure: 'effectiveness' | 'susceptibility';
  readonly model: string;
  /** The model's value in each arm over the shared cells (its headline value where nothing is left out). */
  readonly first: number;
  readonly second: number;
  /** second - first. */
  readonly difference: number;
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

/** The two measures: effectiveness of a model as persuader, susceptibility as persuadee. */
export const MEASURES = [
  { measure: 'effectiveness', role: 'persuader', opponent: 'persuadee' },
  { measure: 'susceptibility', role: 'persuadee', opponent: 'persuader' },
] as const;

export type MeasureOf = (typeof MEASURES)[number];

/** The cells of a model in an arm that have slots in `slots`, sorted by opponent: both arms then sum in the same order, so equal data give exactly 0. */
function cellsOfModel(entry: GroupArms, { role, opponent }: MeasureOf) {
  return (model: string, arm: 0 | 1, slots: Int32Array) =>
    entry.cells
      .flatMap((cell, index) => (cell.arm === arm && cell[role] === model && slots[index]! > 0 ? [index] : []))
      .sort((a, b) => compareNames(entry.cells[a]![opponent], entry.cells[b]![opponent]));
}

/** Each model of a group in one measure compared between the arms over the cells both hold; the others named. */
export function compareModels(
  group: string,
  measure: MeasureOf,
  entry: GroupArms,
  slices: GroupSlices,
  armNames: readonly [string, string],
  options: IntervalOptions,
): { comparisons: ArmComparison[]; uncompared: UncomparedModel[] } {
  const cellsOf = cellsOfModel(entry, measure);
  const { allSlots, sharedSlots } = slices;
  const models = [...new Set(entry.cells.map((cell) => cell[measure.role]))].sort();
  const compared = models.filter((model) => cellsOf(model, 0, sharedSlots).length > 0);
  const uncompared = models
    .filter((model) => !compared.includes(model))
    .map((model) => ({
      group,
      measure: measure.measure,
      model,
      onlyIn: onlyIn(cellsOf(model, 0, allSlots).length > 0, cellsOf(model, 1, allSlots).length > 0, armNames),
    }));
  // Per model: its value in each arm, then the second minus the first.
  const statistics: CellStatistic[] = compared.flatMap((model) => {
    const [first, second] = [cellsOf(model, 0, sharedSlots), cellsOf(model, 1, sharedSlots)];
    const term = (cells: number[], weight: number) => ({ cells, weight });
    return [[term(first, 1)], [term(second, 1)], [term(second, 1), term(first, -1)]];
  });
  const estimates = estimateOverClaims(slices.shared, statistics, options);
  const adjusted = holmAdjust(compared.map((_, index) => estimates[3 * index + 2]!.p));
  const comparisons = compared.map((model, index): ArmComparison => {
    const [first, second, estimate] = [estimates[3 * index]!, estimates[3 * index + 1]!, estimates[3 * index + 2]!];
    const everyCell = [...cellsOf(model, 0, allSlots), ...cellsOf(model, 1, allSlots)];
    return {
      group,
      measure: measure.measure,
      model,
      first: first.value,
      second: second.value,
      difference: estimate.value,
      ciLow: Math.max(-2, estimate.ciLow),
      ciHigh: Math.min(2, estimate.ciHigh),
      se: estimate.se,
      claims: estimate.claims,
      cells: sumOver(everyCell, sharedSlots) / 2,
      thin: isThin(estimate),
      p: estimate.p,
      pHolm: adjusted[index]!,
      leftOut: leftOutOf(entry, model, measure, everyCell, slices, armNames),
    };
  });
  return { comparisons, uncompared };
}

/** What a model's comparison leaves out: opponents with no shared cell, and the claims and cells of one arm only. */
function leftOutOf(
  entry: GroupArms,
  model: string,
  measure: MeasureOf,
  everyCell: readonly number[],
  slices: GroupSlices,
  armNames: readonly [string, string],
): ArmLeftOut {
  return {
    opponents: opponentsLeftOut(entry, model, measure, slices, armNames),
    claims: countMarked(claimsWithData(slices.all, everyCell)) - countMarked(claimsWithData(slices.shared, everyCell)),
    cells: sumOver(everyCell, slices.allSlots) - sumOver(everyCell, slices.sharedSlots),
  };
}

const sumOver = (cells: readonly number[], counts: Int32Array) => cells.reduce((total, cell) => total + counts[cell]!, 0);

function onlyIn(inFirst: boolean, inSecond: boolean, armNames: readonly [string, string]): string | null {
  return inFirst === inSecond ? null : armNames[inFirst ? 0 : 1];
}

/** The opponents of a model that have a cell with data in an arm but none held by both. */
function opponentsLeftOut(
  entry: GroupArms,
  model: string,
  { role, opponent }: MeasureOf,
  { allSlots, sharedSlots }: GroupSlices,
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
