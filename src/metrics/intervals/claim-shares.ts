import { ClaimCellTable } from './claim-cell-table.js';
import { estimateOverClaims, type IntervalOptions, isThin } from './claim-estimates.js';

/** A share (0-1) with its interval over claims, clipped to [0, 1]. */
export interface ShareEstimate {
  readonly share: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  /** Claims with data on the share. */
  readonly claims: number;
  readonly thin: boolean;
}

/**
 * Shares of yes (1) among observations of named cells, each observation on one claim: the cell's
 * pooled share, its interval Student t (or the chosen bootstrap) over claims, as every share of the
 * report (docs/design/statistics.md). Cells without observations get NaN.
 */
export function sharesOverClaims(
  observations: Iterable<{ readonly cell: string; readonly claim: string; readonly yes: boolean }>,
  cells: readonly string[],
  options: IntervalOptions,
): Map<string, ShareEstimate> {
  const table = new ClaimCellTable();
  for (const { cell, claim, yes } of observations) table.add(cell, claim, yes ? 1 : 0);
  const present = cells.filter((cell) => table.cellIndex(cell) !== undefined);
  const estimates = estimateOverClaims(
    table.slices(),
    present.map((cell) => [{ cells: [table.cellIndex(cell)!], weight: 1 }]),
    options,
  );
  const shares = new Map<string, ShareEstimate>();
  for (const cell of cells) shares.set(cell, { share: Number.NaN, ciLow: Number.NaN, ciHigh: Number.NaN, claims: 0, thin: true });
  present.forEach((cell, index) => {
    const estimate = estimates[index]!;
    shares.set(cell, {
      share: estimate.value,
      ciLow: Math.max(0, estimate.ciLow),
      ciHigh: Math.min(1, estimate.ciHigh),
      claims: estimate.claims,
      thin: isThin(estimate),
    });
  });
  return shares;
}
