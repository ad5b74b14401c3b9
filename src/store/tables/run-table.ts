import type Database from 'better-sqlite3';
import { InputError } from '../../domain/errors/input-error.js';
import { StoreError } from '../../domain/errors/store-error.js';
import type { NewRun, RunKind, RunStatus } from '../../runner/run-records.js';
import type { StudyRun, StudyRunSummary } from '../../studies/run-config.js';
import type { CommitQueue } from '../commit-queue.js';
import { RUN_COLUMNS, RUN_KIND_SQL, type RunRow, toRunInfo } from './run-rows.js';

/** What the runs table needs of the rest of the store. */
export interface RunTableContext {
  /** The store's path as the user gave it, for messages. */
  readonly path: string;
  readonly now: () => Date;
  readonly commits: CommitQueue;
  /** A tournament's stored conversations: the status an older pmiyc stored is read against them (run-rows.ts). */
  readonly countConversations: (runId: number) => number;
}

/**
 * The `runs` table: each run (a tournament, a study, an import) with its name, seed, config and
 * status, found by name or kind, listed with its counts and the earlier runs it replayed calls from.
 */
export class RunTable {
  constructor(
    private readonly database: Database.Database,
    private readonly context: RunTableContext,
  ) {}

  create(run: NewRun): StudyRun {
    const createdAt = run.createdAt ?? this.context.now().toISOString();
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
    return this.find(run.name);
  }

  /** Records how a run ended (or that it runs again), with why it stopped when it was interrupted. */
  setStatus(runId: number, status: RunStatus, stopReason?: string): void {
    this.database
      .prepare('UPDATE runs SET status = ?, stop_reason = ?, updated_at = ? WHERE id = ?')
      .run(status, stopReason ?? null, this.context.now().toISOString(), runId);
  }

  recordConfig(runId: number, field: 'servedBy' | 'settings' | 'imports' | 'design', value: unknown): void {
    this.database.prepare(`UPDATE runs SET config = json_set(config, '$.${field}', json(?)) WHERE id = ?`).run(JSON.stringify(value), runId);
  }

  /** The first free name `prefix-1`, `prefix-2`, ... */
  nextName(prefix: string): string {
    const taken = new Set(this.database.prepare('SELECT name FROM runs WHERE name LIKE ?').pluck().all(`${prefix}-%`) as string[]);
    let number = 1;
    while (taken.has(`${prefix}-${number}`)) number += 1;
    return `${prefix}-${number}`;
  }

  /**
   * The named run, or when no name is given the latest one (of the given kind: a command that
   * works on tournaments must not pick up a consistency or judge study made after it).
   */
  find(name?: string, kind?: RunKind): StudyRun {
    const { path } = this.context;
    const kindFilter = kind === undefined ? '' : `WHERE ${RUN_KIND_SQL} = '${kind}'`;
    const row = (
      name === undefined
        ? this.database.prepare(`SELECT ${RUN_COLUMNS} FROM runs ${kindFilter} ORDER BY id DESC LIMIT 1`).get()
        : this.database.prepare(`SELECT ${RUN_COLUMNS} FROM runs WHERE name = ?`).get(name)
    ) as RunRow | undefined;
    if (row) return this.runInfo(row);
    const names = this.database.prepare('SELECT name FROM runs ORDER BY id').pluck().all() as string[];
    if (name === undefined && kind !== undefined && names.length > 0) {
      throw new InputError(`${path} has no ${kind} run (it has ${names.join(', ')}): run \`pmiyc run\` first, or name a run with --run`);
    }
    if (names.length === 0) throw new StoreError({ path, problem: 'empty' }, `${path} has no runs yet: run \`pmiyc demo\` or \`pmiyc run\` first`);
    throw new InputError(`${path} has no run named "${name}": it has ${names.join(', ')}`);
  }

  latestOf(kind: RunKind): StudyRun | undefined {
    const row = this.database.prepare(`SELECT ${RUN_COLUMNS} FROM runs WHERE ${RUN_KIND_SQL} = ? ORDER BY id DESC LIMIT 1`).get(kind) as RunRow | undefined;
    return row ? this.runInfo(row) : undefined;
  }

  private runInfo(row: RunRow): StudyRun {
    return toRunInfo(row, () => this.context.countConversations(row.id));
  }

  has(name: string): boolean {
    return this.database.prepare('SELECT 1 FROM runs WHERE name = ?').get(name) !== undefined;
  }

  /** Every run with its counts, oldest first. */
  list(): StudyRunSummary[] {
    this.context.commits.flush();
    const replays = this.replaySources();
    const rows = this.database
      .prepare(
        `SELECT ${RUN_COLUMNS}, ${RUN_KIND_SQL} AS kind,
           (SELECT count(*) FROM consistency_samples s WHERE s.run_id = runs.id)
             + (SELECT count(*) FROM judge_trials j WHERE j.run_id = runs.id)
             + (SELECT count(*) FROM turn_labels l WHERE l.run_id = runs.id)
             + (SELECT count(*) FROM drift_probes d WHERE d.run_id = runs.id)
             + (SELECT count(*) FROM protocol_records p WHERE p.run_id = runs.id) AS study_items,
           (SELECT count(*) FROM conversations c WHERE c.run_id = runs.id AND c.status = 'completed') AS completed,
           (SELECT count(*) FROM conversations c WHERE c.run_id = runs.id AND c.status = 'failed') AS failed,
           (SELECT count(*) FROM calls k WHERE k.run_id = runs.id) AS calls_made,
           (SELECT sum(cost_usd) FROM calls k INDEXED BY calls_cost_by_run WHERE k.run_id = runs.id) AS cost_usd,
           (SELECT sum(input_tokens) FROM calls k INDEXED BY calls_cost_by_run WHERE k.run_id = runs.id) AS input_tokens,
           (SELECT sum(cached_input_tokens) FROM calls k INDEXED BY calls_cost_by_run WHERE k.run_id = runs.id) AS cached_input_tokens
         FROM runs ORDER BY id`,
      )
      .all() as Array<
      RunRow & {
        kind: RunKind;
        study_items: number;
        completed: number;
        failed: number;
        calls_made: number;
        cost_usd: number | null;
        input_tokens: number | null;
        cached_input_tokens: number | null;
      }
    >;
    return rows.map((row) => ({
      ...toRunInfo(row, () => row.completed + row.failed),
      kind: row.kind,
      studyItems: row.study_items,
      completed: row.completed,
      failed: row.failed,
      callsMade: row.calls_made,
      costUsd: row.cost_usd ?? 0,
      inputTokens: row.input_tokens ?? 0,
      cachedInputTokens: row.cached_input_tokens ?? 0,
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
}
