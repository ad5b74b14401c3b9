import type Database from 'better-sqlite3';
import type { ConversationRecord, ConversationScore } from '../domain/conversation-record.js';
import { InputError } from '../domain/errors/input-error.js';
import { StoreError } from '../domain/errors/store-error.js';
import type { LeaseHolder } from '../runner/run-lease.js';
import type { CallCacheScope, NewRun, RunCallTotals, RunInfo, RunKind, RunRecords, RunStatus, RunSummary } from '../runner/run-records.js';
import type { AnnotationResults } from '../studies/annotation/annotation-results.js';
import type { ConsistencyResults } from '../studies/consistency/consistency-results.js';
import type { JudgeResults } from '../studies/judge/judge-results.js';
import type { TournamentBrowse } from '../studies/tournament/tournament-browse.js';
import type { StoredConversation, TournamentResults } from '../studies/tournament/tournament-results.js';
import { AnnotationTable } from './annotation-table.js';
import { SqliteBatchLedger } from './batch-table.js';
import { BrowseQueries } from './browse-queries.js';
import { SqliteCallCache } from './call-table.js';
import { CommitQueue } from './commit-queue.js';
import { ConsistencyTable } from './consistency-table.js';
import { hashKey } from './hash-key.js';
import { JudgeTable } from './judge-table.js';
import { LeaseTable } from './lease-table.js';
import { closeStoreDatabase, openStoreDatabase, type StoreAccess } from './open-database.js';
import { decodeRecord, encodeRecord } from './record-codec.js';
import { RUN_COLUMNS, RUN_KIND_SQL, type RunRow, toRunInfo } from './run-rows.js';
import { callsMark, discardRunIfEmpty, runCallTotals } from './run-totals.js';
import { toStoreError } from './store-errors.js';

export type { CallCacheScope, NewRun, RunInfo, RunKind, RunStatus, RunSummary } from '../runner/run-records.js';

/** The order a run's conversations are read in: a report, an export and the closing table agree on it. */
const CONVERSATION_ORDER = 'ORDER BY domain DESC, setting DESC, claim_index, persuader, persuadee, id';

export type { StoreAccess } from './open-database.js';

/**
 * A pmiyc store: the runs with their calls and leases, and each study's results, behind the ports
 * the runner and the studies define. Nothing outside src/store knows it is SQLite.
 */
export interface Store extends RunRecords, TournamentResults {
  readonly path: string;
  readonly consistency: ConsistencyResults;
  readonly judge: JudgeResults;
  readonly annotations: AnnotationResults;
  /** Pages and aggregates of a tournament run, computed by the store (`pmiyc view`). */
  readonly browse: TournamentBrowse;
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
 */
export class ResultStore implements Store {
  private readonly insertClaim: Database.Statement;
  private readonly deleteConversation: Database.Statement;
  private readonly insertConversation: Database.Statement;
  private readonly insertTurn: Database.Statement;
  private readonly deleteTurns: Database.Statement;
  private readonly selectStatus: Database.Statement<[number, string], string>;
  private readonly now: () => Date;
  private readonly leaseTable: LeaseTable;
  readonly consistency: ConsistencyTable;
  readonly judge: JudgeTable;
  readonly annotations: AnnotationTable;
  readonly browse: BrowseQueries;
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
    this.commits = new CommitQueue(database);
    this.browse = new BrowseQueries(database, () => this.commits.flush());
    // Delete, then insert, as for calls (call-table.ts): no statement journal in a batch's transaction.
    this.deleteConversation = database.prepare('DELETE FROM conversations WHERE run_id = ? AND id = ?');
    this.insertConversation = database.prepare(
      `INSERT INTO conversations (run_id, id, domain, setting, persuader, persuadee, claim_index, status, nc, early_stopped, failure_reason, record)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertClaim = database.prepare('INSERT OR IGNORE INTO run_claims (run_id, domain, claim_index, claim, question) VALUES (?, ?, ?, ?, ?)');
    this.insertTurn = database.prepare(
      'INSERT INTO turns (run_id, conversation_id, turn_index, role, kind, score, attempts, call_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.deleteTurns = database.prepare('DELETE FROM turns WHERE run_id = ? AND conversation_id = ?');
    this.selectStatus = database.prepare<[number, string], string>('SELECT status FROM conversations WHERE run_id = ? AND id = ?').pluck();
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

  createRun(run: NewRun): RunInfo {
    const createdAt = run.createdAt ?? this.now().toISOString();
    this.database
      .prepare(
        `INSERT INTO runs (name, created_at, updated_at, seed, package_version, config, status, git_revision, planned_conversations, claims_checksum)
         VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?)`,
      )
      .run(
        run.name,
        createdAt,
        createdAt,
        run.seed,
        run.packageVersion,
        JSON.stringify(run.config),
        run.gitRevision ?? null,
        run.plannedConversations ?? null,
        run.claimsChecksum ?? null,
      );
    return this.findRun(run.name);
  }

  /** Records how a run ended (or that it runs again), with why it stopped when it was interrupted. */
  setRunStatus(runId: number, status: RunStatus, stopReason?: string): void {
    this.database
      .prepare('UPDATE runs SET status = ?, stop_reason = ?, updated_at = ? WHERE id = ?')
      .run(status, stopReason ?? null, this.now().toISOString(), runId);
  }

  /** Takes a run's lease (see runner/run-lease.ts); `mayTake` throws to refuse a live holder. Returns the holder it replaced. */
  takeLease(runId: number, holder: LeaseHolder, mayTake: (current: LeaseHolder) => void): LeaseHolder | undefined {
    return this.leaseTable.take(runId, holder, mayTake);
  }

  /** Renews a lease's heartbeat; false when another process has taken the run over. */
  renewLease(runId: number, holder: LeaseHolder, at: string): boolean {
    return this.leaseTable.heartbeat(runId, holder, at);
  }

  releaseLease(runId: number, holder: LeaseHolder): void {
    this.leaseTable.release(runId, holder);
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

  recordRunConfig(runId: number, field: 'servedBy' | 'settings' | 'imports', value: unknown): void {
    this.database.prepare(`UPDATE runs SET config = json_set(config, '$.${field}', json(?)) WHERE id = ?`).run(JSON.stringify(value), runId);
  }

  /** The lease of every run that has one, by run id. */
  leases(): Map<number, LeaseHolder> {
    return this.leaseTable.all();
  }

  /** The first free name `prefix-1`, `prefix-2`, ... */
  nextRunName(prefix: string): string {
    const taken = new Set(this.database.prepare('SELECT name FROM runs WHERE name LIKE ?').pluck().all(`${prefix}-%`) as string[]);
    let number = 1;
    while (taken.has(`${prefix}-${number}`)) number += 1;
    return `${prefix}-${number}`;
  }

  /**
   * The named run, or when no name is given the latest one (of the given kind: a command that
   * works on tournaments must not pick up a consistency or judge study made after it).
   */
  findRun(name?: string, kind?: RunKind): RunInfo {
    const kindFilter = kind === undefined ? '' : `WHERE ${RUN_KIND_SQL} = '${kind}'`;
    const row = (
      name === undefined
        ? this.database.prepare(`SELECT ${RUN_COLUMNS} FROM runs ${kindFilter} ORDER BY id DESC LIMIT 1`).get()
        : this.database.prepare(`SELECT ${RUN_COLUMNS} FROM runs WHERE name = ?`).get(name)
    ) as RunRow | undefined;
    if (row) return this.runInfo(row);
    const names = this.database.prepare('SELECT name FROM runs ORDER BY id').pluck().all() as string[];
    if (name === undefined && kind !== undefined && names.length > 0) {
      throw new InputError(`${this.path} has no ${kind} run (it has ${names.join(', ')}): run \`pmiyc run\` first, or name a run with --run`);
    }
    if (names.length === 0)
      throw new StoreError({ path: this.path, problem: 'empty' }, `${this.path} has no runs yet: run \`pmiyc demo\` or \`pmiyc run\` first`);
    throw new InputError(`${this.path} has no run named "${name}": it has ${names.join(', ')}`);
  }

  latestRunOf(kind: RunKind): RunInfo | undefined {
    const row = this.database.prepare(`SELECT ${RUN_COLUMNS} FROM runs WHERE ${RUN_KIND_SQL} = ? ORDER BY id DESC LIMIT 1`).get(kind) as RunRow | undefined;
    return row ? this.runInfo(row) : undefined;
  }

  private runInfo(row: RunRow): RunInfo {
    return toRunInfo(row, () => this.countConversations(row.id));
  }

  hasRun(name: string): boolean {
    return this.database.prepare('SELECT 1 FROM runs WHERE name = ?').get(name) !== undefined;
  }

  /** Every run with its counts, oldest first. */
  listRuns(): RunSummary[] {
    this.commits.flush();
    const replays = this.replaySources();
    const rows = this.database
      .prepare(
        `SELECT ${RUN_COLUMNS}, ${RUN_KIND_SQL} AS kind,
           (SELECT count(*) FROM consistency_samples s WHERE s.run_id = runs.id)
             + (SELECT count(*) FROM judge_trials j WHERE j.run_id = runs.id) AS study_items,
           (SELECT count(*) FROM conversations c WHERE c.run_id = runs.id AND c.status = 'completed') AS completed,
           (SELECT count(*) FROM conversations c WHERE c.run_id = runs.id AND c.status = 'failed') AS failed,
           (SELECT count(*) FROM calls k WHERE k.run_id = runs.id) AS calls_made,
           (SELECT sum(cost_usd) FROM calls k INDEXED BY calls_cost_by_run WHERE k.run_id = runs.id) AS cost_usd
         FROM runs ORDER BY id`,
      )
      .all() as Array<RunRow & { kind: RunKind; study_items: number; completed: number; failed: number; calls_made: number; cost_usd: number | null }>;
    return rows.map((row) => ({
      ...toRunInfo(row, () => row.completed + row.failed),
      kind: row.kind,
      studyItems: row.study_items,
      completed: row.completed,
      failed: row.failed,
      callsMade: row.calls_made,
      costUsd: row.cost_usd ?? 0,
      replayed: replays.get(row.id) ?? [],
    }));
  }

  /** Per run, the earlier runs it replayed calls from and how many, most first. */
  private replaySources(): Map<number, Array<{ run: string; calls: number }>> {
    const rows = this.database
      .prepare(
        `SELECT p.run_id, r.name AS source, count(*) AS calls FROM call_replays p JOIN runs r ON r.id = p.source_run_id
         GROUP BY p.run_id, p.source_run_id ORDER BY p.run_id, calls DESC, r.id`,
      )
      .all() as Array<{ run_id: number; source: string; calls: number }>;
    const byRun = new Map<number, Array<{ run: string; calls: number }>>();
    for (const row of rows) byRun.set(row.run_id, [...(byRun.get(row.run_id) ?? []), { run: row.source, calls: row.calls }]);
    return byRun;
  }

  /** The earlier runs a run replayed calls from, with counts. */
  replaysOf(runId: number): Array<{ run: string; calls: number }> {
    return this.replaySources().get(runId) ?? [];
  }

  /** How many calls a run made itself (its own rows; replays are not counted). */
  callsMadeBy(runId: number): number {
    return this.database.prepare('SELECT count(*) FROM calls WHERE run_id = ?').pluck().get(runId) as number;
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

  /** The call cache of a run: new calls recorded as this run's; lookups in this run, and in earlier runs unless `--no-cache`. */
  callCache(runId: number, scope?: CallCacheScope): SqliteCallCache {
    return new SqliteCallCache(this.database, runId, this.now, scope, this.commits);
  }

  /** The ledger of a run's provider batches (docs/design/batches.md). */
  batchLedger(runId: number, scope?: CallCacheScope): SqliteBatchLedger {
    return new SqliteBatchLedger(this.database, runId, this.now, () => this.commits.flush(), scope);
  }

  /** What a run spent on calls it made itself (replays cost nothing). */
  spentUsd(runId: number): number {
    return (this.database.prepare('SELECT coalesce(sum(cost_usd), 0) FROM calls WHERE run_id = ?').pluck().get(runId) as number) ?? 0;
  }

  /**
   * Stores one finished conversation and its turns (replacing an earlier record of the same id) in
   * the next commit, after the calls queued before it; resolves once committed.
   */
  saveConversation(runId: number, record: ConversationRecord): Promise<void> {
    return this.commits.enqueue(() => this.writeConversation(runId, record));
  }

  private writeConversation(runId: number, record: ConversationRecord): void {
    this.deleteConversation.run(runId, record.conversationId);
    this.insertConversation.run(
      runId,
      record.conversationId,
      record.domain,
      record.setting,
      record.persuader,
      record.persuadee,
      record.claimIndex,
      record.status,
      record.normalizedChange,
      record.earlyStopped === null ? null : record.earlyStopped ? 1 : 0,
      record.failureReason,
      encodeRecord(record),
    );
    this.insertClaim.run(runId, record.domain, record.claimIndex, record.claim, record.question);
    this.deleteTurns.run(runId, record.conversationId);
    for (const turn of record.turns) {
      this.insertTurn.run(
        runId,
        record.conversationId,
        turn.index,
        turn.role,
        turn.kind,
        turn.score,
        turn.attempts.length,
        callHashKey(turn.attempts.at(-1)?.callHash),
      );
    }
  }

  /**
   * 'completed', 'failed', or undefined when the conversation is not stored yet. Reads what is
   * committed, without committing the queue first: it is asked before a conversation runs, never
   * after, and forcing a commit at every conversation start would split the queue's batches.
   */
  conversationStatus(runId: number, conversationId: string): 'completed' | 'failed' | undefined {
    return this.selectStatus.get(runId, conversationId) as 'completed' | 'failed' | undefined;
  }

  countConversations(runId: number, status?: 'completed' | 'failed'): number {
    this.commits.flush();
    return (
      status === undefined
        ? this.database.prepare('SELECT count(*) FROM conversations WHERE run_id = ?').pluck().get(runId)
        : this.database.prepare('SELECT count(*) FROM conversations WHERE run_id = ? AND status = ?').pluck().get(runId, status)
    ) as number;
  }

  /** Streams a run's conversations (or only those with a status) in a stable order, each checked against the record schema. */
  *conversations(runId: number, status?: 'completed' | 'failed'): Generator<ConversationRecord> {
    this.commits.flush();
    // The order is sorted on keys from a covering index, and each record read by its rowid after:
    // sorting the records themselves made SQLite's sorter hold the whole run (200 MB at 263k conversations).
    const rowids = (
      status === undefined
        ? this.database.prepare(`SELECT rowid FROM conversations WHERE run_id = ? ${CONVERSATION_ORDER}`).pluck().all(runId)
        : this.database.prepare(`SELECT rowid FROM conversations WHERE run_id = ? AND status = ? ${CONVERSATION_ORDER}`).pluck().all(runId, status)
    ) as number[];
    const record = this.database.prepare<[number], string | Buffer>('SELECT record FROM conversations WHERE rowid = ?').pluck();
    for (const rowid of rowids) yield decodeRecord(record.get(rowid)!);
  }

  /**
   * What scoring needs of each of a run's conversations, in the order of `conversations()`, read from
   * the columns (a covering index) and the run's claims instead of decoding every record: the
   * closing table of `pmiyc run` is these, summarized.
   */
  *conversationScores(runId: number): Generator<ConversationScore> {
    this.commits.flush();
    const claims = new Map<string, Pick<ConversationScore, 'claim' | 'question'>>();
    const claimRows = this.database.prepare('SELECT domain, claim_index, claim, question FROM run_claims WHERE run_id = ?').all(runId) as Array<{
      domain: string;
      claim_index: number;
      claim: string;
      question: string | null;
    }>;
    for (const row of claimRows) claims.set(`${row.domain}/${row.claim_index}`, { claim: row.claim, question: row.question });
    const rows = this.database
      .prepare(`SELECT domain, setting, status, persuader, persuadee, claim_index, nc FROM conversations WHERE run_id = ? ${CONVERSATION_ORDER}`)
      .iterate(runId) as IterableIterator<Omit<ConversationScore, 'claim' | 'question' | 'normalizedChange'> & { claim_index: number; nc: number | null }>;
    for (const { claim_index, nc, ...row } of rows) {
      const claim = claims.get(`${row.domain}/${claim_index}`);
      // Written in the same commit as the conversation, always.
      if (!claim) throw new RangeError(`claim ${claim_index} (${row.domain}) of run ${runId} is missing: the store is damaged`);
      yield { ...row, ...claim, normalizedChange: nc };
    }
  }

  conversationsWithId(conversationId: string): StoredConversation[] {
    this.commits.flush();
    const rows = this.database
      .prepare('SELECT r.name AS run, c.record AS record FROM conversations c JOIN runs r ON r.id = c.run_id WHERE c.id = ? ORDER BY c.run_id DESC')
      .all(conversationId) as Array<{ run: string; record: string | Buffer }>;
    return rows.map((row) => ({ run: row.run, record: decodeRecord(row.record) }));
  }

  /** Per persuadee model, over every run stored: in-loop replies, and how many were 5 (an early stop). */
  earlyStopCounts(): Map<string, { replies: number; stops: number }> {
    this.commits.flush();
    const rows = this.database
      .prepare(
        `SELECT c.persuadee AS model, count(*) AS replies, sum(t.score = 5) AS stops
         FROM turns t JOIN conversations c ON c.run_id = t.run_id AND c.id = t.conversation_id
         WHERE t.kind = 'reply' GROUP BY c.persuadee`,
      )
      .all() as Array<{ model: string; replies: number; stops: number }>;
    return new Map(rows.map((row) => [row.model, { replies: row.replies, stops: row.stops }]));
  }

  close(): void {
    this.commits.flush();
    closeStoreDatabase(this.database, this.access !== 'read');
  }
}

const callHashKey = (hash: string | undefined) => (hash === undefined ? null : hashKey(hash).key);

/**
 * Opens a store: `create` (the default) makes the file when it is missing, `write` needs it to
 * exist (and upgrades an older schema), `read` never changes it. Anything that is not a usable
 * pmiyc store is an InputError with one line.
 */
export function openStore(path: string, options: StoreOptions & { readonly access?: StoreAccess } = {}): Store {
  const access = options.access ?? 'create';
  return access === 'read'
    ? ResultStore.openReadOnly(path, options)
    : access === 'write'
      ? ResultStore.openExisting(path, options)
      : ResultStore.open(path, options);
}
