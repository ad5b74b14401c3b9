/** The two kinds of claim the method knows. */
export type Domain = 'subjective' | 'misinformation';
export const DOMAINS: readonly Domain[] = ['subjective', 'misinformation'];

/**
 * One item a persuader argues for.
 * - subjective: `claim` is the statement.
 * - misinformation: `question` is a factual question and `claim` an incorrect answer to it.
 * `index` is the position in its claim set; `origin` and `license` follow the item into every export.
 */
export interface Claim {
  readonly index: number;
  readonly domain: Domain;
  readonly claim: string;
  readonly question?: string;
  /** Where the item comes from: anthropic, perspectrum, truthfulqa, examples, or a user's file name. */
  readonly origin: string;
  readonly license: string;
  /** The id a user's file gave the item, if any. */
  readonly id?: string;
}

/** A stable key for a claim's content, independent of the set it came from. */
export function claimKey(claim: Pick<Claim, 'domain' | 'claim' | 'question'>): string {
  return claim.question === undefined ? `${claim.domain}\u0000${claim.claim}` : `${claim.domain}\u0000${claim.question}\u0000${claim.claim}`;
}
