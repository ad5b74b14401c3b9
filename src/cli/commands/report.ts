import { InputError } from '../../domain/errors/input-error.js';
import { type AtomicWriteFileSystem, writeFilesAtomically } from '../../io/write-file-atomically.js';
import { protocolOutputsOf } from '../../kit/protocol-registry.js';
import type { IntervalMethod } from '../../metrics/intervals/claim-estimates.js';
import type { ReportFormat } from '../../report/report-formats.js';
import { buildRunsReport, type RunsReport } from '../../report/runs-report.js';
import { runsReportFiles } from '../../report/runs-report-files.js';
import { duplicatesSentence } from '../../report/texts/duplicates-text.js';
import { reportWrittenText, type WrittenReport } from '../../report/texts/report-written-text.js';
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
  /** `--analysis NAME`: the analysis study whose labels the report shows (default: the run's latest). */
  readonly analysis?: string;
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
      ...(options.analysis === undefined ? {} : { analysis: options.analysis }),
      generatedAt: context.now().toISOString(),
      packageVersion: context.packageVersion,
      protocolOutputsOf,
    });
  } finally {
    store.close();
  }
  const { files, written } = await runsReportFiles(built, options.format, options.out, baseline);
  await writeFilesAtomically(files, {
    advice: { again: 'run the report again', elsewhere: 'another folder with --out' },
    ...(fileSystem ? { fileSystem } : {}),
  });
  return written;
}

/**
 * `pmiyc report`: writes the report of the latest run (or of `--run a,b`) and prints where (with
 * `--compare`, what the comparison is over and leaves out), and on standard error which
 * conversations of combined runs were counted once.
 */
export async function reportCommand(options: ReportOptions, context: CliContext): Promise<number> {
  const written = await writeReport(options, context);
  context.stdout.write(reportWrittenText(written));
  if (written.duplicates.length > 0) context.stderr.write(`pmiyc: ${duplicatesSentence(written.duplicates)}\n`);
  return 0;
}
