import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { ConversationRecord } from '../domain/conversation-record.js';
import { InputError } from '../domain/input-error.js';
import { SqliteCallCache } from './call-table.js';
import { migrate } from './migrations.js';
import { conversationRecordSchema } from './record-schema.js';
import { type NewRun, RUN_COLUMNS, RUN_KIND_SQL, type RunInfo, type RunKind, type RunRow, type RunStatus, type RunSummary, toRunInfo } from './run-rows.js';

export type { NewRun, RunInfo, RunKind, RunStatus, RunSummary } from './run-rows.js';

export interface StoreOptions {
  /** The clock for timestamps; the CLI passes the real one. */
  readonly now?: () => Date;
}

/**
 * The SQLite store (WAL): runs, conversations with their turns, and every call. Each call and each
 * finished conversation is committed at once, so an interrupted run keeps everything that was
 * done; in WAL mode with synchronous=NORMAL a kill loses nothing and a power cut at most the last
 * commits, in order (a conversation never outlives its calls). Reads stream.
 */
export class ResultStore {
  private readonly insertConversation: Database.Statement;
  private readonly insertTurn: Database.Statement;
  private readonly deleteTurns: Database.Statement;
  private readonly selectStatus: Database.Statement<[number, string], string>;
  private readonly now: () => Date;

  private constructor(
    private readonly database: Database.Database,
    readonly path: string,
    options: StoreOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.insertConversation = database.prepare(
      `INSERT OR REPLACE INTO conversations (run_id, id, domain, setting, persuader, persuadee, claim_index, status, nc, record)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertTurn = database.prepare(
      'INSERT INTO turns (run_id, conversation_id, turn_index, role, kind, score, attempts, call_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.deleteTurns = database.prepare('DELETE FROM turns WHERE run_id = ? AND conversation_id = ?');
    this.selectStatus = database.prepare<[number, string], string>('SELECT status FROM conversations WHERE run_id = ? AND id = ?').pluck();
  }

  /**
   * The SQLite handle, for the table modules of the validation studies (consistency samples,
   * annotations, judge trials), which keep their own statements in their own files.
   */
  get sqlite(): Database.Database {
    return this.database;
  }

  /** Opens (creating when needed) a store for writing. */
  static open(path: string, options: StoreOptions = {}): ResultStore {
    const database = new Database(path);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 5000');
    migrate(database, path);
    return new ResultStore(database, path, options);
  }

  /** Opens an existing store, or says how to make one. */
  static openExisting(path: string, options: StoreOptions = {}): ResultStore {
    if (!existsSync(path)) {
      throw new InputError(`no store at ${path}: run \`pmiyc demo\` or \`pmiyc run\` first, or pass --store FILE`);
    }
    return ResultStore.open(path, options);
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

  setRunStatus(runId: number, status: RunStatus): void {
    this.database.prepare('UPDATE runs SET status = ?, updated_at = ? WHERE id = ?').run(status, this.now().toISOString(), runId);
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
    if (row) return toRunInfo(row);
    const names = this.database.prepare('SELECT name FROM runs ORDER BY id').pluck().all() as string[];
    if (name === undefined && kind !== undefined && names.length > 0) {
      throw new InputError(`${this.path} has no ${kind} run (it has ${names.join(', ')}): run \`pmiyc run\` first, or name a run with --run`);
    }
    if (names.length === 0) throw new InputError(`${this.path} has no runs yet: run \`pmiyc demo\` or \`pmiyc run\` first`);
    throw new InputError(`${this.path} has no run named "${name}": it has ${names.join(', ')}`);
  }

  hasRun(name: string): boolean {
    return this.database.prepare('SELECT 1 FROM runs WHERE name = ?').get(name) !== undefined;
  }

  /** Every run with its counts, oldest first. */
  listRuns(): RunSummary[] {
    const rows = this.database
      .prepare(
        `SELECT ${RUN_COLUMNS}, ${RUN_KIND_SQL} AS kind,
           (SELECT count(*) FROM consistency_samples s WHERE s.run_id = runs.id)
             + (SELECT count(*) FROM judge_trials j WHERE j.run_id = runs.id) AS study_items,
           (SELECT count(*) FROM conversations c WHERE c.run_id = runs.id AND c.status = 'completed') AS completed,
           (SELECT count(*) FROM conversations c WHERE c.run_id = runs.id AND c.status = 'failed') AS failed,
           (SELECT count(*) FROM calls k WHERE k.run_id = runs.id) AS calls_made,
           (SELECT sum(cost_usd) FROM calls k WHERE k.run_id = runs.id) AS cost_usd
         FROM runs ORDER BY id`,
      )
      .all() as Array<RunRow & { kind: RunKind; study_items: number; completed: number; failed: number; calls_made: number; cost_usd: number | null }>;
    return rows.map((row) => ({
      ...toRunInfo(row),
      kind: row.kind,
      studyItems: row.study_items,
      completed: row.completed,
      failed: row.failed,
      callsMade: row.calls_made,
      costUsd: row.cost_usd ?? 0,
    }));
  }

  /** The call cache of a run: lookups across all runs, new calls recorded as this run's. */
  callCache(runId: number): SqliteCallCache {
    return new SqliteCallCache(this.database, runId, this.now);
  }

  /** What a run spent on calls it made itself (replays cost nothing). */
  spentUsd(runId: number): number {
    return (this.database.prepare('SELECT coalesce(sum(cost_usd), 0) FROM calls WHERE run_id = ?').pluck().get(runId) as number) ?? 0;
  }

  /** Stores one finished conversation and its turns (replacing an earlier record of the same id), committed at once. */
  saveConversation(runId: number, record: ConversationRecord): void {
    this.database.transaction(() => {
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
        JSON.stringify(record),
      );
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
          turn.attempts.at(-1)?.callHash ?? null,
        );
      }
    })();
  }

  /** 'completed', 'failed', or undefined when the conversation is not stored yet. */
  conversationStatus(runId: number, conversationId: string): 'completed' | 'failed' | undefined {
    return this.selectStatus.get(runId, conversationId) as 'completed' | 'failed' | undefined;
  }

  countConversations(runId: number, status?: 'completed' | 'failed'): number {
    return (
      status === undefined
        ? this.database.prepare('SELECT count(*) FROM conversations WHERE run_id = ?').pluck().get(runId)
        : this.database.prepare('SELECT count(*) FROM conversations WHERE run_id = ? AND status = ?').pluck().get(runId, status)
    ) as number;
  }

  /** Streams a run's conversations (or only those with a status) in a stable order, each checked against the record schema. */
  *conversations(runId: number, status?: 'completed' | 'failed'): Generator<ConversationRecord> {
    const order = 'ORDER BY domain DESC, setting DESC, claim_index, persuader, persuadee, id';
    const rows = (
      status === undefined
        ? this.database.prepare(`SELECT record FROM conversations WHERE run_id = ? ${order}`).pluck().iterate(runId)
        : this.database.prepare(`SELECT record FROM conversations WHERE run_id = ? AND status = ? ${order}`).pluck().iterate(runId, status)
    ) as IterableIterator<string>;
    for (const text of rows) yield conversationRecordSchema.parse(JSON.parse(text));
  }

  /** Per persuadee model, over every run stored: in-loop replies, and how many were 5 (an early stop). */
  earlyStopCounts(): Map<string, { replies: number; stops: number }> {
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
    this.database.close();
  }
}
