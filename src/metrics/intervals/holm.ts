/**
 * Holm's step-down adjustment of p-values for a family of tests: the i-th smallest p is multiplied
 * by (m - i + 1), then made non-decreasing, capped at 1. It controls the chance of any false
 * finding in the family at the nominal level, without assuming the tests independent. NaN stays
 * NaN and does not count toward m.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const ranked = pValues.flatMap((p, index) => (Number.isNaN(p) ? [] : [{ p, index }])).sort((a, b) => a.p - b.p);
  const adjusted = pValues.map(() => Number.NaN);
  let running = 0;
  ranked.forEach(({ p, index }, rank) => {
    running = Math.max(running, Math.min(1, (ranked.length - rank) * p));
    adjusted[index] = running;
  });
  return adjusted;
}
