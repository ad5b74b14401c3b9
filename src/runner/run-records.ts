import type { BatchLedger } from '../models/batch/batch-ledger.js';
import type { CallCache } from '../models/call-cache.js';
import type { LeaseHolder, StoredRunStatus } from './run-lease.js';

/**
 * A run's status as stored: running, then completed (every item done), failed (the plan ran to
 * its end but some items failed: --retry-failed) or interrupted (a signal, the budget, too many
 * failures, refused credentials: resumable). A "running" run whose lease is dead was killed;
 * `runState` in run-lease.ts says so.
 */
export type RunStatus = StoredRunStatus;

/** What made a run: a tournament (`pmiyc run`, `pmiyc demo`) or one of the validation studies. */
export type RunKind = 'tournament' | 'consistency' | 'judge' | 'judge-synthesize';

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

/** Recorded with every run: the pmiyc version, the git revision and the config file it was started with. */
export interface RunAbout {
  readonly packageVersion: string;
  readonly gitRevision?: string;
  readonly configPath?: string;
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

/** What a run's call cache may reuse: `--no-cache` is `{ reuseEarlierRuns: false }` (only the run's own calls). */
export interface CallCacheScope {
  readonly reuseEarlierRuns: boolean;
}

/**
 * The runs of a store, their calls and their leases: the port the run session works through. The
 * SQLite store implements it (src/store); nothing above it knows how runs are kept.
 */
export interface RunRecords {
  /** Where the runs are kept, for messages (the store's path). */
  readonly location: string;
  createRun(run: NewRun): RunInfo;
  /** The named run, or the latest (of a kind); an InputError naming what there is otherwise. */
  findRun(name?: string, kind?: RunKind): RunInfo;
  hasRun(name: string): boolean;
  /** The latest run of a kind, if any. */
  latestRunOf(kind: RunKind): RunInfo | undefined;
  /** The first free name `prefix-1`, `prefix-2`, ... */
  nextRunName(prefix: string): string;
  listRuns(): RunSummary[];
  setRunStatus(runId: number, status: RunStatus, stopReason?: string): void;
  /**
   * Sets one field of a run's stored config: `servedBy` (what served each model: its call
   * identity), `settings` (how it is run, given anew on a resume) or `imports` (the files each
   * `pmiyc import official` into the run read).
   */
  recordRunConfig(runId: number, field: 'servedBy' | 'settings' | 'imports', value: unknown): void;
  /** Takes a run's lease; `mayTake` throws to refuse a live holder. Returns the holder it replaced. */
  takeLease(runId: number, holder: LeaseHolder, mayTake: (current: LeaseHolder) => void): LeaseHolder | undefined;
  /** Renews a heartbeat; false when another process has taken the run over. */
  renewLease(runId: number, holder: LeaseHolder, at: string): boolean;
  releaseLease(runId: number, holder: LeaseHolder): void;
  leases(): Map<number, LeaseHolder>;
  /** The call cache of a run: new calls recorded as its own; lookups scoped by `scope`. */
  callCache(runId: number, scope?: CallCacheScope): CallCache;
  /** Where a run's provider batches are recorded (absent: batching is not available with these records). */
  batchLedger?(runId: number, scope?: CallCacheScope): BatchLedger;
  /** What a run spent on calls it made itself (replays cost nothing). */
  spentUsd(runId: number): number;
  callsMadeBy(runId: number): number;
  replaysOf(runId: number): Array<{ run: string; calls: number }>;
  /** A model file's sha256 computed earlier, if the file has the same size and modification time. */
  knownFileSha256(path: string, sizeBytes: number, mtimeMs: number): string | undefined;
  rememberFileSha256(path: string, sizeBytes: number, mtimeMs: number, sha256: string): void;
}
