import type { Domain } from '../domain/claim.js';
import type { Setting } from '../domain/conversation.js';
import { ClaimCellTable } from './claim-cell-table.js';
import { type CellStatistic, estimateOverClaims, type IntervalOptions, isThin } from './claim-estimates.js';
import { holmAdjust } from './holm.js';

/** A model's multi-turn value minus its single-turn value in one domain, paired over the claims both settings share. */
export interface SettingComparison {
  readonly domain: Domain;
  readonly measure: 'effectiveness' | 'susceptibility';
  readonly model: string;
  readonly single: number;
  readonly multi: number;
  /** multi - single. */
  readonly difference: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  readonly claims: number;
  readonly thin: boolean;
  readonly p: number;
  /** Holm-adjusted over the models of the same measure and domain. */
  readonly pHolm: number;
}

type Cell = { setting: Setting; persuader: string; persuadee: string };

/**
 * Single-turn against multi-turn for each model (does a second chance help a persuader, or wear a
 * persuadee down?): the same claims are argued in both settings, so the difference is paired
 * over claims, with the same intervals and test as between models. Memory: claims x pairs x 2.
 */
export class SettingContrast {
  private readonly tables = new Map<Domain, { table: ClaimCellTable; cells: Cell[] }>();

  add(domain: Domain, setting: Setting, persuader: string, persuadee: string, claimKey: string, nc: number): void {
    const entry = this.tables.get(domain) ?? { table: new ClaimCellTable(), cells: [] };
    this.tables.set(domain, entry);
    const name = `${setting}\u0000${persuader}\u0000${persuadee}`;
    if (entry.table.cellIndex(name) === undefined) entry.cells.push({ setting, persuader, persuadee });
    entry.table.add(name, claimKey, nc);
  }

  result(options: IntervalOptions): SettingComparison[] {
    return [...this.tables].flatMap(([domain, { table, cells }]) =>
      (['effectiveness', 'susceptibility'] as const).flatMap((measure) => this.compare(domain, measure, table, cells, options)),
    );
  }

  private compare(
    domain: Domain,
    measure: SettingComparison['measure'],
    table: ClaimCellTable,
    cells: readonly Cell[],
    options: IntervalOptions,
  ): SettingComparison[] {
    const role = measure === 'effectiveness' ? 'persuader' : 'persuadee';
    const cellsOf = (setting: Setting, model: string) => cells.flatMap((cell, index) => (cell.setting === setting && cell[role] === model ? [index] : []));
    const models = [...new Set(cells.map((cell) => cell[role]))].filter((model) => cellsOf('single', model).length > 0 && cellsOf('multi', model).length > 0);
    const one = (list: number[], weight: number) => ({ cells: list, weight });
    const statistics: CellStatistic[] = models.flatMap((model) => [
      [one(cellsOf('single', model), 1)],
      [one(cellsOf('multi', model), 1)],
      [one(cellsOf('multi', model), 1), one(cellsOf('single', model), -1)],
    ]);
    const estimates = estimateOverClaims(table.slices(), statistics, options);
    const differences = models.map((_, index) => estimates[3 * index + 2]!);
    const adjusted = holmAdjust(differences.map((estimate) => estimate.p));
    return models.map((model, index) => {
      const estimate = differences[index]!;
      return {
        domain,
        measure,
        model,
        single: estimates[3 * index]!.value,
        multi: estimates[3 * index + 1]!.value,
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
}
