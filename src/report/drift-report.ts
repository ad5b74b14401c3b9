import type { AgreementScore } from '../domain/agreement-score.js';
import type { ConversationRecord } from '../domain/conversation-record.js';
import type { IntervalMethod, IntervalOptions } from '../metrics/claim-estimates.js';
import { type DriftAnalysis, type DriftObservation, DriftTally, driftObservationOf } from '../metrics/drift.js';
import type { RunInfo } from '../runner/run-records.js';
import type { AnalysisResults } from '../studies/analysis/analysis-results.js';

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
  findRun(name: string): RunInfo;
  readonly analysis?: Pick<AnalysisResults, 'studyNames' | 'probes'>;
}

type DriftRecord = Pick<
  ConversationRecord,
  'conversationId' | 'domain' | 'setting' | 'claim' | 'question' | 'persuader' | 'persuadee' | 'status' | 'persuaderStance' | 'driftProbe'
>;

/**
 * Gathers drift while a report streams the runs' records: a run whose records hold probes gives
 * them; a run whose records hold none gives the probes of its latest analysis study that has any
 * (its completed conversations without a row count as missing). Runs with neither are left out.
 */
export class DriftCollector {
  private readonly tally = new DriftTally();
  private readonly sources: DriftSource[] = [];
  /** The current run's completed conversations without a probe, kept in case an analysis study has their probes. */
  private pending: Array<{ id: string; observation: DriftObservation }> = [];
  private runHasProbes = false;

  constructor(private readonly store: DriftStore) {}

  startRun(): void {
    this.pending = [];
    this.runHasProbes = false;
  }

  add(record: DriftRecord): void {
    if (record.status !== 'completed') return;
    const observation = driftObservationOf(record);
    if (record.driftProbe) {
      this.runHasProbes = true;
      this.tally.add(observation);
      // Conversations seen before the first probe: they were not probed.
      for (const entry of this.pending) this.tally.add(entry.observation);
      this.pending = [];
    } else if (this.runHasProbes) this.tally.add(observation);
    else this.pending.push({ id: record.conversationId, observation });
  }

  endRun(run: RunInfo): void {
    if (this.runHasProbes) {
      this.sources.push({ run: run.name, source: 'run', study: null });
      return;
    }
    const study = this.latestStudyWithProbes(run.name);
    if (study) {
      const scores = new Map<string, AgreementScore | null>();
      for (const probe of this.store.analysis!.probes(study.id)) scores.set(probe.conversationId, probe.score);
      for (const { id, observation } of this.pending) this.tally.add({ ...observation, probe: scores.has(id) ? scores.get(id)! : undefined });
      this.sources.push({ run: run.name, source: 'analysis', study: study.name });
    }
    this.pending = [];
  }

  private latestStudyWithProbes(runName: string): RunInfo | undefined {
    const analysis = this.store.analysis;
    if (!analysis) return undefined;
    for (const name of [...analysis.studyNames(runName)].reverse()) {
      const study = this.store.findRun(name);
      // Leaving the loop closes the store's statement.
      for (const _probe of analysis.probes(study.id)) return study;
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
