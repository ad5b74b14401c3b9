import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { InputError } from '../../domain/input-error.js';
import { hashString } from '../../domain/random.js';
import { type TournamentAnalysis, TournamentAnalyzer } from '../../metrics/tournament-analysis.js';
import { buildReportDocument } from '../../report/build-report-document.js';
import { buildReportFiles, REPORT_FORMATS, type ReportFormat } from '../../report/build-report-files.js';
import type { ReportStudies } from '../../report/report-document.js';
import { ResultStore, type RunInfo } from '../../store/result-store.js';
import { loadReliabilityStudy } from '../annotation-study.js';
import { consistencyStudiesFor } from '../consistency-study.js';
import { readJudgeStudy } from '../judge-report.js';
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
  readonly duplicatesSkipped: number;
}

/** Streams every conversation of the runs through one analyzer; nothing else is kept per record. */
function collect(store: ResultStore, runs: readonly RunInfo[], replicates: number): Collected {
  const analyzer = new TournamentAnalyzer({ bootstrap: { replicates, confidence: 0.95, seed: runs[0]!.seed }, samplesPerKind: 1 });
  const modelsByRun = runs.map(() => new Set<string>());
  // Only combined runs can repeat a conversation id; ids are kept as 53-bit hashes.
  const seen = runs.length > 1 ? new Set<number>() : undefined;
  let duplicatesSkipped = 0;
  runs.forEach((run, position) => {
    for (const record of store.conversations(run.id)) {
      if (seen) {
        const id = hashString(record.conversationId);
        if (seen.has(id)) {
          duplicatesSkipped += 1;
          continue;
        }
        seen.add(id);
      }
      modelsByRun[position]!.add(record.persuader).add(record.persuadee);
      analyzer.add(record);
    }
  });
  assertRunsShareModels(runs, modelsByRun);
  return { analysis: analyzer.finish(), duplicatesSkipped };
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

/**
 * Analyses one or more runs of a store in one streaming pass and writes the report's files.
 * Returns the folder and the paths written (the HTML first when asked for). `pmiyc demo` uses it too.
 */
export async function writeReport(options: ReportOptions, context: CliContext): Promise<{ folder: string; files: string[]; conversations: number }> {
  const store = ResultStore.openExisting(options.store);
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
    duplicatesSkipped: collected.duplicatesSkipped,
    studies,
  });
  const folder = options.out ?? defaultFolder(runs);
  const files = await buildReportFiles(document, options.format);
  for (const file of files) {
    const path = join(folder, file.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content, 'utf8');
  }
  return { folder, files: files.map((file) => join(folder, file.path)), conversations: collected.analysis.conversations };
}

/** `pmiyc report`: writes the report of the latest run (or of `--run a,b`) and prints where. */
export async function reportCommand(options: ReportOptions, context: CliContext): Promise<number> {
  const { folder, files, conversations } = await writeReport(options, context);
  const main = files.find((file) => file.endsWith('index.html')) ?? files.find((file) => file.endsWith('report.md')) ?? files[0];
  const charts = files.filter((file) => file.endsWith('.svg')).length;
  const listed = files.filter((file) => !file.endsWith('.svg')).map((file) => file.slice(folder.length + 1));
  context.stdout.write(
    `Report of ${conversations.toLocaleString('en-US')} conversations written to ${folder}: ${listed.join(', ')}${charts > 0 ? ` and ${charts} charts` : ''}\n` +
      (main ? `Open: ${main}\n` : ''),
  );
  return 0;
}
