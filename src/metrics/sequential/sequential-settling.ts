import { BettingSequence, type SequenceInterval } from './betting-sequence.js';

/**
 * When a sequential tournament has settled what it set out to measure (issue 30,
 * docs/design/sequential.md). Each quantity the report makes (a model's effectiveness, the
 * difference between two models) gets an anytime-valid confidence sequence over claims; the level
 * is split evenly over the quantities, so that all of them hold at once with the stated confidence
 * however the data decide when to stop.
 * - A comparison is settled when its sequence excludes 0: the order of the two is known.
 * - An estimate is settled when its sequence is narrower than the precision asked for.
 */

export interface SequentialQuantity {
  /** What it is, e.g. `effectiveness sim/eloquent subjective single` or `sim/a - sim/b ...`. */
  readonly key: string;
  readonly kind: 'estimate' | 'comparison';
  /** The values one claim can give: [-1, 1] for an NC mean, [-2, 2] for a difference of two. */
  readonly lower: number;
  readonly upper: number;
}

export interface SettlingRule {
  /** 0.95 for 95%: all quantities' sequences hold together with this chance. */
  readonly confidence: number;
  /** An estimate is settled once its interval is narrower than this (in its own units). */
  readonly precision: number;
  /** The bets' truncation (see BettingSequence). */
  readonly truncation?: number;
  readonly gridSize?: number;
}

export interface QuantityState extends SequenceInterval {
  readonly key: string;
  readonly kind: SequentialQuantity['kind'];
  readonly settled: boolean;
}

/** Watches every quantity of a sequential tournament claim by claim. */
export class SettlingMonitor {
  private readonly sequences: Map<string, { quantity: SequentialQuantity; sequence: BettingSequence }>;

  constructor(
    quantities: readonly SequentialQuantity[],
    private readonly rule: SettlingRule,
  ) {
    if (quantities.length === 0) throw new RangeError('a sequential tournament needs at least one quantity to settle');
    if (!(rule.confidence > 0 && rule.confidence < 1)) throw new RangeError(`the confidence must be in (0, 1), got ${rule.confidence}`);
    if (!(rule.precision > 0)) throw new RangeError(`the precision must be positive, got ${rule.precision}`);
    const alpha = (1 - rule.confidence) / quantities.length;
    this.sequences = new Map(
      quantities.map((quantity) => {
        const options = {
          lower: quantity.lower,
          upper: quantity.upper,
          alpha,
          ...(rule.truncation === undefined ? {} : { truncation: rule.truncation }),
          ...(rule.gridSize === undefined ? {} : { gridSize: rule.gridSize }),
        };
        return [quantity.key, { quantity, sequence: new BettingSequence(options) }];
      }),
    );
    if (this.sequences.size !== quantities.length) throw new RangeError('each quantity needs its own key');
  }

  /**
   * One claim's values, in the order claims were run. A quantity the claim gives no value for (its
   * conversations failed) is left as it was: the claim does not count for it.
   */
  addClaim(values: ReadonlyMap<string, number>): void {
    for (const [key, value] of values) {
      const entry = this.sequences.get(key);
      if (entry === undefined) throw new RangeError(`no quantity is called ${key}`);
      entry.sequence.push(value);
    }
  }

  states(): QuantityState[] {
    return [...this.sequences.values()].map(({ quantity, sequence }) => {
      const interval = sequence.interval();
      const settled =
        interval.count > 0 &&
        (quantity.kind === 'comparison' ? interval.lower > 0 || interval.upper < 0 : interval.upper - interval.lower < this.rule.precision);
      return { key: quantity.key, kind: quantity.kind, settled, ...interval };
    });
  }

  /** True once every quantity is settled: the tournament starts no new claim. */
  allSettled(): boolean {
    return this.states().every((state) => state.settled);
  }
}
