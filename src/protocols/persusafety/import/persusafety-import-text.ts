import { formatCount as count, formatCounted } from '../../../domain/text-labels.js';
import type { PersusafetyFileResult, PersusafetyImportResult } from './persusafety-import.js';

function fileLine(file: PersusafetyFileResult): string {
  const shown = file.condition === 'visible' ? 'shown to' : 'hidden from';
  const persuader = file.persuaderProfile === undefined ? file.persuader : `${file.persuader} (${file.persuaderProfile})`;
  const parts = [`${formatCounted(file.records, 'record')}: ${count(file.added)} added`];
  if (file.alreadyStored > 0) parts.push(`${count(file.alreadyStored)} already in the run`);
  return `  ${file.path} (${file.study}: ${persuader} persuading ${file.profile}, the profile ${shown} the persuader): ${parts.join(', ')}`;
}

/** What `pmiyc import persusafety` did, in a few lines: per file, what it is and what it added, and what to do next. */
export function persusafetyImportText(result: PersusafetyImportResult, options: { readonly store: string }): string {
  const added = result.files.reduce((sum, file) => sum + file.added, 0);
  const already = result.files.reduce((sum, file) => sum + file.alreadyStored, 0);
  const where = `run ${result.run.name} (${options.store})`;
  const files = formatCounted(result.files.length, 'results file');
  const lines = [
    added > 0
      ? `Imported ${formatCounted(added, 'conversation')} of PersuSafety from ${files} into ${result.created ? 'the new ' : ''}${where}:`
      : `Nothing added: all ${formatCounted(already, 'conversation')} of the ${files} are already in ${where}:`,
    ...result.files.map(fileLine),
    "Each conversation keeps its scene, messages, the persuadee's decisions and the paper judge's 15 scores as published (judgement.published), with the file and record it came from.",
    `Next: pmiyc runs --store ${options.store}`,
  ];
  return `${lines.join('\n')}\n`;
}
