import { createRandom, randomIndex } from '../../domain/random.js';
import { quantileOfSorted } from './quantile.js';

/** Bootstrap settings: claims are the unit of resampling. */
export interface BootstrapOptions {
  readonly replicates: number;
  /** Two-sided coverage, e.g. 0.95. */
  readonly confidence: number;
  readonly seed: number;
}

export const DEFAULT_BOOTSTRAP: BootstrapOptions = { replicates: 2000, confidence: 0.95, seed: 0 };

export interface WithInterval {
  /** Percentile bootstrap bounds; NaN when there is nothing to resample. */
  readonly ciLow: number;
  readonly ciHigh: number;
}

/** The mean and count of one cell over every claim. */
export interface CellMean {
  readonly cell: string;
  readonly mean: number;
  readonly n: number;
}

/**
 * A table's data grouped by claim, read-only, for estimators: the slots of claim k are
 * `order[starts[k]]` to `order[starts[k + 1] - 1]`, each one cell's sum and count on that claim.
 */
export interface ClaimSlices {
  readonly claims: number;
  readonly cells: number;
  readonly starts: Int32Array;
  readonly order: Int32Array;
  readonly slotCell: Int32Array;
  readonly slotSum: Float64Array;
  readonly slotCount: Float64Array;
}

/** Cells per claim in the slot key space: far more than any tournament has pairs. */
const CELL_SPACE = 2 ** 21;

/** A growable typed array: doubles its capacity as needed. */
function grown<T extends Float64Array | Int32Array>(array: T, needed: number, make: (length: number) => T): T {
  if (needed <= array.length) return array;
  const bigger = make(Math.max(needed, array.length * 2));
  bigger.set(array);
  return bigger;
}

/**
 * The slot of each (claim, cell) key: an open-addressing hash table in typed arrays. A `Map` from
 * number to number holds a boxed number and an entry object per key (~100 bytes); a report over a
 * million-call tournament has hundreds of thousands of keys in each of several tables.
 */
class SlotIndex {
  private keys = new Float64Array(1024);
  private values = new Int32Array(1024).fill(-1);
  private size = 0;

  /** The slot of `key`, or -1. */
  get(key: number): number {
    const mask = this.values.length - 1;
    for (let at = hashOf(key) & mask; ; at = (at + 1) & mask) {
      const value = this.values[at]!;
      if (value < 0 || this.keys[at] === key) return value;
    }
  }

  /** Records `slot` for `key`, which has none yet. */
  set(key: number, slot: number): void {
    if ((this.size + 1) * 2 > this.values.length) this.grow();
    this.place(key, slot);
    this.size += 1;
  }

  private place(key: number, slot: number): void {
    const mask = this.values.length - 1;
    let at = hashOf(key) & mask;
    while (this.values[at]! >= 0) at = (at + 1) & mask;
    this.keys[at] = key;
    this.values[at] = slot;
  }

  private grow(): void {
    const { keys, values } = this;
    this.keys = new Float64Array(keys.length * 2);
    this.values = new Int32Array(values.length * 2).fill(-1);
    for (let at = 0; at < values.length; at++) if (values[at]! >= 0) this.place(keys[at]!, values[at]!);
  }
}

/** Mixes a (claim, cell) key's bits (claim above 2^21, cell below) into a table position. */
function hashOf(key: number): number {
  const low = key % CELL_SPACE;
  const high = (key - low) / CELL_SPACE;
  // MurmurHash3's finalizer over both halves: every input bit reaches the low bits the mask keeps.
  let hash = Math.imul(high, 0x9e3779b1) ^ low;
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}

/**
 * Per-claim sums and counts of a value in named cells (a persuader-persuadee pair, a stance group):
 * what a bootstrap over claims resamples. Memory grows with the distinct (claim, cell) combinations,
 * never with the number of conversations, so a report can stream a run of any size through it.
 */
export class ClaimCellTable {
  private readonly claimIds = new Map<string, number>();
  private readonly cellIds = new Map<string, number>();
  private readonly cellNames: string[] = [];
  private readonly slotOf = new SlotIndex();
  private slotClaim = new Int32Array(256);
  private slotCell = new Int32Array(256);
  private slotSum = new Float64Array(256);
  private slotCount = new Float64Array(256);
  private slots = 0;
  // Running totals per cell in arrival order, so that point estimates equal a plain mean.
  private cellSum = new Float64Array(16);
  private cellCount = new Float64Array(16);

  /** Adds one observation of `value` in `cell` on the claim identified by `claim`. */
  add(cell: string, claim: string, value: number): void {
    this.addTotal(cell, claim, value, 1);
  }

  /** Adds `count` observations whose values sum to `sum` (a store's aggregate of one cell on one claim). */
  addTotal(cell: string, claim: string, sum: number, count: number): void {
    const cellId = this.cellIdOf(cell);
    let claimId = this.claimIds.get(claim);
    if (claimId === undefined) {
      claimId = this.claimIds.size;
      this.claimIds.set(claim, claimId);
    }
    const key = claimId * CELL_SPACE + cellId;
    let slot = this.slotOf.get(key);
    if (slot < 0) slot = this.newSlot(key, claimId, cellId);
    this.slotSum[slot]! += sum;
    this.slotCount[slot]! += count;
    this.cellSum[cellId]! += sum;
    this.cellCount[cellId]! += count;
  }

  private cellIdOf(cell: string): number {
    let id = this.cellIds.get(cell);
    if (id === undefined) {
      id = this.cellNames.length;
      if (id >= CELL_SPACE) throw new RangeError(`more than ${CELL_SPACE} cells in one table`);
      this.cellIds.set(cell, id);
      this.cellNames.push(cell);
      this.cellSum = grown(this.cellSum, id + 1, (length) => new Float64Array(length));
      this.cellCount = grown(this.cellCount, id + 1, (length) => new Float64Array(length));
    }
    return id;
  }

  private newSlot(key: number, claimId: number, cellId: number): number {
    const slot = this.slots++;
    this.slotOf.set(key, slot);
    this.slotClaim = grown(this.slotClaim, this.slots, (length) => new Int32Array(length));
    this.slotCell = grown(this.slotCell, this.slots, (length) => new Int32Array(length));
    this.slotSum = grown(this.slotSum, this.slots, (length) => new Float64Array(length));
    this.slotCount = grown(this.slotCount, this.slots, (length) => new Float64Array(length));
    this.slotClaim[slot] = claimId;
    this.slotCell[slot] = cellId;
    return slot;
  }

  /** Cell names in order of first appearance; a cell's position is its index. */
  get cells(): readonly string[] {
    return this.cellNames;
  }

  /** Claim keys in order of first appearance: claim k of `slices()` is `claimKeys[k]`. */
  get claimKeys(): string[] {
    return [...this.claimIds.keys()];
  }

  get claimCount(): number {
    return this.claimIds.size;
  }

  /** The index of a cell, or undefined when it never received a value. */
  cellIndex(cell: string): number | undefined {
    return this.cellIds.get(cell);
  }

  /** Each cell's plain mean and count over every claim. */
  cellMeans(): CellMean[] {
    return this.cellNames.map((cell, id) => ({ cell, mean: this.cellSum[id]! / this.cellCount[id]!, n: this.cellCount[id]! }));
  }

  /**
   * Percentile intervals of statistics under resampling of claims. Each statistic is the
   * unweighted mean of the listed cells' means; a cell absent from a replicate is left out of
   * that replicate's statistic (NaN when all are absent).
   */
  bootstrap(statistics: readonly (readonly number[])[], options: BootstrapOptions): WithInterval[] {
    const { starts, order } = this.slotsByClaim();
    const claims = this.claimIds.size;
    const samples = statistics.map(() => new Float64Array(claims === 0 ? 0 : options.replicates));
    const sums = new Float64Array(this.cellNames.length);
    const counts = new Float64Array(this.cellNames.length);
    const random = createRandom(options.seed);
    for (let replicate = 0; claims > 0 && replicate < options.replicates; replicate++) {
      sums.fill(0);
      counts.fill(0);
      for (let draw = 0; draw < claims; draw++) {
        const claim = randomIndex(random, claims);
        for (let position = starts[claim]!; position < starts[claim + 1]!; position++) {
          const slot = order[position]!;
          sums[this.slotCell[slot]!]! += this.slotSum[slot]!;
          counts[this.slotCell[slot]!]! += this.slotCount[slot]!;
        }
      }
      for (let statistic = 0; statistic < statistics.length; statistic++) samples[statistic]![replicate] = meanOfCells(statistics[statistic]!, sums, counts);
    }
    return samples.map((values) => intervalOf(values, options.confidence));
  }

  /** The data grouped by claim, for `estimateOverClaims` (claim-estimates.ts). */
  slices(): ClaimSlices {
    const { starts, order } = this.slotsByClaim();
    return {
      claims: this.claimIds.size,
      cells: this.cellNames.length,
      starts,
      order,
      slotCell: this.slotCell.subarray(0, this.slots),
      slotSum: this.slotSum.subarray(0, this.slots),
      slotCount: this.slotCount.subarray(0, this.slots),
    };
  }

  /** Slots grouped by claim (counting sort), claims in order of first appearance. */
  private slotsByClaim(): { starts: Int32Array; order: Int32Array } {
    const claims = this.claimIds.size;
    const starts = new Int32Array(claims + 1);
    for (let slot = 0; slot < this.slots; slot++) starts[this.slotClaim[slot]! + 1]! += 1;
    for (let claim = 0; claim < claims; claim++) starts[claim + 1]! += starts[claim]!;
    const next = starts.slice(0, claims);
    const order = new Int32Array(this.slots);
    for (let slot = 0; slot < this.slots; slot++) order[next[this.slotClaim[slot]!]!++] = slot;
    return { starts, order };
  }
}

function meanOfCells(cells: readonly number[], sums: Float64Array, counts: Float64Array): number {
  let total = 0;
  let used = 0;
  for (const cell of cells) {
    if (counts[cell]! > 0) {
      total += sums[cell]! / counts[cell]!;
      used += 1;
    }
  }
  return used === 0 ? Number.NaN : total / used;
}

function intervalOf(samples: Float64Array, confidence: number): WithInterval {
  const finite = samples.filter(Number.isFinite).sort();
  const tail = (1 - confidence) / 2;
  return { ciLow: quantileOfSorted(finite, tail), ciHigh: quantileOfSorted(finite, 1 - tail) };
}
