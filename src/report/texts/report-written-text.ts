import { join } from 'node:path';
import { formatCount, formatCounted } from '../../domain/text-labels.js';
import type { ReportDuplicates } from '../report-document.js';

/** A run's name as a file or folder name: characters a file system may refuse become `_`. */
export const safeFileName = (name: string) => name.replace(/[^A-Za-z0-9._+-]/g, '_');

/** Where a report goes unless --out says: `pmiyc-report/demo-1`, `pmiyc-report/base+extra`, with `-vs-<baseline>` for --compare. */
export function defaultReportFolder(runs: ReadonlyArray<{ readonly name: string }>, baseline?: string): string {
  const folder = join('pmiyc-report', safeFileName(runs.map((run) => run.name).join('+')));
  return baseline === undefined ? folder : `${folder}-vs-${safeFileName(baseline)}`;
}

/** What `writeReport` wrote. */
export interface WrittenReport {
  readonly folder: string;
  /** The paths written, the HTML first when asked for. */
  readonly files: string[];
  readonly conversations: number;
  /** Conversations of combined runs left out because an earlier run had them (empty for one run). */
  readonly duplicates: ReportDuplicates[];
  /** With `--compare`: what each model's change is over and what it leaves out. */
  readonly comparisonNote?: string;
  /** Imported conversations whose initial or final score rests on a reply pmiyc's parser reads differently (0 when none). */
  readonly disputedConversations: number;
}

/** The terminal's line on imported conversations whose NC may be an artefact of how the official code read a reply. */
function disputedSentence(conversations: number): string {
  const subject = conversations === 1 ? '1 imported conversation has its' : `${formatCount(conversations)} imported conversations have their`;
  return `${subject} initial or final score resting on a reply pmiyc's parser reads differently: the report gives its figures with and without them (Imported results).`;
}

/**
 * What `pmiyc report` says it wrote: how many conversations, the files (charts counted), the one to
 * open, what a comparison is over, and how many imported conversations have a disputed score.
 */
export function reportWrittenText({ folder, files, conversations, comparisonNote, disputedConversations }: WrittenReport): string {
  const main = files.find((file) => file.endsWith('index.html')) ?? files.find((file) => file.endsWith('report.md')) ?? files[0];
  const charts = files.filter((file) => file.endsWith('.svg')).length;
  const listed = files.filter((file) => !file.endsWith('.svg')).map((file) => file.slice(folder.length + 1));
  return (
    `Report of ${formatCounted(conversations, 'conversation')} written to ${folder}: ${listed.join(', ')}${charts > 0 ? ` and ${formatCounted(charts, 'chart')}` : ''}\n` +
    (main ? `Open: ${main}\n` : '') +
    (comparisonNote ? `${comparisonNote.charAt(0).toUpperCase()}${comparisonNote.slice(1)}.\n` : '') +
    (disputedConversations > 0 ? `${disputedSentence(disputedConversations)}\n` : '')
  );
}
