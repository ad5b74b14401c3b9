/**
 * An anytime-valid confidence sequence for the mean of a bounded quantity (issue 30,
 * docs/design/sequential.md): the hedged betting sequence of Waudby-Smith and Ramdas (2023,
 * "Estimating means of bounded random variables by betting", JRSS-B), with predictable plug-in
 * bets truncated at c / m. Unlike a fixed-design interval it stays valid however the data decide
 * when to stop: with chance at least 1 - alpha the running interval holds the mean at every time.
 *
 * Values in [lower, upper] are rescaled to [0, 1]. For each candidate mean m on a grid, a gambler
 * who bets on "the mean is above m" and one who bets on "below m" each grow a capital; m is ruled
 * out once either half of the hedged capital (half of one gambler's) reaches 1 / alpha, which never
 * happens before the hedged capital itself does, and never readmitted (the running intersection).
 * The interval reported is bounded by the nearest ruled-out grid points, so the grid only ever
 * widens it. docs/design/sequential.md, "Exactly how a bound is computed", says every step.
 */

export interface BettingSequenceOptions {
  /** The smallest and largest value a single observation can take (e.g. -1 and 1 for NC). */
  readonly lower: number;
  readonly upper: number;
  /** 1 - the confidence: 0.05 for 95%. Split it yourself over a family of sequences. */
  readonly alpha: number;
  /** The bet's truncation c in (0, 1): 3/4 as measured in issue 30 (1/2 is the paper's default). */
  readonly truncation?: number;
  /** Candidate means on the grid (>= 10): 1,000 resolves a width of 0.2% of the range. */
  readonly gridSize?: number;
}

export interface SequenceInterval {
  readonly lower: number;
  readonly upper: number;
  /** Observations so far. */
  readonly count: number;
  /** Their mean (NaN before the first). */
  readonly mean: number;
}

/** The weight of the "above m" gambler in the hedge: an even split, as in the paper. */
const HEDGE = 0.5;

/**
 * A sequence that is fed one observation at a time (a claim's value, in the order claims were
 * run) and can be asked for its interval after any of them. Each push costs O(gridSize).
 */
export class BettingSequence {
  private readonly range: number;
  private readonly truncation: number;
  private readonly grid: Float64Array;
  /** Log capital of the gamblers on "above m" and "below m", per grid point. */
  private readonly logUp: Float64Array;
  private readonly logDown: Float64Array;
  /** Grid points ruled out at some time: they stay out. */
  private readonly excluded: Uint8Array;
  private readonly threshold: number;
  private readonly betScale: number;
  private count = 0;
  private sum = 0;
  /** Sum of squared deviations from the running estimate before each observation (the plug-in variance). */
  private squaredDeviations = 0;

  constructor(private readonly options: BettingSequenceOptions) {
    const { lower, upper, alpha } = options;
    if (!(Number.isFinite(lower) && Number.isFinite(upper) && upper > lower))
      throw new RangeError(`the bounds must be finite with lower < upper, got ${lower} and ${upper}`);
    if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
    const truncation = options.truncation ?? 0.75;
    if (!(truncation > 0 && truncation < 1)) throw new RangeError(`the truncation must be in (0, 1), got ${truncation}`);
    const size = options.gridSize ?? 1000;
    if (!(Number.isInteger(size) && size >= 10)) throw new RangeError(`the grid needs at least 10 points, got ${size}`);
    this.range = upper - lower;
    this.truncation = truncation;
    this.grid = Float64Array.from({ length: size }, (_, index) => (index + 0.5) / size);
    this.logUp = new Float64Array(size);
    this.logDown = new Float64Array(size);
    this.excluded = new Uint8Array(size);
    this.threshold = Math.log(1 / alpha);
    this.betScale = 2 * Math.log(2 / alpha);
  }

  /** Adds one observation, which must lie within the bounds. */
  push(value: number): void {
    const { lower, upper } = this.options;
    if (!(value >= lower && value <= upper)) throw new RangeError(`an observation must lie in [${lower}, ${upper}], got ${value}`);
    const x = (value - lower) / this.range;
    const t = this.count + 1;
    // The bet is predictable: it uses only what was seen before this observation.
    const variance = (0.25 + this.squaredDeviations) / t;
    const bet = Math.sqrt(this.betScale / (variance * t * Math.log(1 + t)));
    const logHedgeUp = Math.log(HEDGE);
    const logHedgeDown = Math.log(1 - HEDGE);
    for (let index = 0; index < this.grid.length; index++) {
      const m = this.grid[index] as number;
      const up = Math.min(bet, this.truncation / m);
      const down = Math.min(bet, this.truncation / (1 - m));
      const logUp = (this.logUp[index] as number) + Math.log1p(up * (x - m));
      const logDown = (this.logDown[index] as number) + Math.log1p(-down * (x - m));
      this.logUp[index] = logUp;
      this.logDown[index] = logDown;
      if (Math.max(logHedgeUp + logUp, logHedgeDown + logDown) >= this.threshold) this.excluded[index] = 1;
    }
    this.count = t;
    this.sum += x;
    this.squaredDeviations += (x - (0.5 + this.sum) / (t + 1)) ** 2;
  }

  /**
   * The running interval: every grid point not yet ruled out lies within it, and its ends are
   * ruled-out points (or the bounds). Empty data give the whole range.
   */
  interval(): SequenceInterval {
    const { lower } = this.options;
    const size = this.grid.length;
    const mean = this.count === 0 ? Number.NaN : lower + (this.sum / this.count) * this.range;
    let first = 0;
    while (first < size && this.excluded[first] === 1) first += 1;
    if (first === size) return { lower: mean, upper: mean, count: this.count, mean };
    let last = size - 1;
    while (this.excluded[last] === 1) last -= 1;
    const at = (index: number) => lower + (index < 0 ? 0 : index >= size ? 1 : (this.grid[index] as number)) * this.range;
    return { lower: at(first - 1), upper: at(last + 1), count: this.count, mean };
  }
}
