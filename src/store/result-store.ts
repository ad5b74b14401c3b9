import type Database from 'better-sqlite3';
import type { Claim } from '../domain/claim.js';
import type { ConversationRecord, ConversationScore } from '../domain/conversation-record.js';
import { StoreFullError } from '../domain/errors/store-full-error.js';
import type { LeaseHolder } from '../runner/run-lease.js';
import type { CallCacheScope, CallCommitLimit, NewRun, RunCallTotals, RunKind, RunStatus } from '../runner/run-records.js';
import type { AnalysisResults } from '../studies/analysis/analysis-results.js';
import type { AnnotationResults } from '../studies/annotation/annotation-results.js';
import type { ConsistencyResults } from '../studies/consistency/consistency-results.js';
import type { JudgeResults } from '../studies/judge/judge-results.js';
import type { ResearchNotes } from '../studies/notes/research-notes.js';
import type { PeopleRecords } from '../studies/people/people-results.js';
import type { ProtocolRecords } from '../studies/protocol-records.js';
import type { StudyRun, StudyRunRecords, StudyRunSummary } from '../studies/run-config.js';
import type { TournamentBrowse } from '../studies/tournament/tournament-browse.js';
import type { StoredConversation, TournamentResults } from '../studies/tournament/tournament-results.js';
import { BrowseQueries } from './browse/browse-queries.js';
import { buildSearchBacklog } from './browse/search-index.js';
import { CommitQueue } from './commit-queue.js';
import { closeStoreDatabase, openStoreDatabase, type StoreAccess } from './open-database.js';
import type { OnDamagedRecord } from './records/stored-record-reader.js';
import { toStoreError } from './store-errors.js';
import { AnalysisTable } from './tables/analysis-table.js';
import { AnnotationTable } from './tables/annotation-table.js';
import { SqliteBatchLedger } from './tables/batch-table.js';
import { SqliteCallCache } from './tables/call-table.js';
import { ConsistencyTable } from './tables/consistency-table.js';
import { ConversationTable } from './tables/conversation-table.js';
import { JudgeTable } from './tables/judge-table.js';
import { LeaseTable } from './tables/lease-table.js';
import { NotesTable } from './tables/notes-table.js';
import { PeopleTable } from './tables/people-table.js';
import { ProtocolRecordTable } from './tables/protocol-record-table.js';
import { RunTable } from './tables/run-table.js';
import { callsMark, discardRunIfEmpty, runCallTotals } from './tables/run-totals.js';

export type { CallCacheScope, NewRun, RunInfo, RunKind, RunStatus } from '../runner/run-records.js';

export type { StoreAccess } from './open-database.js';

/**
 * A pmiyc store: the runs with their calls and leases, and each study's results, behind the ports
 * the runner and the studies define. Nothing outside src/store knows it is SQLite.
 */
export interface Store extends StudyRunRecords, TournamentResults {
  readonly path: string;
  readonly consistency: ConsistencyResults;
  readonly judge: JudgeResults;
  readonly annotations: AnnotationResults;
  /** What analysis studies' judges said of each turn, and drift probes (`pmiyc analyze`). */
  readonly analysis: AnalysisResults;
  /** Pages and aggregates of a tournament run, computed by the store (`pmiyc view`). */
  readonly browse: TournamentBrowse;
  /** The participants of people studies (`pmiyc people serve`, issue 31). */
  readonly people: PeopleRecords;
  /** A researcher's notes, tags and grades on runs' conversations and turns (`pmiyc view`, issue 32). */
  readonly notes: ResearchNotes;
  /** The outcome records of the protocols beside PMIYC's (APE, ...), one generic table (docs/design/protocols.md). */
  readonly protocolRecords: ProtocolRecords;
  /** Runs `work` so that everything it stores is kept together or not at all. */
  atomically<T>(work: () => T): T;
  close(): void;
}

export interface StoreOptions {
  /** The clock for timestamps; the CLI passes the real one. */
  readonly now?: () => Date;
}

/**
 * The SQLite store (WAL): runs, conversations with their turns, and every call. The calls that
 * arrive within one turn of the event loop are committed together, each released to its caller only
 * once committed, and each finished conversation is committed at once after them; so an interrupted
 * run keeps everything that was done. In WAL mode with synchronous=NORMAL a kill loses nothing and a
 * power cut at most the last commits, in order (a conversation never outlives its calls). Reads stream.
 * Each table is its own class (runs in run-table.ts, a tournament's conversations in
 * conversation-table.ts, ...); this one shares the connection and the commit queue among them.
 */
export class ResultStore implements Store {
  private readonly now: () => Date;
  private readonly runs: RunTable;
  private readonly leaseTable: LeaseTable;
  private readonly tournament: ConversationTable;
  readonly consistency: ConsistencyTable;
  readonly judge: JudgeTable;
  readonly annotations: AnnotationTable;
  readonly analysis: AnalysisTable;
  readonly browse: BrowseQueries;
  readonly people: PeopleTable;
  readonly notes: NotesTable;
  readonly protocolRecords: ProtocolRecordTable;
  private readonly commits: CommitQueue;

  private constructor(
    private readonly database: Database.Database,
    readonly path: string,
    readonly access: StoreAccess,
    options: StoreOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.leaseTable = new LeaseTable(database);
    this.consistency = new ConsistencyTable(database);
    this.judge = new JudgeTable(database);
    this.annotations = new AnnotationTable(database);
    this.analysis = new AnalysisTable(database);
    this.people = new PeopleTable(database);
    this.notes = new NotesTable(database);
    this.commits = new CommitQueue(database);
    this.browse = new BrowseQueries(database, () => this.commits.flush());
    this.protocolRecords = new ProtocolRecordTable(database, { now: this.now, flushCalls: () => this.commits.flush() });
    this.tournament = new ConversationTable(database, this.commits);
    this.runs = new RunTable(database, {
      path,
      now: this.now,
      commits: this.commits,
      countConversations: (runId) => this.tournament.countConversations(runId),
    });
  }

  get location(): string {
    return this.path;
  }

  atomically<T>(work: () => T): T {
    return this.database.transaction(work)();
  }

  /** Opens a store for writing, creating it when missing (call it once the command's input is known to be valid). */
  static open(path: string, options: StoreOptions = {}): ResultStore {
    return ResultStore.opened(path, 'create', options);
  }

  /** Opens an existing store for writing (upgrading an older schema), or says how to make one. */
  static openExisting(path: string, options: StoreOptions = {}): ResultStore {
    return ResultStore.opened(path, 'write', options);
  }

  /** Opens an existing store read-only: never migrated, never changed, readable in a read-only folder. */
  static openReadOnly(path: string, options: StoreOptions = {}): ResultStore {
    return ResultStore.opened(path, 'read', options);
  }

  /** Damage that the first look at the file did not show surfaces when statements are prepared: one line too. */
  private static opened(path: string, access: StoreAccess, options: StoreOptions): ResultStore {
    const database = openStoreDatabase(path, access);
    try {
      return new ResultStore(database, path, access, options);
    } catch (error) {
      database.close();
      throw toStoreError(path, error) ?? error;
    }
  }

  // The ports' methods (RunRecords, TournamentResults) say what each does; these hand them to the table that holds it.

  // Runs (run-table.ts)

  createRun(run: NewRun): StudyRun {
    return this.runs.create(run);
  }

  /**
   * A status that meets a full disk (or a size limit) is tried once more after a checkpoint that empties the
   * WAL: it holds copies of pages the database file mostly has room for already, and emptied it leaves room
   * for this one row, so that a run stopped by a full disk can still say so (`interrupted (disk full)`).
   */
  setRunStatus(runId: number, status: RunStatus, stopReason?: string): void {
    try {
      this.runs.setStatus(runId, status, stopReason);
    } catch (error) {
      if (this.diskFullError(error) === undefined) throw error;
      this.database.pragma('wal_checkpoint(TRUNCATE)');
      this.runs.setStatus(runId, status, stopReason);
    }
  }

  recordRunConfig(runId: number, field: 'servedBy' | 'settings' | 'imports' | 'design', value: unknown): void {
    this.runs.recordConfig(runId, field, value);
  }

  nextRunName(prefix: string): string {
    return this.runs.nextName(prefix);
  }

  findRun(name?: string, kind?: RunKind): StudyRun {
    return this.runs.find(name, kind);
  }

  latestRunOf(kind: RunKind): StudyRun | undefined {
    return this.runs.latestOf(kind);
  }

  hasRun(name: string): boolean {
    return this.runs.has(name);
  }

  listRuns(): StudyRunSummary[] {
    return this.runs.list();
  }

  replaysOf(runId: number): Array<{ run: string; calls: number }> {
    return this.runs.replaysOf(runId);
  }

  // Leases (lease-table.ts)

  takeLease(runId: number, holder: LeaseHolder, mayTake: (current: LeaseHolder) => void): LeaseHolder | undefined {
    return this.leaseTable.take(runId, holder, mayTake);
  }

  renewLease(runId: number, holder: LeaseHolder, at: string): boolean {
    return this.leaseTable.heartbeat(runId, holder, at);
  }

  releaseLease(runId: number, holder: LeaseHolder): void {
    this.leaseTable.release(runId, holder);
  }

  leases(): Map<number, LeaseHolder> {
    return this.leaseTable.all();
  }

  // Calls (call-table.ts, batch-table.ts, run-totals.ts)

  /** The call cache of a run: new calls recorded as this run's; lookups in this run, and in earlier runs unless `--no-cache`. */
  callCache(runId: number, scope?: CallCacheScope, limit?: CallCommitLimit): SqliteCallCache {
    if (limit) this.commits.limitWaitingReplies(limit.maxWaitingReplies);
    return new SqliteCallCache(this.database, runId, this.now, scope, this.commits);
  }

  /** The ledger of a run's provider batches (docs/design/batches.md). */
  batchLedger(runId: number, scope?: CallCacheScope): SqliteBatchLedger {
    return new SqliteBatchLedger(this.database, runId, this.now, () => this.commits.flush(), scope);
  }

  /** How many calls a run made itself (its own rows; replays are not counted). */
  callsMadeBy(runId: number): number {
    return this.database.prepare('SELECT count(*) FROM calls WHERE run_id = ?').pluck().get(runId) as number;
  }

  /** What a run spent on calls it made itself (replays cost nothing). */
  spentUsd(runId: number): number {
    return (this.database.prepare('SELECT coalesce(sum(cost_usd), 0) FROM calls WHERE run_id = ?').pluck().get(runId) as number) ?? 0;
  }

  callsMark(): number {
    this.commits.flush();
    return callsMark(this.database);
  }

  callTotals(runId: number, sinceMark: number): RunCallTotals {
    this.commits.flush();
    return runCallTotals(this.database, runId, sinceMark);
  }

  discardRunIfEmpty(runId: number): boolean {
    this.commits.flush();
    return discardRunIfEmpty(this.database, runId);
  }

  diskFullError(error: unknown): StoreFullError | undefined {
    const mapped = toStoreError(this.path, error);
    return mapped instanceof StoreFullError ? mapped : undefined;
  }

  /** A model file's sha256 computed earlier, if the file has the same size and modification time. */
  knownFileSha256(path: string, sizeBytes: number, mtimeMs: number): string | undefined {
    return this.database.prepare('SELECT sha256 FROM gguf_hashes WHERE path = ? AND size = ? AND mtime_ms = ?').pluck().get(path, sizeBytes, mtimeMs) as
      | string
      | undefined;
  }

  rememberFileSha256(path: string, sizeBytes: number, mtimeMs: number, sha256: string): void {
    this.database.prepare('INSERT OR REPLACE INTO gguf_hashes (path, size, mtime_ms, sha256) VALUES (?, ?, ?, ?)').run(path, sizeBytes, mtimeMs, sha256);
  }

  // A tournament's conversations (conversation-table.ts)

  saveConversation(runId: number, record: ConversationRecord): Promise<void> {
    return this.tournament.saveConversation(runId, record);
  }

  conversationStatus(runId: number, conversationId: string): 'completed' | 'failed' | undefined {
    return this.tournament.conversationStatus(runId, conversationId);
  }

  countConversations(runId: number, status?: 'completed' | 'failed'): number {
    return this.tournament.countConversations(runId, status);
  }

  conversations(runId: number, status?: 'completed' | 'failed', onDamaged?: OnDamagedRecord): Generator<ConversationRecord> {
    return this.tournament.conversations(runId, status, onDamaged);
  }

  conversationScores(runId: number): Generator<ConversationScore> {
    return this.tournament.conversationScores(runId);
  }

  claimScores(runId: number, claims: readonly Pick<Claim, 'index' | 'domain' | 'claim' | 'question'>[]): Generator<ConversationScore> {
    return this.tournament.claimScores(runId, claims);
  }

  conversationsWithId(conversationId: string): StoredConversation[] {
    return this.tournament.conversationsWithId(conversationId);
  }

  earlyStopCounts(): Map<string, { replies: number; stops: number }> {
    return this.tournament.earlyStopCounts();
  }

  /**
   * Indexes the messages of conversations stored before the store had its search index (`pmiyc
   * upgrade`), a chunk per transaction, reporting progress; returns how many it indexed (0 when none waited).
   */
  buildSearchIndex(onProgress?: (done: number, total: number) => void): number {
    this.commits.flush();
    return buildSearchBacklog(this.database, onProgress);
  }

  close(): void {
    this.commits.flush();
    closeStoreDatabase(this.database, this.access !== 'read');
  }
}

/**
 * Opens a store: `create` (the default) makes the file when it is missing, `write` needs it to
 * exist (and upgrades an older schema), `read` never changes it. Anything that is not a usable
 * pmiyc store is an InputError with one line. The first call loads the SQLite driver
 * (open-database.ts): importing pmiyc does not.
 */
export function openStore(path: string, options: StoreOptions & { readonly access?: StoreAccess } = {}): Store {
  const access = options.access ?? 'create';
  return access === 'read'
    ? ResultStore.openReadOnly(path, options)
    : access === 'write'
      ? ResultStore.openExisting(path, options)
      : ResultStore.open(path, options);
}
