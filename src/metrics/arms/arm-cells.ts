import { ClaimCellTable, type ClaimSlices } from '../intervals/claim-cell-table.js';
import { keepMatchedSlots, slotsPerCell } from '../intervals/shared-slots.js';

/** A cell of a comparison between arms: one ordered pair in one arm. */
export interface ArmCell {
  readonly arm: 0 | 1;
  readonly persuader: string;
  readonly persuadee: string;
}

/** Names in code-unit order, the same in every locale. */
export const compareNames = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** One group's data, with the cells both arms hold. */
export class GroupArms {
  readonly table = new ClaimCellTable();
  readonly cells: ArmCell[] = [];

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

export interface GroupSlices {
  readonly all: ClaimSlices;
  readonly shared: ClaimSlices;
  readonly allSlots: Int32Array;
  readonly sharedSlots: Int32Array;
}

/** A group's data, and the part of it on the cells both arms hold, with each cell's claims in both. */
export function sharedSlices(entry: GroupArms): GroupSlices {
  const all = entry.table.slices();
  const shared = keepMatchedSlots(all, entry.matches());
  return { all, shared, allSlots: slotsPerCell(all), sharedSlots: slotsPerCell(shared) };
}
