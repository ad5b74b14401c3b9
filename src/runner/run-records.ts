import type { StoreFullError } from '../domain/errors/store-full-error.js';
import type { BatchLedger } from '../models/batch/batch-ledger.js';
import type { CallCache } from '../models/call-cache.js';
import type { LeaseHolder, StoredRunStatus } from './run-lease.js';

/**
 * A run's status as stored: running, then completed (the plan ran to its end; some items may have
 * failed: exit 1, --retry-failed), failed (stopped on an error or on --max-failures) or interrupted
 * (a signal, the budget, refused credentials, another process took it over: resumable). A
 * "running" run whose lease is dead was killed; `runState` in run-lease.ts says so. Statuses
 * stored by earlier versions are read in these words (store/tables/run-rows.ts).
 */
export type RunStatus = StoredRunStatus;

/**
 * What made a run: a tournament (`pmiyc run`, `pmiyc demo`, `pmiyc import`), a people study
 * (`pmiyc people serve`, whose conversations are a tournament's) or one of the validation studies.
 */
export type RunKind = 'tournament' | 'people serve' | 'consistency' | 'judge' | 'judge-synthesize' | 'analyze' | 'protocol' | 'protocol-analysis';

/** Whether a run of this kind is made of conversations (a tournament's, a people study's), rather than a study's items. */
export function holdsConversations(kind: RunKind): boolean {
  return kind === 'tournament' || kind === 'people serve';
}

/**
 * What the runner reads of a run's stored config, whatever made it: the kind its schema was read by and
 * what served each model. Each study's config is one variant of `RunConfig` (studies/run-config.ts),
 * parsed once where the store reads the run; the runner cannot name the studies, so its records are
 * generic in the config and the store's are typed by that union.
 */
export interface RunConfigBase {
  /** The variant the stored config was read as (`studies/run-config.ts`). */
  readonly kind: string;
  /** What served each model when the run was made or last resumed: its call identity (absent before pmiyc kept it). */
  readonly servedBy?: Readonly<Record<string, string>> | undefined;
}

export interface RunInfo<Config extends RunConfigBase = RunConfigBase> {
  readonly id: number;
  readonly name: string;
  readonly createdAt: string;
  readonly status: RunStatus;
  /** Why a failed or interrupted run stopped, as stored (error, failures; SIGINT, SIGTERM, SIGHUP, budget, auth). */
  readonly stopReason?: string;
  readonly seed: number;
  readonly packageVersion: string;
  readonly gitRevision?: string;
  /** The items the run plans: a tournament's conversations, a consistency study's answers, a judge run's trials. */
  readonly plannedConversations?: number;
  readonly claimsChecksum?: string;
  /** The fully resolved configuration the run was started with (no keys), parsed by its kind's schema. */
  readonly config: Config;
  /** The same, exactly as stored: what a report or the viewer shows and exports. Read `config`. */
  readonly storedConfig: unknown;
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

/**
 * A run's totals over all its sessions, as `pmiyc runs`, the viewer and the closing lines of a
 * session show them.
 */
export interface RunSummary<Config extends RunConfigBase = RunConfigBase> extends RunInfo<Config> {
  readonly kind: RunKind;
  /** Consistency samples or judge trials stored for a study. */
  readonly studyItems: number;
  /** Conversations finished and stored as completed, and as failed (a tournament's). */
  readonly completed: number;
  readonly failed: number;
  /** Calls this run made itself, paid for and stored, whether or not their conversation finished (not replayed). */
  readonly callsMade: number;
  /** What the calls made cost (the models with prices). */
  readonly costUsd: number;
  /** Input tokens of the calls made, and of those the ones a provider's prompt cache served (0 where none said so). */
  readonly inputTokens: number;
  readonly cachedInputTokens: number;
  /** Earlier runs whose calls this run replayed, with counts, most first. */
  readonly replayed: ReadonlyArray<{ readonly run: string; readonly calls: number }>;
}

/**
 * Failed items of a run: a tournament's or a people study's failed conversations (stored, with their reasons); for a
 * study whose run went through its plan, the planned items it could not store (a resume asks them again).
 */
export function failedItemsOf(run: Pick<RunSummary, 'kind' | 'status' | 'failed' | 'studyItems' | 'plannedConversations'>): number {
  if (holdsConversations(run.kind)) return run.failed;
  if (run.status !== 'completed' || run.plannedConversations === undefined) return 0;
  return Math.max(0, run.plannedConversations - run.studyItems);
}

/** Calls, tokens and cost of calls a run made (its own stored calls; replays cost nothing and are not counted). */
export interface CallTotal {
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Of the input tokens, those read from a provider's prompt cache (0 where none said so). */
  readonly cachedInputTokens: number;
  /** Of the input tokens, those written to a prompt cache (Anthropic). */
  readonly cacheWriteTokens: number;
  /** Calls whose provider reported no token counts: the token totals leave them out. */
  readonly callsWithoutUsage: number;
  /** Over the calls with a known cost. */
  readonly costUsd: number;
  /** Calls with no known cost (no price set for the model, or no usage reported). */
  readonly callsWithoutCost: number;
}

/** A run's calls made, in all its sessions and in the session that began at a mark (see `RunRecords.callsMark`). */
export interface RunCallTotals {
  readonly inAll: CallTotal;
  readonly thisSession: CallTotal;
  /** Per model identity (what served the model: models/model-identity.ts), most calls first. */
  readonly byModel: ReadonlyArray<{ readonly identity: string; readonly inAll: CallTotal; readonly thisSession: CallTotal }>;
}

/** What a run's call cache may reuse: `--no-cache` is `{ reuseEarlierRuns: false }` (only the run's own calls). */
export interface CallCacheScope {
  readonly reuseEarlierRuns: boolean;
}

/**
 * How many paid replies may wait for a commit at most: a store that commits in batches commits at
 * once when this many wait. The run's concurrency, so a kill -9 repeats at most twice that many
 * calls (docs/design/run-ownership.md).
 */
export interface CallCommitLimit {
  readonly maxWaitingReplies: number;
}

/**
 * The runs of a store, their calls and their leases: the port the run session works through. The
 * SQLite store implements it (src/store); nothing above it knows how runs are kept.
 */
export interface RunRecords<Config extends RunConfigBase = RunConfigBase> {
  /** Where the runs are kept, for messages (the store's path). */
  readonly location: string;
  createRun(run: NewRun): RunInfo<Config>;
  /** The named run, or the latest (of a kind); an InputError naming what there is otherwise. */
  findRun(name?: string, kind?: RunKind): RunInfo<Config>;
  hasRun(name: string): boolean;
  /** The latest run of a kind, if any. */
  latestRunOf(kind: RunKind): RunInfo<Config> | undefined;
  /** The first free name `prefix-1`, `prefix-2`, ... */
  nextRunName(prefix: string): string;
  listRuns(): RunSummary<Config>[];
  setRunStatus(runId: number, status: RunStatus, stopReason?: string): void;
  /**
   * Sets one field of a run's stored config: `servedBy` (what served each model: its call
   * identity), `settings` (how it is run, given anew on a resume), `imports` (the files each
   * `pmiyc import official` into the run read) or `design` (a protocol run's design, which each
   * import into it extends with the files it read: `pmiyc import persusafety`).
   */
  recordRunConfig(runId: number, field: 'servedBy' | 'settings' | 'imports' | 'design', value: unknown): void;
  /** Takes a run's lease; `mayTake` throws to refuse a live holder. Returns the holder it replaced. */
  takeLease(runId: number, holder: LeaseHolder, mayTake: (current: LeaseHolder) => void): LeaseHolder | undefined;
  /** Renews a heartbeat; false when another process has taken the run over. */
  renewLease(runId: number, holder: LeaseHolder, at: string): boolean;
  releaseLease(runId: number, holder: LeaseHolder): void;
  leases(): Map<number, LeaseHolder>;
  /** The call cache of a run: new calls recorded as its own; lookups scoped by `scope`; commits held by `limit`. */
  callCache(runId: number, scope?: CallCacheScope, limit?: CallCommitLimit): CallCache;
  /** Where a run's provider batches are recorded (absent: batching is not available with these records). */
  batchLedger?(runId: number, scope?: CallCacheScope): BatchLedger;
  /** What a run spent on calls it made itself (replays cost nothing). */
  spentUsd(runId: number): number;
  callsMadeBy(runId: number): number;
  /** A mark in the call store: the calls stored after it are those of the session that took it as it started. */
  callsMark(): number;
  /** The calls a run made, in all and since a mark, per model identity. */
  callTotals(runId: number, sinceMark: number): RunCallTotals;
  /**
   * Removes a run that holds nothing (no call made or failed, no replay, no item, no batch), with its
   * lease and claims: a start refused before any work leaves no run. True when it was removed.
   */
  discardRunIfEmpty(runId: number): boolean;
  /**
   * The error to show when `error` is a write these records' disk refused (full, or a size limit reached;
   * its message says to free space, then --resume), else undefined. Absent: no such error is known.
   */
  diskFullError?(error: unknown): StoreFullError | undefined;
  replaysOf(runId: number): Array<{ run: string; calls: number }>;
  /** A model file's sha256 computed earlier, if the file has the same size and modification time. */
  knownFileSha256(path: string, sizeBytes: number, mtimeMs: number): string | undefined;
  rememberFileSha256(path: string, sizeBytes: number, mtimeMs: number, sha256: string): void;
}
