import { join } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { InputError } from '../../domain/input-error.js';
import { hashString } from '../../domain/random.js';
import { type AtomicWriteFileSystem, writeFilesAtomically } from '../../io/write-file-atomically.js';
import { type TournamentAnalysis, TournamentAnalyzer } from '../../metrics/tournament-analysis.js';
import { buildReportDocument } from '../../report/build-report-document.js';
import { buildReportFiles, REPORT_FORMATS, type ReportFormat } from '../../report/build-report-files.js';
import { duplicatesSentence } from '../../report/duplicates-text.js';
import type { ReportDuplicates, ReportStudies } from '../../report/report-document.js';
import { consistencyStudiesFor } from '../../report/studies/consistency-study-source.js';
import { readJudgeStudy } from '../../report/studies/judge-study-source.js';
import { loadReliabilityStudy } from '../../report/studies/reliability-study-source.js';
import { ResultStore, type RunInfo } from '../../store/result-store.js';
import type { CliContext } from '../terminal.js';

export { REPORT_FORMATS, type ReportFormat } from '../../report/build-report-files.js';

export interface ReportOptions {
  readonly store: string;
  /** Run names to combine; the latest run when absent or empty. */
  readonly run?: readonly string[];
  /** Output folder; default `./pmiyc-report/<run>/`. */
  readonly out?: string;
  readonly format: readonly ReportFormat[];
  /** Bootstrap replicates (default 2,000). */
  readonly replicates?: number;
}

/** `--format html,md` -> ['html', 'md'] (commander reports a bad value as a usage error). */
export function parseReportFormats(value: string): ReportFormat[] {
  const formats = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const unknown = formats.filter((format) => !(REPORT_FORMATS as readonly string[]).includes(format));
  if (formats.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(`--format takes a comma-separated list of ${REPORT_FORMATS.join(', ')}, got "${value}".`);
  }
  return [...new Set(formats)] as ReportFormat[];
}

/** `--run a,b` -> ['a', 'b']. */
export function parseRunNames(value: string): string[] {
  const names = [
    ...new Set(
      value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
  if (names.length === 0) throw new InvalidArgumentError(`--run takes a run name or a comma-separated list of names, got "${value}".`);
  return names;
}

/** What one pass over the store found. */
interface Collected {
  readonly analysis: TournamentAnalysis;
  /** Conversations left out because an earlier run of the list had them, per (run, earlier run). */
  readonly duplicates: ReportDuplicates[];
}

/** Streams every conversation of the runs through one analyzer; nothing else is kept per record. */
function collect(store: ResultStore, runs: readonly RunInfo[], replicates: number): Collected {
  const analyzer = new TournamentAnalyzer({ bootstrap: { replicates, confidence: 0.95, seed: runs[0]!.seed }, samplesPerKind: 1 });
  const modelsByRun = runs.map(() => new Set<string>());
  // Only combined runs can repeat a conversation id; ids are kept as 53-bit hashes, each with the
  // position of the run it was first read from, so that a duplicate can name that run.
  const firstRunOf = runs.length > 1 ? new Map<number, number>() : undefined;
  const skipped = runs.map(() => new Map<number, number>());
  runs.forEach((run, position) => {
    for (const record of store.conversations(run.id)) {
      if (firstRunOf) {
        const id = hashString(record.conversationId);
        const first = firstRunOf.get(id);
        if (first !== undefined) {
          skipped[position]!.set(first, (skipped[position]!.get(first) ?? 0) + 1);
          continue;
        }
        firstRunOf.set(id, position);
      }
      modelsByRun[position]!.add(record.persuader).add(record.persuadee);
      analyzer.add(record);
    }
  });
  assertRunsShareModels(runs, modelsByRun);
  const duplicates = skipped.flatMap((byFirst, position) =>
    [...byFirst.entries()].sort(([a], [b]) => a - b).map(([first, conversations]) => ({ run: runs[position]!.name, alsoIn: runs[first]!.name, conversations })),
  );
  return { analysis: analyzer.finish(), duplicates };
}

/** Tournaments combined in one report must share a model; runs without conversations (studies) are not compared. */
function assertRunsShareModels(runs: readonly RunInfo[], modelsByRun: readonly Set<string>[]): void {
  const withModels = modelsByRun.filter((models) => models.size > 0);
  if (withModels.length < 2) return;
  runs.forEach((run, position) => {
    const others = new Set(modelsByRun.flatMap((models, other) => (other === position ? [] : [...models])));
    if (modelsByRun[position]!.size > 0 && ![...modelsByRun[position]!].some((model) => others.has(model))) {
      throw new InputError(`run ${run.name} shares no model with the other runs, so their numbers cannot be compared: report it on its own`);
    }
  });
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
}

/**
 * Analyses one or more runs of a store in one streaming pass and writes the report's files, all
 * or none (see `writeFilesAtomically`): a failed write throws an `OutputWriteError` and leaves the
 * earlier report's files whole. `pmiyc demo` uses it too. `fileSystem` is for tests.
 */
export async function writeReport(options: ReportOptions, context: CliContext, fileSystem?: AtomicWriteFileSystem): Promise<WrittenReport> {
  const store = ResultStore.openReadOnly(options.store);
  let collected: Collected;
  let runs: RunInfo[];
  let studies: ReportStudies;
  try {
    runs = options.run && options.run.length > 0 ? options.run.map((name) => store.findRun(name)) : [store.findRun(undefined, 'tournament')];
    collected = collect(store, runs, options.replicates ?? 2000);
    const consistency = consistencyStudiesFor(store, runs, { replicates: options.replicates ?? 2000 });
    const reliability = loadReliabilityStudy(
      store,
      runs.map((run) => run.id),
      { replicates: options.replicates ?? 2000, confidence: 0.95, seed: runs[0]!.seed },
    );
    const judge = readJudgeStudy(store, runs, { replicates: options.replicates ?? 2000 });
    studies = { ...(consistency.length > 0 ? { consistency } : {}), ...(reliability ? { reliability } : {}), ...(judge ? { judge } : {}) };
  } finally {
    store.close();
  }
  const document = buildReportDocument(collected.analysis, {
    runs: runs.map((run) => ({
      name: run.name,
      createdAt: run.createdAt,
      seed: run.seed,
      packageVersion: run.packageVersion,
      status: run.status,
      ...(run.gitRevision ? { gitRevision: run.gitRevision } : {}),
      config: run.config,
    })),
    generatedAt: context.now().toISOString(),
    packageVersion: context.packageVersion,
    duplicates: collected.duplicates,
    studies,
  });
  const folder = options.out ?? defaultFolder(runs);
  const files = (await buildReportFiles(document, options.format)).map((file) => ({ path: join(folder, file.path), content: file.content }));
  await writeFilesAtomically(files, {
    advice: { again: 'run the report again', elsewhere: 'another folder with --out' },
    ...(fileSystem ? { fileSystem } : {}),
  });
  return { folder, files: files.map((file) => file.path), conversations: collected.analysis.conversations, duplicates: collected.duplicates };
}

/**
 * `pmiyc report`: writes the report of the latest run (or of `--run a,b`) and prints where, and on
 * standard error which conversations of combined runs were counted once.
 */
export async function reportCommand(options: ReportOptions, context: CliContext): Promise<number> {
  const { folder, files, conversations, duplicates } = await writeReport(options, context);
  const main = files.find((file) => file.endsWith('index.html')) ?? files.find((file) => file.endsWith('report.md')) ?? files[0];
  const charts = files.filter((file) => file.endsWith('.svg')).length;
  const listed = files.filter((file) => !file.endsWith('.svg')).map((file) => file.slice(folder.length + 1));
  context.stdout.write(
    `Report of ${conversations.toLocaleString('en-US')} conversations written to ${folder}: ${listed.join(', ')}${charts > 0 ? ` and ${charts} charts` : ''}\n` +
      (main ? `Open: ${main}\n` : ''),
  );
  if (duplicates.length > 0) context.stderr.write(`pmiyc: ${duplicatesSentence(duplicates)}\n`);
  return 0;
}
