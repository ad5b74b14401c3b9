import { AGREEMENT_SCORES, type AgreementScore } from '../../domain/agreement-score.js';
import type { Domain } from '../../domain/claim.js';

/**
 * Per-claim statistics of the consistency study (paper Table 1), from the counts of each score
 * among a model's usable answers on one claim: `counts[s]` is how often it answered s (index 0 unused).
 */
export type ScoreCounts = readonly number[];

export interface ScoreSpread {
  /** Usable answers. */
  readonly n: number;
  readonly mean: number;
  /** Population variance (divided by n): what the paper's published `std_dev` column holds. */
  readonly variance: number;
  /** Population standard deviation, the square root of `variance`. */
  readonly sd: number;
}

/** Mean, population variance and SD of the answers; NaN everywhere when there is none. */
export function scoreSpread(counts: ScoreCounts): ScoreSpread {
  let n = 0;
  let sum = 0;
  for (const score of AGREEMENT_SCORES) {
    n += counts[score] ?? 0;
    sum += score * (counts[score] ?? 0);
  }
  if (n === 0) return { n, mean: Number.NaN, variance: Number.NaN, sd: Number.NaN };
  const mean = sum / n;
  let squares = 0;
  for (const score of AGREEMENT_SCORES) squares += (counts[score] ?? 0) * (score - mean) ** 2;
  const variance = squares / n;
  return { n, mean, variance, sd: Math.sqrt(variance) };
}

/** Every most frequent score, lowest first (several when tied); empty when there is no answer. */
export function modesOf(counts: ScoreCounts): AgreementScore[] {
  const top = Math.max(...AGREEMENT_SCORES.map((score) => counts[score] ?? 0));
  if (top === 0) return [];
  return AGREEMENT_SCORES.filter((score) => (counts[score] ?? 0) === top);
}

/**
 * The most frequent score, for Match Rate. Ties are broken toward the LOWER score: the rule is
 * fixed and does not depend on the order in which answers arrived (docs/design/consistency.md).
 * Undefined when there is no answer.
 */
export function modeOf(counts: ScoreCounts): AgreementScore | undefined {
  return modesOf(counts)[0];
}

/**
 * The identity of a claim across a consistency study and a tournament run. A subjective claim is
 * its text; a misinformation item also needs its index in the set, because the store keeps the
 * argued answer without the question and TruthfulQA repeats some answers ("Yes", "Trump").
 */
export function studyClaimKey(domain: Domain, claimIndex: number, claim: string): string {
  return domain === 'subjective' ? `${domain}\u0000${claim}` : `${domain}\u0000${claimIndex}\u0000${claim}`;
}
