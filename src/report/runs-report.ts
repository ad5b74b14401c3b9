import { InputError } from '../domain/errors/input-error.js';
import { isPersonAgent } from '../domain/person-agent.js';
import { hashString } from '../domain/random.js';
import { DEFAULT_INTERVALS, type IntervalOptions } from '../metrics/intervals/claim-estimates.js';
import { type TournamentAnalysis, TournamentAnalyzer } from '../metrics/tournament-analysis.js';
import type { ProtocolOutputsLookup } from '../studies/protocol-outputs.js';
import type { StudyRun } from '../studies/run-config.js';
import { isImportedRun } from '../studies/tournament/imported-run.js';
import { agentPartsOf } from './agent-variants.js';
import { buildReportDocument } from './build-report-document.js';
import { designedAgentsOf } from './designed-agents.js';
import { acrossProtocolsOf } from './protocols/across-protocols.js';
import { isProtocolRun, protocolRunsDocument, protocolSectionOf } from './protocols/protocol-sections.js';
import type { ProtocolRunsDocument, ReportDocument, ReportDuplicates, ReportProtocolSection, ReportRun, ReportStudies } from './report-document.js';
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
  /** The tournament's document (with any protocol run's section beside it), or that of protocol runs alone. */
  readonly document: ReportDocument | ProtocolRunsDocument;
  /** The conversations the report rests on: the tournament's, and every protocol run's finished ones. */
  readonly conversations: number;
  /** Conversations of combined runs left out because an earlier run had them (empty for one run). */
  readonly duplicates: ReportDuplicates[];
  /** With a baseline run: what the comparison between runs is over and leaves out (also in meta.notes). */
  readonly comparisonNote?: string;
}

interface RunsReportOptions {
  readonly replicates: number;
  /** How intervals are made (default t: see docs/design/statistics.md). */
  readonly intervals?: IntervalOptions['method'];
  /** A baseline run to compare the reported run with, model by model, paired over shared claims (`--compare a,b`: a). */
  readonly baseline?: string;
  /** `--analysis NAME`: the analysis study whose labels the report shows (default: the latest of the reported runs'). */
  readonly analysis?: string;
  readonly generatedAt: string;
  readonly packageVersion: string;
  /** Finds a protocol run's outputs (the kit's registry): report/ may not import a protocol. */
  readonly protocolOutputsOf: ProtocolOutputsLookup;
}

/** A run as the report lists it; an imported run has no seed. */
function reportRunOf(run: StudyRun): ReportRun {
  return {
    name: run.name,
    createdAt: run.createdAt,
    seed: isImportedRun(run) ? null : run.seed,
    packageVersion: run.packageVersion,
    status: run.status,
    ...(run.gitRevision ? { gitRevision: run.gitRevision } : {}),
    config: run.storedConfig,
    runConfig: run.config,
  };
}

/** `--compare` and `--analysis` read tournaments: a protocol run named for them is refused, with what to do instead. */
function refuseProtocolRunsFor(runs: readonly StudyRun[], baseline: StudyRun | undefined, options: RunsReportOptions): void {
  for (const { name, config } of runs)
    if (config.kind === 'protocol-analysis')
      throw new InputError(
        `${name} is a study in which another judge labelled run ${config.studiedRun} again; its agreement is in that run's report: --run ${config.studiedRun}`,
      );
  const protocolRun = [...runs, ...(baseline ? [baseline] : [])].find(isProtocolRun);
  if (baseline && protocolRun?.config.kind === 'protocol')
    throw new InputError(
      `--compare compares two tournaments claim by claim, and run ${protocolRun.name} is a run of the ${protocolRun.config.protocol} protocol: report it with --run ${protocolRun.name}`,
    );
  if (options.analysis !== undefined && runs.every(isProtocolRun))
    throw new InputError(`--analysis names an analysis study of a tournament, and the reported runs are protocol runs: drop --analysis`);
}

/**
 * The run reported when none is named: the latest tournament, or, in a store that has none, the latest protocol
 * run (APE, ...); a store with neither says what it has and what to do.
 */
function latestReportedRun(source: { findRun(name?: string, kind?: 'tournament' | 'protocol'): StudyRun }): StudyRun {
  try {
    return source.findRun(undefined, 'tournament');
  } catch (noTournament) {
    if (!(noTournament instanceof InputError)) throw noTournament;
    try {
      return source.findRun(undefined, 'protocol');
    } catch {
      throw noTournament;
    }
  }
}

/**
 * The report of one or more runs (the latest tournament when none is named, else the latest protocol run), analysed in one
 * streaming pass over their conversations, with the validation studies that belong to them. A
 * protocol run (APE, ...) gives its section, made by its protocol from its records: beside the
 * tournament's report, or, when every run is a protocol run, in a report of its own.
 */
export function buildRunsReport(
  source: ReportSource & { findRun(name?: string, kind?: 'tournament' | 'protocol'): StudyRun },
  runNames: readonly string[],
  options: RunsReportOptions,
): RunsReport {
  const runs = runNames.length > 0 ? runNames.map((name) => source.findRun(name)) : [latestReportedRun(source)];
  const baseline = options.baseline === undefined ? undefined : source.findRun(options.baseline);
  refuseProtocolRunsFor(runs, baseline, options);
  const method = options.intervals ?? DEFAULT_INTERVALS.method;
  const protocolRuns = runs.filter(isProtocolRun);
  const sections = protocolRuns.map((run) =>
    protocolSectionOf(source, run, options.protocolOutputsOf, { method, replicates: options.replicates, confidence: DEFAULT_INTERVALS.confidence }),
  );
  const protocolConversations = sections.reduce((total, section) => total + section.conversations, 0);
  const tournamentRuns = runs.filter((run) => !isProtocolRun(run));
  if (tournamentRuns.length === 0) {
    const across = acrossProtocolsOf(undefined, sections);
    const document = { ...protocolRunsDocument(protocolRuns.map(reportRunOf), sections, options), ...(across ? { acrossProtocols: across } : {}) };
    return { runs, document, conversations: protocolConversations, duplicates: [] };
  }
  const protocols = sections.length === 0 ? undefined : { runs: protocolRuns.map(reportRunOf), sections };
  const report = tournamentReport(source, tournamentRuns, baseline, options, protocols);
  const tournament = { runs: tournamentRuns.map((run) => run.name), document: report.document };
  const across = acrossProtocolsOf(tournament, sections);
  const document = across ? { ...report.document, acrossProtocols: across } : report.document;
  return { ...report, document, runs, conversations: report.conversations + protocolConversations };
}

/** The tournament's report of the runs that are not protocol runs, with the protocol runs' sections beside it. */
function tournamentReport(
  source: ReportSource,
  runs: StudyRun[],
  baseline: StudyRun | undefined,
  options: RunsReportOptions,
  protocols: { readonly runs: readonly ReportRun[]; readonly sections: ReportProtocolSection[] } | undefined,
): RunsReport & { readonly document: ReportDocument } {
  const intervals: IntervalOptions = {
    ...DEFAULT_INTERVALS,
    method: options.intervals ?? DEFAULT_INTERVALS.method,
    replicates: options.replicates,
    seed: runs[0]!.seed,
  };
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
    runs: runs.map(reportRunOf),
    generatedAt: options.generatedAt,
    packageVersion: options.packageVersion,
    duplicates: collected.duplicates,
    studies,
    notes: [...(comparisonNote ? [comparisonNote] : []), ...collected.importNotes],
    ...(protocols ? { protocols } : {}),
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
