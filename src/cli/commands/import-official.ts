import { loadBuiltInSet } from '../../datasets/claim-sets.js';
import type { SkipReason } from '../../datasets/official-results.js';
import { type Claim, claimKey, type Domain } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import { InputError } from '../../domain/errors/input-error.js';
import { formatCount as count } from '../../domain/text-labels.js';
import { officialResultsSources } from '../../io/official-results-files.js';
import type { LabelMatch } from '../../protocol/agreement-label.js';
import { openStore } from '../../store/result-store.js';
import { type ImportedFile, type OfficialImportResult, storeOfficialImport } from '../../studies/tournament/import-official.js';
import { type ClaimSeen, planOfficialImport } from '../../studies/tournament/official-import-plan.js';
import { type CliContext, dataOf } from '../terminal.js';

export interface ImportOfficialOptions {
  /** results.json files and folders holding them. */
  readonly paths: readonly string[];
  readonly run: string;
  readonly setting?: Setting;
  readonly domain?: Domain;
  readonly labelMatch: LabelMatch;
  readonly store: string;
  readonly dataDir?: string;
  readonly gitRevision?: string;
}

const plural = (value: number, noun: string, nouns = `${noun}s`) => `${count(value)} ${value === 1 ? noun : nouns}`;

const SKIPPED: Record<SkipReason, string> = {
  'persuadee-score': 'without a persuadee score (skipped, as the official evaluation skips them)',
  'persuader-score': 'with a persuader entry without a score (skipped: pmiyc keeps every turn with its score)',
};

/**
 * The built-in claim sets of the import's domains, read from --data-dir, PMIYC_DATA_DIR or the
 * download cache without downloading anything: a set that is not at hand leaves its claims
 * unmatched (stored with origin `imported`), with a note saying how to have it.
 */
async function knownClaims(domains: ReadonlySet<Domain>, options: ImportOfficialOptions, context: CliContext, notes: string[]) {
  const byKey = new Map<string, Claim>();
  const files = dataOf(context).files(options.dataDir, { download: false });
  for (const domain of domains) {
    try {
      for (const claim of (await loadBuiltInSet(domain, files)).claims) byKey.set(claimKey(claim), claim);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      // The cache missing a file is the usual case and needs no detail; a folder the user named may have a real problem.
      const why = options.dataDir !== undefined || context.env['PMIYC_DATA_DIR'] ? ` (${error.message})` : '';
      notes.push(
        `pmiyc's ${domain} claim set is not at hand${why}, so the claims are not matched to it: give --data-dir, or fetch the set once with \`pmiyc claims ${domain}\``,
      );
    }
  }
  return (claim: ClaimSeen) =>
    byKey.get(claimKey({ domain: claim.domain, claim: claim.claim, ...(claim.question === null ? {} : { question: claim.question }) }));
}

function fileLine(file: ImportedFile): string {
  const parts = [`${plural(file.records, 'record')}: ${count(file.added)} added`];
  if (file.alreadyStored > 0) parts.push(`${count(file.alreadyStored)} already in the run`);
  for (const [reason, skipped] of file.skipped) parts.push(`${count(skipped)} ${SKIPPED[reason]}`);
  return `  ${file.path}: ${parts.join(', ')}`;
}

/** What the import did, in a few lines: per file, the replies read differently, the claims, what to do next. */
function summaryText(result: OfficialImportResult, options: ImportOfficialOptions, notes: readonly string[]): string {
  const sum = (pick: (file: ImportedFile) => number) => result.files.reduce((total, file) => total + pick(file), 0);
  const added = sum((file) => file.added);
  const already = sum((file) => file.alreadyStored);
  const where = `run ${result.run.name} (${options.store})`;
  const files = plural(result.files.length, 'results file');
  const lines = [
    added > 0
      ? `Imported ${plural(added, 'conversation')} from ${files} into ${result.created ? 'the new ' : ''}${where}:`
      : `Nothing added: ${already > 0 ? `all ${plural(already, 'conversation')} of the ${files} are already in ${where}` : `the ${files} hold no conversation to add to ${where}`}:`,
    ...result.files.map(fileLine),
  ];
  const replies = sum((file) => file.replies);
  const different = sum((file) => file.repliesReadDifferently);
  const disputed = sum((file) => file.disputedConversations);
  lines.push(
    `pmiyc's parser (--label-match ${options.labelMatch}) reads ${count(different)} of the ${plural(replies, 'reply', 'replies')} differently from the score the file recorded` +
      (different > 0 ? '; the recorded scores are kept, each such turn is listed in its conversation (imported.differences) and the report counts them.' : '.'),
  );
  if (disputed > 0) {
    lines.push(
      `${plural(disputed, 'conversation')} ${disputed === 1 ? 'has its' : 'have their'} initial or final score resting on such a reply (disputed): pmiyc report gives the figures with and without ${disputed === 1 ? 'it' : 'them'}, pmiyc show and pmiyc view mark ${disputed === 1 ? 'it' : 'them'}.`,
    );
  }
  const claims = result.claims.known + result.claims.imported;
  lines.push(`Claims: ${count(result.claims.known)} of ${count(claims)} found in pmiyc's claim sets; the others are stored with origin "imported".`);
  for (const note of notes) lines.push(`Note: ${note}`);
  lines.push(`Next: pmiyc report --run ${result.run.name} --store ${options.store}   (or pmiyc view --store ${options.store})`);
  return `${lines.join('\n')}\n`;
}

/**
 * `pmiyc import official`: reads results.json files of the official PMIYC code (a whole
 * experiments/ tree or single files), checks every record before the store is opened, then stores
 * them as one imported run (see studies/tournament/import-official.ts) and says what it did.
 */
export async function importOfficialCommand(options: ImportOfficialOptions, context: CliContext): Promise<number> {
  const sources = officialResultsSources(options.paths);
  const plan = planOfficialImport(sources, { run: options.run, labelMatch: options.labelMatch, setting: options.setting, domain: options.domain });
  const notes: string[] = [];
  const findKnownClaim = await knownClaims(new Set([...plan.claims.values()].map((claim) => claim.domain)), options, context, notes);
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
  context.stdout.write(summaryText(result, options, notes));
  return 0;
}
