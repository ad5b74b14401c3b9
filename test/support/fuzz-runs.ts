/**
 * How many inputs a property test generates: `PMIYC_FUZZ_RUNS` when set (bench/soak.mjs asks 100,000),
 * else `quick`, a count small enough for `npm test`.
 */
export function fuzzRuns(quick: number): number {
  const asked = Number(process.env['PMIYC_FUZZ_RUNS']);
  return Number.isInteger(asked) && asked > 0 ? asked : quick;
}
