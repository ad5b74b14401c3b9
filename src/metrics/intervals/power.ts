import type { Domain } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import { noncentralTCdf, studentTQuantile } from './distributions.js';

/** The largest claim count `claimsForPower` searches; beyond it a difference is out of reach. */
const MOST_CLAIMS = 100_000;

/** What a paired t test over claims is asked to detect: a difference, the SD of a per-claim difference, and the level. */
interface PowerQuestion {
  readonly difference: number;
  readonly sd: number;
  readonly alpha: number;
}

/**
 * Power of a two-sided paired t test over `claims` claims: the chance that |T| passes the
 * critical value when T follows the noncentral t with noncentrality difference x sqrt(claims) / sd.
 */
export function pairedPower(claims: number, { difference, sd, alpha }: PowerQuestion): number {
  if (!(claims >= 2) || !(sd > 0) || !Number.isFinite(sd)) return Number.NaN;
  const df = claims - 1;
  const critical = studentTQuantile(1 - alpha / 2, df);
  const noncentrality = (Math.abs(difference) * Math.sqrt(claims)) / sd;
  return 1 - noncentralTCdf(critical, df, noncentrality) + noncentralTCdf(-critical, df, noncentrality);
}

/**
 * The fewest claims with which a paired t test over claims detects `difference` at the given power,
 * when the per-claim difference has standard deviation `sd`; Infinity past 100,000 claims, NaN
 * without a usable SD.
 */
export function claimsForPower(input: PowerQuestion & { readonly power: number }): number {
  const { difference, sd, power } = input;
  if (!(sd > 0) || !(difference !== 0) || !Number.isFinite(sd)) return Number.NaN;
  const enough = (claims: number) => pairedPower(claims, input) >= power;
  if (!enough(MOST_CLAIMS)) return Number.POSITIVE_INFINITY;
  let low = 2;
  let high = MOST_CLAIMS;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (enough(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** Differences a plan is made for, in NC units. */
const PLANNED_DIFFERENCES = [0.05, 0.1, 0.2] as const;

/** How many claims a full run needs, from a pilot's spread, to tell two models apart. */
export interface PowerPlan {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly measure: 'effectiveness' | 'susceptibility';
  /** Comparisons in the family (every two models): the test level is 0.05 / comparisons (Bonferroni, which Holm never exceeds). */
  readonly comparisons: number;
  readonly alpha: number;
  readonly power: number;
  /** The median over the pilot's comparisons of the SD of a per-claim paired difference. */
  readonly pairedSd: number;
  /** Claims in the pilot. */
  readonly pilotClaims: number;
  readonly claimsNeeded: ReadonlyArray<{ readonly difference: number; readonly claims: number }>;
}

interface PilotComparison {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly measure: 'effectiveness' | 'susceptibility';
  readonly se: number;
  readonly claims: number;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * Sample sizes for a full run from a pilot: per condition and measure, the typical SD of a
 * paired per-claim difference between two models (the pilot's standard error x sqrt(claims)), and
 * the claims needed to detect differences of 0.05, 0.1 and 0.2 at 80% power with every pair of
 * models compared (level 0.05 / comparisons).
 */
export function powerPlans(comparisons: readonly PilotComparison[], power = 0.8): PowerPlan[] {
  const families = new Map<string, PilotComparison[]>();
  for (const comparison of comparisons) {
    const key = [comparison.domain, comparison.setting, comparison.measure].join('\u0000');
    families.set(key, [...(families.get(key) ?? []), comparison]);
  }
  return [...families.values()].flatMap((family) => {
    const sds = family.filter((entry) => entry.claims >= 2 && Number.isFinite(entry.se)).map((entry) => entry.se * Math.sqrt(entry.claims));
    if (sds.length === 0) return [];
    const { domain, setting, measure } = family[0]!;
    const alpha = 0.05 / family.length;
    const pairedSd = median(sds);
    return [
      {
        domain,
        setting,
        measure,
        comparisons: family.length,
        alpha,
        power,
        pairedSd,
        pilotClaims: Math.max(...family.map((entry) => entry.claims)),
        claimsNeeded: PLANNED_DIFFERENCES.map((difference) => ({ difference, claims: claimsForPower({ difference, sd: pairedSd, alpha, power }) })),
      },
    ];
  });
}

/** The claims a run can argue in a domain at most: its whole claim set, and where that number comes from. */
export interface ClaimSetBound {
  readonly claims: number;
  /** "the paper's subjective set", "every claim the run argued". */
  readonly source: string;
}

/** A plan read against the claim set: whether each difference can be reached within it, and the power the whole set gives when not. */
export interface CappedPowerPlan extends Omit<PowerPlan, 'claimsNeeded'> {
  /** Null when the set's size is not known (a sample of a file, claims an import could not place): nothing is capped. */
  readonly claimSet: ClaimSetBound | null;
  readonly claimsNeeded: ReadonlyArray<{
    readonly difference: number;
    /** The claims needed, as the noncentral t gives them (Infinity past 100,000; NaN without a usable SD). */
    readonly claims: number;
    /** False when the claim set has fewer claims than needed; null when either is unknown. */
    readonly withinClaimSet: boolean | null;
    /** When not within the set: the power that every claim of the set gives. */
    readonly powerWithClaimSet: number | null;
  }>;
}

/** Reads a plan against the claim set a full run would draw from: a run cannot argue more claims than its set has. */
export function capToClaimSet(plan: PowerPlan, claimSet: ClaimSetBound | null): CappedPowerPlan {
  return {
    ...plan,
    claimSet,
    claimsNeeded: plan.claimsNeeded.map(({ difference, claims }) => {
      const withinClaimSet = claimSet === null || Number.isNaN(claims) ? null : claims <= claimSet.claims;
      const powerWithClaimSet = withinClaimSet === false ? pairedPower(claimSet!.claims, { difference, sd: plan.pairedSd, alpha: plan.alpha }) : null;
      return { difference, claims, withinClaimSet, powerWithClaimSet };
    }),
  };
}
