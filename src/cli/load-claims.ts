import { readFileSync } from 'node:fs';
import type { Claim } from '../domain/claim.js';
import { InputError } from '../domain/input-error.js';
import { EXAMPLE_CLAIMS } from '../datasets/example-claims.js';
import { parseClaimsFile } from '../datasets/claims-file.js';

/** Claims named on the command line: a built-in set or a CSV/JSONL file. Warnings go to `warn`. */
export function loadClaims(source: string, warn: (line: string) => void): readonly Claim[] {
  if (source === 'examples') return EXAMPLE_CLAIMS;
  let content: string;
  try {
    content = readFileSync(source, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      code === 'ENOENT'
        ? `no claims file at ${source}: give "examples" or the path of a .csv or .jsonl file`
        : `cannot read ${source} (${code ?? (error as Error).message})`,
    );
  }
  const { claims, warnings } = parseClaimsFile(source, content);
  for (const warning of warnings) warn(warning);
  return claims;
}
