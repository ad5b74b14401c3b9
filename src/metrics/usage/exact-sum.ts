/**
 * A sum of floating-point numbers kept without rounding error (as non-overlapping partial sums,
 * Shewchuk's method, as in Python's `math.fsum`) and rounded once when read. The result is the exact
 * sum correctly rounded, so it does not depend on the order of the additions: a run's closing table
 * sums costs in the order its conversations finished, a report in the store's order, and both print
 * the same figure. Finite values only.
 */
export class ExactSum {
  /** Non-overlapping, in increasing magnitude; their exact sum is the sum so far. */
  private readonly partials: number[] = [];

  add(value: number): void {
    let x = value;
    let kept = 0;
    for (let index = 0; index < this.partials.length; index++) {
      let y = this.partials[index]!;
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const high = x + y;
      const low = y - (high - x);
      if (low !== 0) this.partials[kept++] = low;
      x = high;
    }
    this.partials.length = kept;
    this.partials.push(x);
  }

  /** The exact sum, rounded to the nearest double (ties to even). */
  get value(): number {
    const partials = this.partials;
    let count = partials.length;
    if (count === 0) return 0;
    let high = partials[--count]!;
    let low = 0;
    while (count > 0) {
      const x = high;
      const y = partials[--count]!;
      high = x + y;
      low = y - (high - x);
      if (low !== 0) break;
    }
    // Half-way between two doubles: the partials left below decide which way the exact sum rounds.
    if (count > 0 && ((low < 0 && partials[count - 1]! < 0) || (low > 0 && partials[count - 1]! > 0))) {
      const twice = low * 2;
      const rounded = high + twice;
      if (twice === rounded - high) high = rounded;
    }
    return high;
  }
}
