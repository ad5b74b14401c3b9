import type { ClaimSlices } from './claim-cell-table.js';

/**
 * Narrowing a table's data to a shared design, for comparisons: two sides are compared only where
 * both have data, so that a difference is never the effect of one side's extra claims or opponents.
 * Both functions return slices over the same cells and slots, listing fewer of them, and only the
 * claims left with a slot (so a bootstrap resamples those claims only). A cell that loses every slot
 * has no data: estimates leave it out of their terms.
 */

/** Slices listing, of each claim in order, the slots `keep` lets through; claims left with none are dropped. */
function filterSlots(slices: ClaimSlices, keep: (claim: number, slot: number) => boolean, beforeClaim?: (claim: number) => void): ClaimSlices {
  const starts: number[] = [0];
  const order: number[] = [];
  for (let claim = 0; claim < slices.claims; claim++) {
    beforeClaim?.(claim);
    for (let position = slices.starts[claim]!; position < slices.starts[claim + 1]!; position++) {
      const slot = slices.order[position]!;
      if (keep(claim, slot)) order.push(slot);
    }
    if (order.length > starts[starts.length - 1]!) starts.push(order.length);
  }
  return { ...slices, claims: starts.length - 1, starts: Int32Array.from(starts), order: Int32Array.from(order) };
}

/** The slices of the claims marked 1 in `keep` (claim k of `slices`). */
export function keepClaims(slices: ClaimSlices, keep: Uint8Array): ClaimSlices {
  return filterSlots(slices, (claim) => keep[claim] === 1);
}

/**
 * The slots of matched cells on the claims where both cells of the match have data: the cells of
 * `matches` are pairs (a cell of one side, its counterpart on the other: the same pair in two runs,
 * a variant's cell and its model's). Every other slot is dropped. A cell belongs to one match.
 */
export function keepMatchedSlots(slices: ClaimSlices, matches: ReadonlyArray<readonly [number, number]>): ClaimSlices {
  const counterpart = new Int32Array(slices.cells).fill(-1);
  for (const [first, second] of matches) {
    counterpart[first] = second;
    counterpart[second] = first;
  }
  // seenOn[cell] = 1 + the claim being filtered when the cell has a slot on it: no clearing between claims.
  const seenOn = new Int32Array(slices.cells);
  const markCells = (claim: number) => {
    for (let position = slices.starts[claim]!; position < slices.starts[claim + 1]!; position++) seenOn[slices.slotCell[slices.order[position]!]!] = claim + 1;
  };
  return filterSlots(
    slices,
    (claim, slot) => {
      const other = counterpart[slices.slotCell[slot]!]!;
      return other >= 0 && seenOn[other] === claim + 1;
    },
    markCells,
  );
}

/** The claims (1 per claim of `slices`, else 0) on which any of `cells` has data. */
export function claimsWithData(slices: ClaimSlices, cells: readonly number[]): Uint8Array {
  const wanted = new Uint8Array(slices.cells);
  for (const cell of cells) wanted[cell] = 1;
  const marks = new Uint8Array(slices.claims);
  for (let claim = 0; claim < slices.claims; claim++) {
    for (let position = slices.starts[claim]!; position < slices.starts[claim + 1]!; position++) {
      if (wanted[slices.slotCell[slices.order[position]!]!]) {
        marks[claim] = 1;
        break;
      }
    }
  }
  return marks;
}

/** How many claims `marks` (from `claimsWithData`) marks. */
export function countMarked(marks: Uint8Array): number {
  let count = 0;
  for (const mark of marks) count += mark;
  return count;
}

/** The slots each cell has in `slices`: its claims with data. */
export function slotsPerCell(slices: ClaimSlices): Int32Array {
  const counts = new Int32Array(slices.cells);
  for (const slot of slices.order) counts[slices.slotCell[slot]!]! += 1;
  return counts;
}
