import { ConsistencyAnalyzer } from '../../metrics/consistency/consistency.js';
import { openingScores } from '../../metrics/consistency/consistency-openings.js';
import { chooseStudy } from '../../studies/chosen-study.js';
import { type ConsistencyConfig, consistencyConfigOf } from '../../studies/consistency/consistency-design.js';
import type { StudyRun } from '../../studies/run-config.js';
import type { ReportSource } from '../report-source.js';
import { type ConsistencyStudyReport, MATCH_RATE_TIE_RULE } from './consistency-figures.js';

export interface StudyAnalysisOptions {
  /** Bootstrap replicates for the 95% intervals (default 2,000). */
  readonly replicates?: number;
}

/** The tournament run a study compares with, if it names one and the store has it. */
function linkedRun(store: ReportSource, config: ConsistencyConfig): StudyRun | undefined {
  if (config.tournamentRun === undefined || !store.hasRun(config.tournamentRun)) return undefined;
  return store.findRun(config.tournamentRun);
}

function notesOf(report: Omit<ConsistencyStudyReport, 'notes'>, linked: StudyRun | undefined): string[] {
  const notes: string[] = [];
  if (report.tournamentRun !== null && !linked) notes.push(`run ${report.tournamentRun} is not in this store: Match Rate and Avg Dif cannot be computed`);
  for (const row of report.models) {
    const where = `${row.model} (${row.domain})`;
    if (row.claimsWithoutAnswer > 0)
      notes.push(`${where}: ${row.claimsWithoutAnswer} of ${row.claims} claims have no usable answer and are left out of every mean`);
    if (linked && row.openingAgreement?.openings === 0)
      notes.push(`${where}: no opening in run ${linked.name} to compare with (the model was not a persuadee there, or on none of these claims)`);
  }
  return notes;
}

/**
 * Table 1 of one study, streamed from the store: its answers, then (when it names a tournament
 * run) that run's openings, each once. Memory: five counts per (model, claim), one score per opening.
 */
export function analyzeStudy(store: ReportSource, run: StudyRun, options: StudyAnalysisOptions = {}): ConsistencyStudyReport {
  const config = consistencyConfigOf(run.name, run.config);
  const linked = linkedRun(store, config);
  const analyzer = new ConsistencyAnalyzer();
  for (const sample of store.consistency.samples(run.id)) analyzer.addSample(sample);
  if (linked) for (const opening of openingScores(store.conversations(linked.id))) analyzer.addOpening(opening);
  const bootstrap = { replicates: options.replicates ?? 2000, confidence: 0.95, seed: run.seed };
  const simulated = new Set(config.simulated);
  const models = analyzer
    .finish({ compareOpenings: linked !== undefined, bootstrap })
    .map((row) => ({ ...row, simulated: simulated.has(row.model) || row.model.startsWith('sim/') }));
  const report = {
    study: run.name,
    createdAt: run.createdAt,
    status: run.status,
    seed: run.seed,
    kind: config.import ? ('imported' as const) : ('sampled' as const),
    samplesPerClaim: config.design?.samples ?? null,
    claimSource: config.design?.claims.source ?? null,
    temperature: config.design?.sampling.temperature ?? null,
    maxAttempts: config.design?.sampling.maxAttempts ?? null,
    importedFile: config.import?.file ?? null,
    tournamentRun: config.tournamentRun ?? null,
    tieRule: MATCH_RATE_TIE_RULE,
    bootstrap: { ...bootstrap, unit: 'claim' as const, method: 'percentile' as const },
    models,
  };
  return { ...report, notes: notesOf(report, linked) };
}

/**
 * The consistency studies a report of `runs` shows: a run that is itself a study, and every study
 * that names one of the runs as its tournament run. Each study once, in the order found.
 */
export function consistencyStudiesFor(store: ReportSource, runs: readonly StudyRun[], options: StudyAnalysisOptions = {}): ConsistencyStudyReport[] {
  return chooseStudy(store, { kind: 'consistency', runs, every: true }).map(({ study }) => analyzeStudy(store, study, options));
}
