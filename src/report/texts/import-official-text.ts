import { formatCount as count, formatCounted } from '../../domain/text-labels.js';
import type { ImportedFile, OfficialImportResult } from '../../studies/tournament/import-official.js';

/** Why records of a file were skipped (the reasons `parseOfficialResults` gives). */
type SkipReason = Parameters<ImportedFile['skipped']['get']>[0];

const SKIPPED: Record<SkipReason, string> = {
  'persuadee-score': 'without a persuadee score (skipped, as the official evaluation skips them)',
  'persuader-score': 'with a persuader entry without a score (skipped: pmiyc keeps every turn with its score)',
};

function fileLine(file: ImportedFile): string {
  const parts = [`${formatCounted(file.records, 'record')}: ${count(file.added)} added`];
  if (file.alreadyStored > 0) parts.push(`${count(file.alreadyStored)} already in the run`);
  for (const [reason, skipped] of file.skipped) parts.push(`${count(skipped)} ${SKIPPED[reason]}`);
  return `  ${file.path}: ${parts.join(', ')}`;
}

/**
 * What `pmiyc import official` did, in a few lines: per file, the replies read differently, the
 * claims, what to do next (in `store`); `notes` are said as they are.
 */
export function importSummaryText(
  result: OfficialImportResult,
  options: { readonly store: string; readonly labelMatch: string },
  notes: readonly string[],
): string {
  const sum = (pick: (file: ImportedFile) => number) => result.files.reduce((total, file) => total + pick(file), 0);
  const added = sum((file) => file.added);
  const already = sum((file) => file.alreadyStored);
  const where = `run ${result.run.name} (${options.store})`;
  const files = formatCounted(result.files.length, 'results file');
  const lines = [
    added > 0
      ? `Imported ${formatCounted(added, 'conversation')} from ${files} into ${result.created ? 'the new ' : ''}${where}:`
      : `Nothing added: ${already > 0 ? `all ${formatCounted(already, 'conversation')} of the ${files} are already in ${where}` : `the ${files} hold no conversation to add to ${where}`}:`,
    ...result.files.map(fileLine),
  ];
  const replies = sum((file) => file.replies);
  const different = sum((file) => file.repliesReadDifferently);
  const disputed = sum((file) => file.disputedConversations);
  lines.push(
    `pmiyc's parser (--label-match ${options.labelMatch}) reads ${count(different)} of the ${formatCounted(replies, 'reply', 'replies')} differently from the score the file recorded` +
      (different > 0 ? '; the recorded scores are kept, each such turn is listed in its conversation (imported.differences) and the report counts them.' : '.'),
  );
  if (disputed > 0) {
    lines.push(
      `${formatCounted(disputed, 'conversation')} ${disputed === 1 ? 'has its' : 'have their'} initial or final score resting on such a reply (disputed): pmiyc report gives the figures with and without ${disputed === 1 ? 'it' : 'them'}, pmiyc show and pmiyc view mark ${disputed === 1 ? 'it' : 'them'}.`,
    );
  }
  const claims = result.claims.known + result.claims.imported;
  lines.push(`Claims: ${count(result.claims.known)} of ${count(claims)} found in pmiyc's claim sets; the others are stored with origin "imported".`);
  for (const note of notes) lines.push(`Note: ${note}`);
  lines.push(`Next: pmiyc report --run ${result.run.name} --store ${options.store}   (or pmiyc view --store ${options.store})`);
  return `${lines.join('\n')}\n`;
}
