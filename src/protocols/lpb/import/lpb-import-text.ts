import { formatCount as count, formatCounted } from '../../../domain/text-labels.js';
import type { LpbImportResult } from './lpb-import.js';

/** How many missing transcripts are named one by one before the rest are counted. */
const MOST_NAMED = 10;

function missingLines(missing: readonly string[]): string[] {
  if (missing.length === 0) return [];
  const named = missing.slice(0, MOST_NAMED).map((cell) => `  ${cell}`);
  const more = missing.length > MOST_NAMED ? [`  ... and ${count(missing.length - MOST_NAMED)} more`] : [];
  return [
    `${formatCounted(missing.length, 'completed cell')} ${missing.length === 1 ? 'has' : 'have'} no transcript in the bundle: kept with ${missing.length === 1 ? 'its' : 'their'} figures and no turns:`,
    ...named,
    ...more,
  ];
}

/** What `pmiyc import llm-persuasion-benchmark` did, in a few lines: the bundle, what it added, the transcripts missing, what to do next. */
export function lpbImportText(result: LpbImportResult, options: { readonly store: string }): string {
  const { plan } = result;
  const cells = plan.records.length;
  const blocked = plan.records.filter((record) => record.outcome !== 'completed').length;
  const where = `${result.created ? 'the new ' : ''}run ${result.run.name} (${options.store})`;
  const commit = plan.files.commit === null ? 'commit not known' : `commit ${plan.files.commit}`;
  const lines = [
    result.added > 0
      ? `Imported ${formatCounted(result.added, 'cell')} of the LLM Persuasion Benchmark's bundle ${plan.files.bundle} into ${where}${result.alreadyStored > 0 ? `; ${count(result.alreadyStored)} were there already` : ''}.`
      : `Nothing added: all ${formatCounted(cells, 'cell')} of the bundle ${plan.files.bundle} are already in ${where}.`,
    `  ${plan.files.reportPath} (${commit}): ${formatCounted(cells, 'cell')}, ${count(cells - blocked)} completed, ${count(blocked)} blocked by moderation; ${formatCounted(plan.transcriptsFound, 'transcript')} read from ${plan.files.transcriptsFolder}.`,
    ...missingLines(plan.missingTranscripts),
    'Each cell keeps its row of the per-cell table as published (pre and post means on -3..3, the signed shift), the probes and diagnostics the report lists for it, and its transcript, with the files and lines they came from.',
    `Next: pmiyc report --run ${result.run.name} --store ${options.store}`,
  ];
  return `${lines.join('\n')}\n`;
}
