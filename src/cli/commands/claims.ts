import { licencesOf } from '../../datasets/licences.js';
import type { Claim } from '../../domain/claim.js';
import { loadClaims } from '../../io/load-claims.js';
import { formatTextTable } from '../../report/text-table.js';
import type { ClaimsFormat } from '../options.js';
import { type CliContext, dataOf } from '../terminal.js';

export interface ClaimsOptions {
  readonly source: string;
  readonly format: ClaimsFormat;
  readonly dataDir?: string;
  readonly limit?: number;
  readonly sample?: number;
  readonly seed: number;
}

/** One claim as a JSON line: question only for misinformation items, id only when the file gave one. */
function claimLine(claim: Claim): string {
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

/** `pmiyc claims`: lists the items of a built-in set or a claims file. */
export async function claimsCommand(options: ClaimsOptions, context: CliContext): Promise<number> {
  const { claims } = await loadClaims(options.source, options, dataOf(context));
  if (options.format === 'jsonl') {
    for (const claim of claims) context.stdout.write(`${claimLine(claim)}\n`);
    return 0;
  }
  const rows = claims.map((claim) => [
    String(claim.index),
    claim.domain,
    claim.origin,
    JSON.stringify(claim.claim),
    claim.question === undefined ? '' : JSON.stringify(claim.question),
  ]);
  context.stdout.write(`${formatTextTable(['index', 'domain', 'origin', 'claim', 'question'], rows, { align: 'left' })}\n\n`);
  const licences = licencesOf(claims).map((use) => `${use.claims} from ${use.origin}: ${use.license}`);
  context.stdout.write(`${claims.length} claims. Licences: ${licences.join('; ')}\n`);
  return 0;
}
