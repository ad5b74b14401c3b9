import { join } from 'node:path';
import { InputError } from '../../domain/errors/input-error.js';
import { formatCount } from '../../domain/text-labels.js';
import { type AtomicWriteFileSystem, writeFilesAtomically } from '../../io/write-file-atomically.js';
import type { IntervalMethod } from '../../metrics/claim-estimates.js';
import { buildReportFiles } from '../../report/build-report-files.js';
import { duplicatesSentence } from '../../report/duplicates-text.js';
import type { ReportDuplicates } from '../../report/report-document.js';
import type { ReportFormat } from '../../report/report-formats.js';
import { buildRunsReport, type RunsReport } from '../../report/runs-report.js';
import type { RunInfo } from '../../runner/run-records.js';
import { openStore } from '../../store/result-store.js';
import type { CliContext } from '../terminal.js';

export interface ReportOptions {
  readonly store: string;
  /** Run names to combine; the latest run when absent or empty. */
  readonly run?: readonly string[];
  /** Output folder; default `./pmiyc-report/<run>/`. */
  readonly out?: string;
  readonly format: readonly ReportFormat[];
  /** Bootstrap replicates (default 2,000), for the bootstrap interval methods. */
  readonly replicates?: number;
  /** How intervals are made (default t). */
  readonly intervals?: IntervalMethod;
  /** `--compare a,b`: report run b, with each model's change from run a. */
  readonly compare?: readonly string[];
}

/** A folder name from run names: `demo-1`, `base+extra`. */
function defaultFolder(runs: readonly RunInfo[]): string {
  return join(
    'pmiyc-report',
    runs
      .map((run) => run.name)
      .join('+')
      .replace(/[^A-Za-z0-9._+-]/g, '_'),
  );
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

/**
 * Analyses one or more runs of a store in one streaming pass and writes the report's files, all
 * or none (see `writeFilesAtomically`): a failed write throws an `OutputWriteError` and leaves the
 * earlier report's files whole. `pmiyc demo` uses it too. `fileSystem` is for tests.
 */
export async function writeReport(options: ReportOptions, context: CliContext, fileSystem?: AtomicWriteFileSystem): Promise<WrittenReport> {
  if (options.compare && options.run && options.run.length > 0)
    throw new InputError('give either --run (report runs) or --compare a,b (report b against a), not both');
  const [baseline, compared] = options.compare ?? [];
  const store = openStore(options.store, { access: 'read' });
  let built: RunsReport;
  try {
    built = buildRunsReport(store, compared === undefined ? (options.run ?? []) : [compared], {
      replicates: options.replicates ?? 2000,
      ...(options.intervals ? { intervals: options.intervals } : {}),
      ...(baseline === undefined ? {} : { baseline }),
      generatedAt: context.now().toISOString(),
      packageVersion: context.packageVersion,
    });
  } finally {
    store.close();
  }
  const { runs, document, conversations, duplicates, comparisonNote } = built;
  const folder = options.out ?? (baseline === undefined ? defaultFolder(runs) : `${defaultFolder(runs)}-vs-${baseline.replace(/[^A-Za-z0-9._+-]/g, '_')}`);
  const files = (await buildReportFiles(document, options.format)).map((file) => ({ path: join(folder, file.path), content: file.content }));
  await writeFilesAtomically(files, {
    advice: { again: 'run the report again', elsewhere: 'another folder with --out' },
    ...(fileSystem ? { fileSystem } : {}),
  });
  const disputedConversations = document.imported?.disputedConversations ?? 0;
  return { folder, files: files.map((file) => file.path), conversations, duplicates, disputedConversations, ...(comparisonNote ? { comparisonNote } : {}) };
}

/** The terminal's line on imported conversations whose NC may be an artefact of how the official code read a reply. */
function disputedSentence(conversations: number): string {
  const subject = conversations === 1 ? '1 imported conversation has its' : `${formatCount(conversations)} imported conversations have their`;
  return `${subject} initial or final score resting on a reply pmiyc's parser reads differently: the report gives its figures with and without them (Imported results).`;
}

/**
 * `pmiyc report`: writes the report of the latest run (or of `--run a,b`) and prints where (with
 * `--compare`, what the comparison is over and leaves out), and on standard error which
 * conversations of combined runs were counted once.
 */
export async function reportCommand(options: ReportOptions, context: CliContext): Promise<number> {
  const { folder, files, conversations, duplicates, comparisonNote, disputedConversations } = await writeReport(options, context);
  const main = files.find((file) => file.endsWith('index.html')) ?? files.find((file) => file.endsWith('report.md')) ?? files[0];
  const charts = files.filter((file) => file.endsWith('.svg')).length;
  const listed = files.filter((file) => !file.endsWith('.svg')).map((file) => file.slice(folder.length + 1));
  context.stdout.write(
    `Report of ${formatCount(conversations)} conversations written to ${folder}: ${listed.join(', ')}${charts > 0 ? ` and ${charts} charts` : ''}\n` +
      (main ? `Open: ${main}\n` : '') +
      (comparisonNote ? `${comparisonNote.charAt(0).toUpperCase()}${comparisonNote.slice(1)}.\n` : '') +
      (disputedConversations > 0 ? `${disputedSentence(disputedConversations)}\n` : ''),
  );
  if (duplicates.length > 0) context.stderr.write(`pmiyc: ${duplicatesSentence(duplicates)}\n`);
  return 0;
}
