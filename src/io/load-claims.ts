import { isBuiltInSet, loadBuiltInSet } from '../datasets/claim-sets.js';
import { parseClaimsFile } from '../datasets/claims-file.js';
import { type ClaimSelection, selectClaims } from '../datasets/select-claims.js';
import type { Claim } from '../domain/claim.js';
import type { DataAccess } from './data-access.js';
import { readTextFile } from './read-text-file.js';

export interface LoadedClaims {
  readonly claims: readonly Claim[];
  /** What the set is, for run records: a built-in set's name or the file path. */
  readonly source: string;
}

/**
 * Claims named on the command line: a built-in set (subjective, misinformation, examples) or a
 * CSV/JSONL file, then the pilot selection. Notes and warnings go to standard error.
 */
export async function loadClaims(source: string, options: ClaimSelection & { readonly dataDir?: string }, data: DataAccess): Promise<LoadedClaims> {
  const warn = (line: string) => data.warn(line);
  let claims: readonly Claim[];
  if (isBuiltInSet(source)) {
    const set = await loadBuiltInSet(source, source === 'examples' ? { location: 'built in', read: async () => undefined } : data.files(options.dataDir));
    for (const note of set.notes) warn(`${source}: ${note}`);
    claims = set.claims;
  } else {
    const file = parseClaimsFile(
      source,
      readTextFile(source, `no claims file at ${source}: give subjective, misinformation, examples, or the path of a .csv or .jsonl file`),
    );
    for (const warning of file.warnings) warn(`warning: ${warning}`);
    claims = file.claims;
  }
  return { claims: selectClaims(claims, options), source };
}
