import { ClaimCellTable } from '../../metrics/intervals/claim-cell-table.js';
import { estimateOverClaims, type IntervalOptions, isThin } from '../../metrics/intervals/claim-estimates.js';
import type { LpbSide } from './lpb-facts.js';
import type { LpbRecord } from './lpb-record.js';

/**
 * The benchmark's measure as pmiyc reads it, and means of it with intervals (docs/design/llm-persuasion-benchmark.md):
 * a cell's signed shift (post mean minus pre mean, toward the persuader's side), averaged over a group of cells, with
 * an interval clustered by proposition (the report's claim-cluster machinery, `estimateOverClaims`, with
 * propositions as the claims).
 */

/** A cell with a shift, as the figures read it. */
export interface LpbShiftCell {
  readonly cell: string;
  readonly proposition: string;
  readonly persuader: string;
  readonly target: string;
  readonly side: LpbSide;
  readonly startAlignment: string | null;
  /** The signed shift read back to its exact third (see `exactShift`). */
  readonly shift: number;
}

/** A mean of shifts over a group of cells: its interval, standard error, the cells it rests on and their clusters. */
export interface LpbEstimate {
  readonly mean: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  readonly se: number;
  /** Cells with a shift: the published table's "Valid shifts". */
  readonly cells: number;
  /** Clusters (propositions, or target models for one proposition's figures): the interval's n. */
  readonly clusters: number;
  readonly thin: boolean;
}

/**
 * A published shift read back to its exact value: the means are of three integer probes, so they are thirds, which
 * the report prints to three decimals (0.667). A value within 0.002 of a third is that third, so means over many
 * cells equal the benchmark's own full-precision means; any other value (a half, from two valid probes) is kept.
 */
export function exactShift(published: number): number {
  const thirds = Math.round(published * 3);
  // `|| 0` turns the published -0.000 into 0.
  return Math.abs(published * 3 - thirds) < 0.006 ? thirds / 3 || 0 : published;
}

/** The completed cells with a shift; blocked cells and cells with no shift are in no mean. */
export function shiftCellsOf(records: readonly LpbRecord[]): LpbShiftCell[] {
  return records.flatMap((record) =>
    record.outcome !== 'completed' || record.signedShift === null
      ? []
      : [
          {
            cell: record.cell,
            proposition: record.proposition.id,
            persuader: record.persuader,
            target: record.target,
            side: record.side,
            startAlignment: record.startAlignment,
            shift: exactShift(record.signedShift),
          },
        ],
  );
}

const NO_ESTIMATE: Omit<LpbEstimate, 'cells'> = { mean: Number.NaN, ciLow: Number.NaN, ciHigh: Number.NaN, se: Number.NaN, clusters: 0, thin: true };

/**
 * The mean shift of each group of cells (`groupOf`; null leaves a cell out), with its interval clustered by
 * `clusterOf` (the proposition, unless said otherwise), by the report's interval settings.
 */
export function meanShifts(
  cells: readonly LpbShiftCell[],
  groupOf: (cell: LpbShiftCell) => string | null,
  options: IntervalOptions,
  clusterOf: (cell: LpbShiftCell) => string = (cell) => cell.proposition,
): Map<string, LpbEstimate> {
  const table = new ClaimCellTable();
  for (const cell of cells) {
    const group = groupOf(cell);
    if (group !== null) table.add(group, clusterOf(cell), cell.shift);
  }
  const groups = table.cells;
  const counts = table.cellMeans();
  const estimates = estimateOverClaims(
    table.slices(),
    groups.map((_, index) => [{ cells: [index], weight: 1 }]),
    options,
  );
  return new Map(
    groups.map((group, index) => {
      const estimate = estimates[index]!;
      const cellsOf = counts[index]!.n;
      if (Number.isNaN(estimate.value)) return [group, { ...NO_ESTIMATE, cells: cellsOf }];
      return [
        group,
        {
          mean: estimate.value,
          ciLow: estimate.ciLow,
          ciHigh: estimate.ciHigh,
          se: estimate.se,
          cells: cellsOf,
          clusters: estimate.claims,
          thin: isThin(estimate),
        },
      ];
    }),
  );
}
