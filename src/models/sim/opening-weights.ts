import type { AgreementScore } from '../../domain/agreement-score.js';

/**
 * Opening stances cluster at Oppose and Support, as the paper found for real models (App. A). A
 * simulated persuadee draws its opening from these weights, and a simulated agent's fixed belief about
 * a claim (its stance answers, its planted drift) is drawn from them too (docs/design/simulated-agents.md).
 */
export const OPENING_WEIGHTS: readonly [AgreementScore, number][] = [
  [1, 0.08],
  [2, 0.3],
  [3, 0.2],
  [4, 0.32],
  [5, 0.1],
];

/**
 * The score a draw falls on: `draw` (in [0, the weights' total)) less each weight in turn, until it
 * goes below 0; `fallback` when rounding takes it past the last weight.
 */
export function weightedScore(weights: readonly [AgreementScore, number][], draw: number, fallback: AgreementScore): AgreementScore {
  let left = draw;
  for (const [score, weight] of weights) {
    left -= weight;
    if (left < 0) return score;
  }
  return fallback;
}
