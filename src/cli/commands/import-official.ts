import { loadKnownClaims } from '../../io/inputs/load-claims.js';
import { officialResultsSources } from '../../io/prepare/official-results-files.js';
import { importSummaryText } from '../../report/texts/import-official-text.js';
import { openStore } from '../../store/result-store.js';
import { type OfficialImportResult, storeOfficialImport } from '../../studies/tournament/import-official.js';
import { type OfficialImportRequest, planOfficialImport } from '../../studies/tournament/official-import-plan.js';
import { type CliContext, dataOf } from '../terminal.js';

export interface ImportOfficialOptions extends OfficialImportRequest {
  /** results.json files and folders holding them. */
  readonly paths: readonly string[];
  readonly store: string;
  readonly dataDir?: string;
  readonly gitRevision?: string;
}

/**
 * `pmiyc import official`: reads results.json files of the official PMIYC code (a whole
 * experiments/ tree or single files), checks every record before the store is opened, then stores
 * them as one imported run (see studies/tournament/import-official.ts) and says what it did.
 */
export async function importOfficialCommand(options: ImportOfficialOptions, context: CliContext): Promise<number> {
  const sources = await officialResultsSources(options.paths);
  const plan = await planOfficialImport(sources, options);
  // The cache missing a file is the usual case and needs no detail; a folder the user named may have a real problem.
  const folderNamed = options.dataDir !== undefined || Boolean(context.env['PMIYC_DATA_DIR']);
  const domains = new Set([...plan.claims.values()].map((claim) => claim.domain));
  const { findKnownClaim, notes } = await loadKnownClaims(domains, options.dataDir, dataOf(context), folderNamed);
  const store = openStore(options.store);
  let result: OfficialImportResult;
  try {
    result = await storeOfficialImport(store, plan, sources, {
      findKnownClaim,
      about: { packageVersion: context.packageVersion, ...(options.gitRevision ? { gitRevision: options.gitRevision } : {}) },
      importedAt: context.now().toISOString(),
    });
  } finally {
    store.close();
  }
  context.stdout.write(importSummaryText(result, options, notes));
  return 0;
}
