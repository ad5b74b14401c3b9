import type { AgreementScore } from '../domain/agreement-score.js';

/** Figure 7: the persuader's own stance on the claim it argues for. */
export type StanceGroup = 'opposing' | 'neutral' | 'supporting';

export const STANCE_GROUPS: readonly StanceGroup[] = ['opposing', 'neutral', 'supporting'];

/** Opposing (1-2), Neutral (3), Supporting (4-5), as the paper groups them. */
export function stanceGroupOf(score: AgreementScore): StanceGroup {
  if (score <= 2) return 'opposing';
  return score === 3 ? 'neutral' : 'supporting';
}
