import type { Claim } from '../domain/claim.js';

export interface LicenceUse {
  readonly origin: string;
  readonly license: string;
  readonly claims: number;
}

/** What a run records of its claims: how many, and under which licences. */
export function claimsRecordOf(claims: readonly Pick<Claim, 'origin' | 'license'>[]): { count: number; licences: LicenceUse[] } {
  return { count: claims.length, licences: licencesOf(claims) };
}

/** Which licences a set of claims comes under, per origin, in order of first appearance. */
export function licencesOf(claims: Iterable<Pick<Claim, 'origin' | 'license'>>): LicenceUse[] {
  const byOrigin = new Map<string, { license: string; claims: number }>();
  for (const claim of claims) {
    const entry = byOrigin.get(claim.origin) ?? { license: claim.license, claims: 0 };
    entry.claims += 1;
    byOrigin.set(claim.origin, entry);
  }
  return [...byOrigin].map(([origin, entry]) => ({ origin, ...entry }));
}
