import { InputError } from '../domain/errors/input-error.js';
import { isPersonAgent } from '../domain/person-agent.js';
import { hashString } from '../domain/random.js';
import { DEFAULT_INTERVALS, type IntervalOptions } from '../metrics/intervals/claim-estimates.js';
import { type TournamentAnalysis, TournamentAnalyzer } from '../metrics/tournament-analysis.js';
import { refuseProtocolRun } from '../studies/protocol-run.js';
import type { StudyRun } from '../studies/run-config.js';
import { isImportedRun } from '../studies/tournament/imported-run.js';
import { agentPartsOf } from './agent-variants.js';
import { buildReportDocument } from './build-report-document.js';
import { designedAgentsOf } from './designed-agents.js';
import type { ReportDocument, ReportDuplicates, ReportStudies } from './report-document.js';
import type { ReportSource } from './report-source.js';
import { DriftCollector } from './sections/drift-report.js';
import type { ImportedResults } from './sections/imported-figures.js';
import { ImportedTally } from './sections/imported-notes.js';
import { readPeopleReport } from './sections/people-report.js';
import { sequentialSummaryOf } from './sections/sequential-report.js';
import { readAnalysisReport } from './studies/analysis-study-source.js';
import { consistencyStudiesFor } from './studies/consistency-study-source.js';
import { readJudgeStudy } from './studies/judge-study-source.js';
import { loadReliabilityStudy } from './studies/reliability-study-source.js';
import { nothingSharedReason, runComparisonSentence } from './texts/run-comparison-text.js';

/** What one pass over the store found. */
interface Collected {
  readonly analysis: TournamentAnalysis;
  /** Conversations left out because an earlier run of the list had them, per (run, earlier run). */
  readonly duplicates: ReportDuplicates[];
  /** What the imported conversations among them are, and how their replies read (none for runs pmiyc ran). */
  readonly importNotes: string[];
  /** report.json `imported`: the imported conversations and the figures without disputed ones (absent without imports). */
  readonly imported: ImportedResults | undefined;
  /** report.json `drift` (absent without drift probes). */
  readonly drift: ReturnType<DriftCollector['result']>;
}

/** Streams every conversation of the runs through one analyzer; nothing else is kept per record. */
function collect(
  store: Pick<ReportSource, 'conversations' | 'findRun' | 'hasRun' | 'analysis'>,
  runs: readonly StudyRun[],
  intervals: IntervalOptions,
  baseline?: StudyRun,
): Collected {
  const { variantOf } = agentPartsOf([...runs, ...(baseline ? [baseline] : [])].map((run) => run.config));
  const designed = designedAgentsOf(runs.map((run) => run.config));
  const analyzer = new TournamentAnalyzer({ intervals, samplesPerKind: 1, variantOf, designed });
  if (baseline) for (const record of store.conversations(baseline.id)) analyzer.addBaseline(record);
  const modelsByRun = runs.map(() => new Set<string>());
  // Only combined runs can repeat a conversation id; ids are kept as 53-bit hashes, each with the
  // position of the run it was first read from, so that a duplicate can name that run.
  const firstRunOf = runs.length > 1 ? new Map<number, number>() : undefined;
  const skipped = runs.map(() => new Map<number, number>());
  const imported = new ImportedTally(runs.some(isImportedRun));
  const drift = new DriftCollector(store);
  runs.forEach((run, position) => {
    drift.startRun(run);
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
      imported.add(run.name, record);
      analyzer.add(record);
      drift.add(record);
    }
  });
  assertRunsShareModels(runs, modelsByRun);
  const duplicates = skipped.flatMap((byFirst, position) =>
    [...byFirst.entries()].sort(([a], [b]) => a - b).map(([first, conversations]) => ({ run: runs[position]!.name, alsoIn: runs[first]!.name, conversations })),
  );
  return { analysis: analyzer.finish(), duplicates, importNotes: imported.notes(), imported: imported.result(intervals), drift: drift.result(intervals) };
}

/** Tournaments combined in one report must share a model; runs without conversations (studies) are not compared. */
function assertRunsShareModels(runs: readonly StudyRun[], modelsByRun: readonly Set<string>[]): void {
  const withModels = modelsByRun.filter((models) => models.size > 0);
  if (withModels.length < 2) return;
  runs.forEach((run, position) => {
    const others = new Set(modelsByRun.flatMap((models, other) => (other === position ? [] : [...models])));
    if (modelsByRun[position]!.size > 0 && ![...modelsByRun[position]!].some((model) => others.has(model))) {
      throw new InputError(`run ${run.name} shares no model with the other runs, so their numbers cannot be compared: report it on its own`);
    }
  });
}

/**
 * What a comparison with a baseline run rests on and leaves out, said where every reader sees it;
 * refused (exit 2) when the runs hold no cell in common.
 */
function baselineNote(baseline: StudyRun, runs: readonly StudyRun[], analysis: TournamentAnalysis): string {
  const compared = { baseline: baseline.name, reported: runs.map((run) => run.name).join(' + ') };
  const leftOut = analysis.comparisons.runsLeftOut ?? { conditions: [], models: [] };
  const comparisons = analysis.comparisons.runs ?? [];
  if (comparisons.length === 0) throw new InputError(nothingSharedReason(compared, leftOut));
  return runComparisonSentence(compared, comparisons, leftOut);
}

/** A report of runs: the runs, the document, and what the combination left out. */
export interface RunsReport {
  readonly runs: StudyRun[];
  readonly document: ReportDocument;
  readonly conversations: number;
  /** Conversations of combined runs left out because an earlier run had them (empty for one run). */
  readonly duplicates: ReportDuplicates[];
  /** With a baseline run: what the comparison between runs is over and leaves out (also in meta.notes). */
  readonly comparisonNote?: string;
}

/**
 * The report of one or more runs (the latest tournament when none is named), analysed in one
 * streaming pass over their conversations, with the validation studies that belong to them.
 */
export function buildRunsReport(
  source: ReportSource & { findRun(name?: string, kind?: 'tournament'): StudyRun },
  runNames: readonly string[],
  options: {
    readonly replicates: number;
    /** How intervals are made (default t: see docs/design/statistics.md). */
    readonly intervals?: IntervalOptions['method'];
    /** A baseline run to compare the reported run with, model by model, paired over shared claims (`--compare a,b`: a). */
    readonly baseline?: string;
    /** `--analysis NAME`: the analysis study whose labels the report shows (default: the latest of the reported runs'). */
    readonly analysis?: string;
    readonly generatedAt: string;
    readonly packageVersion: string;
  },
): RunsReport {
  const runs = runNames.length > 0 ? runNames.map((name) => source.findRun(name)) : [source.findRun(undefined, 'tournament')];
  for (const run of runs) refuseProtocolRun(run, 'report');
  const intervals: IntervalOptions = {
    ...DEFAULT_INTERVALS,
    method: options.intervals ?? DEFAULT_INTERVALS.method,
    replicates: options.replicates,
    seed: runs[0]!.seed,
  };
  const baseline = options.baseline === undefined ? undefined : source.findRun(options.baseline);
  const collected = collect(source, runs, intervals, baseline);
  const bootstrap = { replicates: options.replicates, confidence: 0.95, seed: runs[0]!.seed };
  const consistency = consistencyStudiesFor(source, runs, { replicates: options.replicates });
  const reliability = loadReliabilityStudy(source, runs, bootstrap);
  const judge = readJudgeStudy(source, runs, { replicates: options.replicates });
  const comparisonNote = baseline ? baselineNote(baseline, runs, collected.analysis) : undefined;
  const studies: ReportStudies = { ...(consistency.length > 0 ? { consistency } : {}), ...(reliability ? { reliability } : {}), ...(judge ? { judge } : {}) };
  const sequential = sequentialSummaryOf(runs, (run) => source.conversations(run.id));
  const built = buildReportDocument(collected.analysis, {
    ...(sequential ? { sequential } : {}),
    runs: runs.map((run) => ({
      name: run.name,
      createdAt: run.createdAt,
      seed: isImportedRun(run) ? null : run.seed,
      packageVersion: run.packageVersion,
      status: run.status,
      ...(run.gitRevision ? { gitRevision: run.gitRevision } : {}),
      config: run.storedConfig,
      runConfig: run.config,
    })),
    generatedAt: options.generatedAt,
    packageVersion: options.packageVersion,
    duplicates: collected.duplicates,
    studies,
    notes: [...(comparisonNote ? [comparisonNote] : []), ...collected.importNotes],
  });
  const analysisReport = readAnalysisReport(source, runs, {
    ...(options.analysis === undefined ? {} : { analysis: options.analysis }),
    intervals,
    effectiveness: built.effectiveness,
  });
  const people = readPeopleReport(
    source,
    runs,
    intervals,
    collected.analysis.models.some((entry) => isPersonAgent(entry.model)),
  );
  const document = {
    ...built,
    ...analysisReport,
    ...(collected.imported ? { imported: collected.imported } : {}),
    ...(collected.drift ? { drift: collected.drift } : {}),
    ...(people ? { people } : {}),
  };
  return { runs, document, conversations: collected.analysis.conversations, duplicates: collected.duplicates, ...(comparisonNote ? { comparisonNote } : {}) };
}
