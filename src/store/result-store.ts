import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import type { ConversationRecord } from '../domain/conversation-record.js';
import { InputError } from '../domain/input-error.js';
import { migrate } from './migrations.js';
import { conversationRecordSchema } from './record-schema.js';

export interface RunInfo {
  readonly id: number;
  readonly name: string;
  readonly createdAt: string;
  readonly seed: number;
  readonly packageVersion: string;
  /** The fully resolved configuration the run was started with. */
  readonly config: unknown;
}

export interface NewRun {
  readonly name: string;
  readonly createdAt: string;
  readonly seed: number;
  readonly packageVersion: string;
  readonly config: unknown;
}

interface RunRow {
  id: number;
  name: string;
  created_at: string;
  seed: number;
  package_version: string;
  config: string;
}

const toRunInfo = (row: RunRow): RunInfo => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  seed: row.seed,
  packageVersion: row.package_version,
  config: JSON.parse(row.config) as unknown,
});

/**
 * The SQLite store of runs and their conversations (WAL). Each conversation is committed as
 * it finishes, so an interrupted run keeps everything that was done. Reads stream.
 */
export class ResultStore {
  private readonly insertConversation: Database.Statement;

  private constructor(
    private readonly database: Database.Database,
    readonly path: string,
  ) {
    this.insertConversation = database.prepare(
      `INSERT OR REPLACE INTO conversations (run_id, id, domain, setting, persuader, persuadee, claim_index, status, nc, record)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  /** Opens (creating when needed) a store for writing. */
  static open(path: string): ResultStore {
    const database = new Database(path);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 5000');
    migrate(database, path);
    return new ResultStore(database, path);
  }

  /** Opens an existing store for reading, or says how to make one. */
  static openExisting(path: string): ResultStore {
    if (!existsSync(path)) {
      throw new InputError(`no store at ${path}: run \`pmiyc demo\` or \`pmiyc run\` first, or pass --store FILE`);
    }
    return ResultStore.open(path);
  }

  createRun(run: NewRun): RunInfo {
    const result = this.database
      .prepare('INSERT INTO runs (name, created_at, seed, package_version, config) VALUES (?, ?, ?, ?, ?)')
      .run(run.name, run.createdAt, run.seed, run.packageVersion, JSON.stringify(run.config));
    return { id: Number(result.lastInsertRowid), ...run };
  }

  /** The first free name `prefix-1`, `prefix-2`, ... */
  nextRunName(prefix: string): string {
    const taken = new Set(
      (this.database.prepare('SELECT name FROM runs WHERE name LIKE ?').pluck().all(`${prefix}-%`) as string[]),
    );
    let number = 1;
    while (taken.has(`${prefix}-${number}`)) number += 1;
    return `${prefix}-${number}`;
  }

  /** The named run, or the latest one when no name is given. */
  findRun(name?: string): RunInfo {
    const row = (
      name === undefined
        ? this.database.prepare('SELECT * FROM runs ORDER BY id DESC LIMIT 1').get()
        : this.database.prepare('SELECT * FROM runs WHERE name = ?').get(name)
    ) as RunRow | undefined;
    if (row) return toRunInfo(row);
    const names = this.database.prepare('SELECT name FROM runs ORDER BY id').pluck().all() as string[];
    if (names.length === 0) throw new InputError(`${this.path} has no runs yet: run \`pmiyc demo\` or \`pmiyc run\` first`);
    throw new InputError(`${this.path} has no run named "${name}": it has ${names.join(', ')}`);
  }

  /** Stores one finished conversation (replacing an earlier record of the same id), committed at once. */
  saveConversation(runId: number, record: ConversationRecord): void {
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
  }

  countConversations(runId: number): number {
    return this.database.prepare('SELECT count(*) FROM conversations WHERE run_id = ?').pluck().get(runId) as number;
  }

  /** Streams a run's conversations in a stable order, each checked against the record schema. */
  *conversations(runId: number): Generator<ConversationRecord> {
    const rows = this.database
      .prepare('SELECT record FROM conversations WHERE run_id = ? ORDER BY domain DESC, setting DESC, claim_index, persuader, persuadee, id')
      .pluck()
      .iterate(runId) as IterableIterator<string>;
    for (const text of rows) yield conversationRecordSchema.parse(JSON.parse(text));
  }

  close(): void {
    this.database.close();
  }
}
