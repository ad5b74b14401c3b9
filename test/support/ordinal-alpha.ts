/**
 * Krippendorff's alpha of two judges who scored every unit 0, 1 or 2, ordinal metric, written out from its
 * definition apart from the coincidence matrix pmiyc builds (tests recompute pmiyc's alpha with it): the pairable
 * values' counts n_c, the ordinal distance (the sum of n_g from c to k, less half of n_c and n_k) squared, D_o over
 * each unit's two ordered pairs, D_e over every ordered pair of the n pairable values; alpha = 1 - D_o / D_e.
 */
export function ordinalAlphaByDefinition(pairs: ReadonlyArray<readonly [number, number]>): number {
  const counts = [0, 0, 0];
  for (const [a, b] of pairs) {
    counts[a]! += 1;
    counts[b]! += 1;
  }
  const n = pairs.length * 2;
  const distance = (c: number, k: number) => {
    const [low, high] = c < k ? [c, k] : [k, c];
    let between = 0;
    for (let g = low; g <= high; g++) between += counts[g]!;
    return (between - (counts[low]! + counts[high]!) / 2) ** 2;
  };
  const observed = pairs.reduce((sum, [a, b]) => sum + 2 * distance(a, b), 0) / n;
  let expected = 0;
  for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) expected += counts[c]! * counts[k]! * distance(c, k);
  return 1 - observed / (expected / (n * (n - 1)));
}
