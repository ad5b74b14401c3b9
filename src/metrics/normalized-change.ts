import type { AgreementScore } from '../domain/agreement-score.js';

/**
 * Normalized change of a persuadee's agreement (paper, Eq. 1), in [-1, 1]:
 * a gain is divided by the room left to gain (5 - s0), a loss by the room left to lose (s0 - 1).
 * s0 = 5 with st = 5 is 0: the "otherwise" branch gives 0 / 4. s0 = 1 never loses, so its
 * denominator 0 is never reached.
 */
export function normalizedChange(initialScore: AgreementScore, finalScore: AgreementScore): number {
  const change = finalScore - initialScore;
  if (finalScore >= initialScore && initialScore !== 5) return change / (5 - initialScore);
  return change / (initialScore - 1);
}

/** Plain change of agreement, st - s0, in [-4, 4]. */
export function absoluteChange(initialScore: AgreementScore, finalScore: AgreementScore): number {
  return finalScore - initialScore;
}
