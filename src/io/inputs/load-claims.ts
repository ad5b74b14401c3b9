import { isBuiltInSet, loadBuiltInSet } from '../../datasets/claim-sets.js';
import { parseClaimsFile } from '../../datasets/claims-file.js';
import { type ItemSelection, selectClaims } from '../../datasets/select-claims.js';
import { type Claim, claimKey, type Domain } from '../../domain/claim.js';
import { InputError } from '../../domain/errors/input-error.js';
import { readTextFile } from '../read-text-file.js';
import type { DataAccess } from './data-access.js';

export interface LoadedClaims {
  readonly claims: readonly Claim[];
  /** What the set is, for run records: a built-in set's name or the file path. */
  readonly source: string;
}

/**
 * Claims named on the command line: a built-in set (subjective, misinformation, examples) or a
 * CSV/JSONL file, then the pilot selection. Notes and warnings go to standard error.
 */
export async function loadClaims(source: string, options: ItemSelection & { readonly dataDir?: string }, data: DataAccess): Promise<LoadedClaims> {
  const warn = (line: string) => data.warn(line);
  let claims: readonly Claim[];
  if (isBuiltInSet(source)) {
    const set = await loadBuiltInSet(source, source === 'examples' ? { location: 'built in', read: async () => undefined } : data.files(options.dataDir));
    for (const note of set.notes) warn(`${source}: ${note}`);
    claims = set.claims;
  } else {
    const file = parseClaimsFile(
      source,
      await readTextFile(source, `no claims file at ${source}: give subjective, misinformation, examples, or the path of a .csv or .jsonl file`),
    );
    for (const warning of file.warnings) warn(`warning: ${warning}`);
    claims = file.claims;
  }
  return { claims: selectClaims(claims, options), source };
}

/** The known claims of some domains, to match claims met elsewhere against, and what is not at hand. */
export interface KnownClaims {
  /** The item of a built-in set with the same domain, text and question, if any. */
  readonly findKnownClaim: (claim: { readonly domain: Domain; readonly claim: string; readonly question: string | null }) => Claim | undefined;
  /** One note per set that is not at hand, saying how to have it. */
  readonly notes: readonly string[];
}

/**
 * The built-in claim sets of some domains, read from `dataDir`, PMIYC_DATA_DIR or the download cache
 * without downloading anything: a set that is not at hand leaves its claims unmatched, with a note
 * saying how to have it (and why it is not, when `explainMissing`: a folder the user named).
 */
export async function loadKnownClaims(
  domains: ReadonlySet<Domain>,
  dataDir: string | undefined,
  data: DataAccess,
  explainMissing: boolean,
): Promise<KnownClaims> {
  const byKey = new Map<string, Claim>();
  const notes: string[] = [];
  const files = data.files(dataDir, { download: false });
  for (const domain of domains) {
    try {
      for (const claim of (await loadBuiltInSet(domain, files)).claims) byKey.set(claimKey(claim), claim);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      const why = explainMissing ? ` (${error.message})` : '';
      notes.push(
        `pmiyc's ${domain} claim set is not at hand${why}, so the claims are not matched to it: give --data-dir, or fetch the set once with \`pmiyc claims ${domain}\``,
      );
    }
  }
  const findKnownClaim: KnownClaims['findKnownClaim'] = (claim) =>
    byKey.get(claimKey({ domain: claim.domain, claim: claim.claim, ...(claim.question === null ? {} : { question: claim.question }) }));
  return { findKnownClaim, notes };
}
