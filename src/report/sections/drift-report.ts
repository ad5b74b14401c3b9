import type { AgreementScore } from '../../domain/agreement-score.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import type { IntervalMethod, IntervalOptions } from '../../metrics/intervals/claim-estimates.js';
import { type DriftAnalysis, DriftTally, driftObservationOf } from '../../metrics/techniques/drift.js';
import type { AnalysisResults } from '../../studies/analysis/analysis-results.js';
import { chooseStudy } from '../../studies/chosen-study.js';
import { type StudyRun, tournamentDesignOf } from '../../studies/run-config.js';

/** Where a reported run's drift probes come from: its own records (`pmiyc run --probe-drift`), or an analysis study of it (`pmiyc analyze --probe-drift`). */
export interface DriftSource {
  readonly run: string;
  readonly source: 'run' | 'analysis';
  /** The analysis study read (the latest of the run's with drift probes); null when the records hold the probes. */
  readonly study: string | null;
}

/**
 * report.json `drift` (docs/design/report.md): each persuader's drift (probe score minus its stance
 * before the conversation) per domain and setting, and each pair's, with 95% intervals over claims.
 * Absent when no reported run has drift probes.
 */
export interface DriftReport extends DriftAnalysis {
  /** `run` or `analysis` when every run's probes come from there, else `mixed` (see `sources`). */
  readonly source: 'run' | 'analysis' | 'mixed';
  readonly sources: DriftSource[];
  readonly intervals: { readonly method: IntervalMethod; readonly confidence: number; readonly unit: 'claim' };
}

/** What the drift section reads of a store: runs by name, and analysis studies' drift probes. */
export interface DriftStore {
  findRun(name: string): StudyRun;
  hasRun(name: string): boolean;
  readonly analysis: Pick<AnalysisResults, 'studyNames' | 'probes'>;
}

type DriftRecord = Pick<
  ConversationRecord,
  'conversationId' | 'domain' | 'setting' | 'claim' | 'question' | 'persuader' | 'persuadee' | 'status' | 'persuaderStance' | 'driftProbe'
>;

/** Whether a run's stored design asked for drift probes (`pmiyc run --probe-drift`). */
const probedByDesign = (run: StudyRun): boolean => tournamentDesignOf(run.config)?.probeDrift === true;

/**
 * Gathers drift while a report streams the runs' records: a run started with --probe-drift gives
 * its records' probes; any other run gives those of its latest analysis study that has any (its
 * completed conversations without a row count as missing). Runs with neither are left out.
 */
export class DriftCollector {
  private readonly tally = new DriftTally();
  private readonly sources: DriftSource[] = [];
  /** Where the current run's probes are read: its records, an analysis study's probes by conversation, or nowhere. */
  private current: { readonly from: 'run' } | { readonly from: 'analysis'; readonly scores: ReadonlyMap<string, AgreementScore | null> } | undefined;

  constructor(private readonly store: DriftStore) {}

  /**
   * Before a run's records: a run started with --probe-drift (its design says so) has its probes in
   * its records; any other run, in its latest analysis study with drift probes, read now (one entry
   * per probe: memory grows with the study, never with records held back).
   */
  startRun(run: StudyRun): void {
    this.current = undefined;
    if (probedByDesign(run)) {
      this.current = { from: 'run' };
      this.sources.push({ run: run.name, source: 'run', study: null });
      return;
    }
    const study = this.latestStudyWithProbes(run);
    if (!study) return;
    const scores = new Map<string, AgreementScore | null>();
    for (const probe of this.store.analysis.probes(study.id)) scores.set(probe.conversationId, probe.score);
    this.current = { from: 'analysis', scores };
    this.sources.push({ run: run.name, source: 'analysis', study: study.name });
  }

  /** A record of the current run: a completed conversation counts, with its probe or as missing one. */
  add(record: DriftRecord): void {
    const current = this.current;
    if (current === undefined || record.status !== 'completed') return;
    if (current.from === 'run') this.tally.add(driftObservationOf(record));
    else this.tally.add(driftObservationOf(record, { probe: current.scores.get(record.conversationId) }));
  }

  private latestStudyWithProbes(run: StudyRun): StudyRun | undefined {
    const studies = chooseStudy(this.store, { kind: 'analysis', runs: [run], every: true });
    for (const { study } of studies.reverse()) {
      // Leaving the loop closes the store's statement.
      for (const _probe of this.store.analysis.probes(study.id)) return study;
    }
    return undefined;
  }

  /** The report's `drift`, or undefined when no run had probes. */
  result(intervals: IntervalOptions): DriftReport | undefined {
    if (this.sources.length === 0) return undefined;
    const kinds = new Set(this.sources.map((entry) => entry.source));
    return {
      source: kinds.size === 1 ? [...kinds][0]! : 'mixed',
      sources: [...this.sources],
      intervals: { method: intervals.method, confidence: intervals.confidence, unit: 'claim' },
      ...this.tally.finish(intervals),
    };
  }
}
