import { licencesOf } from '../../datasets/licences.js';
import { loadClaims } from '../../io/inputs/load-claims.js';
import type { ClaimsFormat } from '../../report/report-formats.js';
import { claimJsonLine, claimsTableText } from '../../report/texts/claims-text.js';
import { type CliContext, dataOf } from '../terminal.js';

export interface ClaimsOptions {
  readonly source: string;
  readonly format: ClaimsFormat;
  readonly dataDir?: string;
  readonly limit?: number;
  readonly sample?: number;
  readonly seed: number;
}

/** `pmiyc claims`: lists the items of a built-in set or a claims file, as a table or as JSON lines. */
export async function claimsCommand(options: ClaimsOptions, context: CliContext): Promise<number> {
  const { claims } = await loadClaims(options.source, options, dataOf(context));
  if (options.format === 'jsonl') for (const claim of claims) context.stdout.write(`${claimJsonLine(claim)}\n`);
  else context.stdout.write(claimsTableText(claims, licencesOf(claims)));
  return 0;
}
