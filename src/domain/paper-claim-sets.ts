import type { Domain } from './claim.js';

/**
 * The paper's claim sets (SPEC 2): how many claims each domain's full set has, and the origins its
 * items carry (`Claim.origin`), so that a claim can be traced to the set it came from.
 */
export const PAPER_CLAIM_SETS: Readonly<Record<Domain, { readonly name: string; readonly claims: number; readonly origins: readonly string[] }>> = {
  subjective: { name: 'subjective', claims: 961, origins: ['anthropic', 'perspectrum'] },
  misinformation: { name: 'misinformation', claims: 817, origins: ['truthfulqa'] },
};
