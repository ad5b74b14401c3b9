import type { Claim } from '../../domain/claim.js';
import { formatCount, formatCounted } from '../../domain/text-labels.js';
import { formatTextTable } from './text-table.js';

/** One claim as a JSON line (`pmiyc claims --format jsonl`): question only for misinformation items, id only when the file gave one. */
export function claimJsonLine(claim: Claim): string {
  return JSON.stringify({
    index: claim.index,
    domain: claim.domain,
    claim: claim.claim,
    ...(claim.question === undefined ? {} : { question: claim.question }),
    origin: claim.origin,
    license: claim.license,
    ...(claim.id === undefined ? {} : { id: claim.id }),
  });
}

/** `pmiyc claims`: the claims as a table, then their count and licences (how many claims come from each origin, under what licence). */
export function claimsTableText(
  claims: readonly Claim[],
  licences: ReadonlyArray<{ readonly claims: number; readonly origin: string; readonly license: string }>,
): string {
  const rows = claims.map((claim) => [
    String(claim.index),
    claim.domain,
    claim.origin,
    JSON.stringify(claim.claim),
    claim.question === undefined ? '' : JSON.stringify(claim.question),
  ]);
  const uses = licences.map((use) => `${formatCount(use.claims)} from ${use.origin}: ${use.license}`);
  return `${formatTextTable(['index', 'domain', 'origin', 'claim', 'question'], rows, { align: 'left' })}\n\n${formatCounted(claims.length, 'claim')}. Licences: ${uses.join('; ')}\n`;
}
