import { createHash } from 'node:crypto';
import type { Claim } from '../domain/claim.js';

/** A checksum of a claim list's content and order: a resumed run must see the same claims. */
export function claimsChecksum(claims: readonly Claim[]): string {
  const hash = createHash('sha256');
  for (const claim of claims) hash.update(JSON.stringify([claim.index, claim.domain, claim.question ?? null, claim.claim]));
  return hash.digest('hex');
}
