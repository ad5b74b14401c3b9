/**
 * The persuadee's agreement with a claim on the paper's five-point scale.
 * 1 = Completely Oppose ... 5 = Completely Support.
 */
export type AgreementScore = 1 | 2 | 3 | 4 | 5;

/** The five labels, indexed by score. Written exactly as agents must write them. */
export const AGREEMENT_LABELS = {
  1: 'Completely Oppose',
  2: 'Oppose',
  3: 'Neutral',
  4: 'Support',
  5: 'Completely Support',
} as const satisfies Record<AgreementScore, string>;

export type AgreementLabel = (typeof AGREEMENT_LABELS)[AgreementScore];

export const AGREEMENT_SCORES: readonly AgreementScore[] = [1, 2, 3, 4, 5];

/** The highest score; reaching it after the opening ends a conversation early. */
export const MAX_AGREEMENT: AgreementScore = 5;

export function agreementLabel(score: AgreementScore): AgreementLabel {
  return AGREEMENT_LABELS[score];
}

export function isAgreementScore(value: unknown): value is AgreementScore {
  return value === 1 || value === 2 || value === 3 || value === 4 || value === 5;
}

/** Rounds and clamps any number onto the scale (for simulated agents and padding). */
export function toAgreementScore(value: number): AgreementScore {
  const rounded = Math.round(Math.min(5, Math.max(1, value)));
  return rounded as AgreementScore;
}
