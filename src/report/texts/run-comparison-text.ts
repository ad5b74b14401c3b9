import type { Domain } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import { formatCount as count } from '../../domain/text-labels.js';
import type { RunComparison, RunsLeftOut } from '../../metrics/tournament-analysis.js';
import { conditionLabel } from '../charts/chart-theme.js';

/** The two runs of `report --compare a,b`: a is the baseline, b the run reported. */
export interface ComparedRuns {
  readonly baseline: string;
  readonly reported: string;
}

/** "only in run a" for the arm a comparison names ("baseline", "reported"); null is both runs, on no common cell. */
function whereOnly(onlyIn: string | null, runs: ComparedRuns): string {
  if (onlyIn === 'baseline') return `only in ${runs.baseline}`;
  if (onlyIn === 'reported') return `only in ${runs.reported}`;
  return 'in both, on no common cell';
}

/**
 * "gamma (only in run a: subjective single, subjective multi)" for each distinct name and place, with
 * the conditions it was left out of: a model may be in both runs and left out of one condition only.
 */
function namesWithRuns(entries: ReadonlyArray<{ model: string; onlyIn: string | null; domain: Domain; setting: Setting }>, runs: ComparedRuns): string {
  const seen = new Map<string, { label: string; conditions: Set<string> }>();
  for (const entry of entries) {
    const key = `${entry.model}\u0000${entry.onlyIn}`;
    const named = seen.get(key) ?? { label: `${entry.model} (${whereOnly(entry.onlyIn, runs)}`, conditions: new Set<string>() };
    seen.set(key, named);
    named.conditions.add(conditionLabel(entry.domain, entry.setting));
  }
  return [...seen.values()].map(({ label, conditions }) => `${label}: ${[...conditions].join(', ')})`).join(', ');
}

/**
 * What a comparison between runs left out, as a list: the models not compared, the opponents left
 * out of the other models' values, and per condition the claims and cells one run only holds.
 * `runs` are the words for each run ("run a", "the baseline").
 */
export function leftOutParts(runs: ComparedRuns, comparisons: readonly RunComparison[], leftOut: RunsLeftOut): string[] {
  const models = namesWithRuns(leftOut.models, runs);
  const opponents = namesWithRuns(
    comparisons.flatMap((comparison) =>
      comparison.leftOut.opponents.map((opponent) => ({ ...opponent, domain: comparison.domain, setting: comparison.setting })),
    ),
    runs,
  );
  return [
    ...(models === '' ? [] : [`models not compared: ${models}`]),
    ...(opponents === '' ? [] : [`opponents left out of the other models' values: ${opponents}`]),
    ...leftOut.conditions
      .filter((condition) => condition.claimsLeftOut > 0 || condition.cellsLeftOut > 0)
      .map(
        (condition) =>
          `${conditionLabel(condition.domain, condition.setting)}: ${count(condition.claimsLeftOut)} claims and ${count(condition.cellsLeftOut)} (pair, claim) cells held by one run only`,
      ),
  ];
}

/**
 * The sentence every format gives with a comparison between runs: what the change of each model is
 * over, and what was left out. Plain text without a final period: each format escapes it.
 */
export function runComparisonSentence(runs: ComparedRuns, comparisons: readonly RunComparison[], leftOut: RunsLeftOut): string {
  const claims = Math.max(0, ...leftOut.conditions.map((condition) => condition.claims));
  const over = `compared with run ${runs.baseline} over the (opponent, claim) cells both runs hold, the same opponents and claims on both sides (comparisons.runs: ${runs.reported} minus ${runs.baseline}, paired over up to ${count(claims)} claims per condition)`;
  const parts = leftOutParts({ baseline: `run ${runs.baseline}`, reported: `run ${runs.reported}` }, comparisons, leftOut);
  return parts.length === 0 ? `${over}; nothing was left out` : `${over}; left out: ${parts.join('; ')}`;
}

/**
 * Why two runs of `report --compare` (or of the viewer's compare page) have nothing to compare, for
 * the one line of exit code 2. `arms` are the names the comparison gave the two runs' data.
 */
export function nothingSharedReason(runs: ComparedRuns, leftOut: RunsLeftOut, arms: readonly [string, string] = ['baseline', 'reported']): string {
  const conditionsOf = (arm: string) =>
    new Set(leftOut.models.filter((model) => model.onlyIn === arm || model.onlyIn === null).map((model) => conditionLabel(model.domain, model.setting)));
  const [baseline, reported] = [conditionsOf(arms[0]), conditionsOf(arms[1])];
  const prefix = `runs ${runs.baseline} and ${runs.reported} hold no (opponent, claim) cell in common, so no model can be compared`;
  if (baseline.size === 0) return `${prefix}: run ${runs.baseline} has no completed conversation; compare runs that both have some`;
  if (reported.size === 0) return `${prefix}: run ${runs.reported} has no completed conversation; compare runs that both have some`;
  if (![...baseline].some((condition) => reported.has(condition)))
    return `${prefix}: they share no condition (run ${runs.baseline}: ${[...baseline].join(', ')}; run ${runs.reported}: ${[...reported].join(', ')}); compare runs of the same domain and setting`;
  if (!leftOut.models.some((model) => model.onlyIn === null))
    return `${prefix}: in the conditions both have, they share no model; report them apart, or compare runs that share models`;
  return `${prefix}: the models both runs have met other opponents or argued other claims in each; compare runs that share pairs and claims (the same claim file and --limit or --sample)`;
}
