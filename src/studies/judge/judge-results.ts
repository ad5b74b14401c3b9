import type { JudgeTrialRecord } from './judge-trial.js';

/** Where a judge study's trials are kept (the SQLite store implements it). */
export interface JudgeResults {
  /** Stores one trial, committed at once. */
  save(runId: number, record: JudgeTrialRecord): void;
  has(runId: number, model: string, pairId: string): boolean;
  count(runId: number): number;
  /** A run's trials, streamed. */
  trials(runId: number): Iterable<JudgeTrialRecord>;
  /** The name of the latest run made by `command` ('judge'), if any. */
  latestRunOf(command: string): string | undefined;
}
