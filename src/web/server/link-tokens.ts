import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A link's secret: 32 random bytes (256 bits), base64url. Unguessable, so a link needs no password;
 * only its SHA-256 is stored (a salt or a slow hash adds nothing to a secret this long), so a copy
 * of the store lets no one in, and a restart recognises every link it gave. The one maker of the
 * secrets pmiyc's pages carry: a people study's links (`web/people/people-links.ts`), the viewer's
 * notes address (`#token=`) and the annotation page's session.
 */
export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether `given` hashes to `expectedHash`, compared in constant time. */
export function tokenMatches(given: string, expectedHash: string): boolean {
  const a = Buffer.from(hashToken(given), 'hex');
  const b = Buffer.from(expectedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A pseudonymous participant id, `p-` and 6 random hex digits: drawn apart from any token, so it tells nothing of one. */
export function newParticipantId(): string {
  return `p-${randomBytes(3).toString('hex')}`;
}

/** Whether a path segment has the shape of a token (anything else is refused before any lookup). */
export function looksLikeToken(segment: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(segment);
}
