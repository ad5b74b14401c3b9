import { ClaimCellTable } from './claim-cell-table.js';
import { type CellStatistic, estimateOverClaims, type IntervalOptions, isThin } from './claim-estimates.js';
import { holmAdjust } from './holm.js';

/** A model's value in the second arm minus the first, in one group, paired over the claims both arms share. */
export interface ArmComparison {
  readonly group: string;
  readonly measure: 'effectiveness' | 'susceptibility';
  readonly model: string;
  readonly first: number;
  readonly second: number;
  /** second - first. */
  readonly difference: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  readonly claims: number;
  readonly thin: boolean;
  readonly p: number;
  /** Holm-adjusted over the models of the same measure and group. */
  readonly pHolm: number;
}

type Cell = { arm: 0 | 1; persuader: string; persuadee: string };

/**
 * Two arms of the same claims compared model by model: single-turn against multi-turn (does a
 * second chance help a persuader?), or one run against another (did a new model version change?).
 * The same claims are argued in both arms, so each difference is paired over claims, with the same
 * intervals and test as between models. Memory: claims x pairs x 2 per group.
 */
export class ArmContrast {
  private readonly tables = new Map<string, { table: ClaimCellTable; cells: Cell[] }>();

  add(group: string, arm: 0 | 1, persuader: string, persuadee: string, claimKey: string, nc: number): void {
    const entry = this.tables.get(group) ?? { table: new ClaimCellTable(), cells: [] };
    this.tables.set(group, entry);
    const name = `${arm}\u0000${persuader}\u0000${persuadee}`;
    if (entry.table.cellIndex(name) === undefined) entry.cells.push({ arm, persuader, persuadee });
    entry.table.add(name, claimKey, nc);
  }

  result(options: IntervalOptions): ArmComparison[] {
    return [...this.tables].flatMap(([group, { table, cells }]) =>
      (['effectiveness', 'susceptibility'] as const).flatMap((measure) => compare(group, measure, table, cells, options)),
    );
  }
}

function compare(group: string, measure: ArmComparison['measure'], table: ClaimCellTable, cells: readonly Cell[], options: IntervalOptions): ArmComparison[] {
  const role = measure === 'effectiveness' ? 'persuader' : 'persuadee';
  const cellsOf = (arm: 0 | 1, model: string) => cells.flatMap((cell, index) => (cell.arm === arm && cell[role] === model ? [index] : []));
  const models = [...new Set(cells.map((cell) => cell[role]))].filter((model) => cellsOf(0, model).length > 0 && cellsOf(1, model).length > 0);
  const term = (list: number[], weight: number) => ({ cells: list, weight });
  const statistics: CellStatistic[] = models.flatMap((model) => [
    [term(cellsOf(0, model), 1)],
    [term(cellsOf(1, model), 1)],
    [term(cellsOf(1, model), 1), term(cellsOf(0, model), -1)],
  ]);
  const estimates = estimateOverClaims(table.slices(), statistics, options);
  const differences = models.map((_, index) => estimates[3 * index + 2]!);
  const adjusted = holmAdjust(differences.map((estimate) => estimate.p));
  return models.map((model, index) => {
    const estimate = differences[index]!;
    return {
      group,
      measure,
      model,
      first: estimates[3 * index]!.value,
      second: estimates[3 * index + 1]!.value,
      difference: estimate.value,
      ciLow: Math.max(-2, estimate.ciLow),
      ciHigh: Math.min(2, estimate.ciHigh),
      claims: estimate.claims,
      thin: isThin(estimate),
      p: estimate.p,
      pHolm: adjusted[index]!,
    };
  });
}
