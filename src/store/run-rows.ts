import type { StoredRunStatus } from '../runner/run-lease.js';

/**
 * A run's status as stored: running, then completed (every item done), failed (the plan ran to
 * its end but some items failed: --retry-failed) or interrupted (a signal, the budget, too many
 * failures, refused credentials: resumable). A "running" run whose lease is dead was killed;
 * `runState` in runner/run-lease.ts says so.
 */
export type RunStatus = StoredRunStatus;

export interface RunInfo {
  readonly id: number;
  readonly name: string;
  readonly createdAt: string;
  readonly status: RunStatus;
  /** Why an interrupted run stopped, as stored (SIGINT, SIGTERM, SIGHUP, budget, failures, auth). */
  readonly stopReason?: string;
  readonly seed: number;
  readonly packageVersion: string;
  readonly gitRevision?: string;
  readonly plannedConversations?: number;
  readonly claimsChecksum?: string;
  /** The fully resolved configuration the run was started with (no keys). */
  readonly config: unknown;
}

export interface NewRun {
  readonly name: string;
  /** When the run started; the store's clock unless given. */
  readonly createdAt?: string;
  readonly seed: number;
  readonly packageVersion: string;
  readonly config: unknown;
  readonly gitRevision?: string;
  readonly plannedConversations?: number;
  readonly claimsChecksum?: string;
}

/** What made a run: a tournament (`pmiyc run`, `pmiyc demo`) or one of the validation studies. */
export type RunKind = 'tournament' | 'consistency' | 'judge' | 'judge-synthesize';

/** The kind of a run, from the command stored in its config (older demo runs say 'demo'). */
export const RUN_KIND_SQL = `CASE coalesce(json_extract(config, '$.command'), 'run') WHEN 'run' THEN 'tournament' WHEN 'demo' THEN 'tournament' ELSE json_extract(config, '$.command') END`;

export interface RunSummary extends RunInfo {
  readonly kind: RunKind;
  /** Consistency samples or judge trials stored for a study. */
  readonly studyItems: number;
  readonly completed: number;
  readonly failed: number;
  /** Calls this run made itself (not replayed). */
  readonly callsMade: number;
  readonly costUsd: number;
  /** Earlier runs whose calls this run replayed, with counts, most first. */
  readonly replayed: ReadonlyArray<{ readonly run: string; readonly calls: number }>;
}

export const RUN_COLUMNS = 'id, name, created_at, status, stop_reason, seed, package_version, git_revision, planned_conversations, claims_checksum, config';

export interface RunRow {
  id: number;
  name: string;
  created_at: string;
  status: RunStatus;
  stop_reason: string | null;
  seed: number;
  package_version: string;
  git_revision: string | null;
  planned_conversations: number | null;
  claims_checksum: string | null;
  config: string;
}

export function toRunInfo(row: RunRow): RunInfo {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    status: row.status,
    ...(row.stop_reason === null ? {} : { stopReason: row.stop_reason }),
    seed: row.seed,
    packageVersion: row.package_version,
    ...(row.git_revision === null ? {} : { gitRevision: row.git_revision }),
    ...(row.planned_conversations === null ? {} : { plannedConversations: row.planned_conversations }),
    ...(row.claims_checksum === null ? {} : { claimsChecksum: row.claims_checksum }),
    config: JSON.parse(row.config) as unknown,
  };
}
