import type { Database } from 'better-sqlite3';
import type { RunStatus } from '../../runner/run-records.js';
import { readRunConfig, type StudyRun } from '../../studies/run-config.js';

/**
 * The kind of a run, from the command stored in its config (older demo runs say 'demo'). An
 * import of the official code's results holds tournament conversations: it is a tournament.
 */
export const RUN_KIND_SQL = `CASE coalesce(json_extract(config, '$.command'), 'run') WHEN 'run' THEN 'tournament' WHEN 'demo' THEN 'tournament' WHEN 'import' THEN 'tournament' ELSE json_extract(config, '$.command') END`;

/** Names of the studies a command made (`config.command`), oldest first; only those linked to `tournamentRun` when given. */
export function studyNamesOf(database: Database, command: string, tournamentRun?: string): string[] {
  const ofCommand = "json_extract(config, '$.command') = ?";
  if (tournamentRun === undefined) return database.prepare(`SELECT name FROM runs WHERE ${ofCommand} ORDER BY id`).pluck().all(command) as string[];
  const linked = `${ofCommand} AND json_extract(config, '$.tournamentRun') = ?`;
  return database.prepare(`SELECT name FROM runs WHERE ${linked} ORDER BY id`).pluck().all(command, tournamentRun) as string[];
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

/** Whether a stored config is a tournament's (`pmiyc run`, `pmiyc demo`, `pmiyc import`), as `RUN_KIND_SQL` says it. */
function isTournamentConfig(config: string): boolean {
  const { kind } = readRunConfig(JSON.parse(config));
  return kind === 'tournament' || kind === 'import';
}

/**
 * A stored status in today's words (runner/run-records.ts). pmiyc 0.1 before this change stored
 * `failed` without a reason for a run whose plan ran to its end with failed items (now `completed`),
 * and `interrupted` with `failures` or `error` for what is now `failed`. Stores older still used a
 * tournament's `failed` for a --max-failures stop: a tournament's stored conversations against its
 * plan tell the two apart (all stored: it went through its plan); without a plan it stays `failed`.
 */
export function currentStatus(
  row: Pick<RunRow, 'status' | 'stop_reason' | 'planned_conversations' | 'config'>,
  storedConversations: () => number,
): {
  status: RunStatus;
  stopReason?: string;
} {
  const reason = row.stop_reason ?? undefined;
  if (row.status === 'interrupted' && (reason === 'failures' || reason === 'error')) return { status: 'failed', stopReason: reason };
  if (row.status !== 'failed' || reason !== undefined) return { status: row.status, ...(reason === undefined ? {} : { stopReason: reason }) };
  if (!isTournamentConfig(row.config)) return { status: 'completed' };
  if (row.planned_conversations === null) return { status: 'failed' };
  return storedConversations() >= row.planned_conversations ? { status: 'completed' } : { status: 'failed', stopReason: 'failures' };
}

/** A stored run, its status in today's words (`storedConversations` is asked only for a status an older pmiyc stored). */
export function toRunInfo(row: RunRow, storedConversations: () => number): StudyRun {
  const storedConfig: unknown = JSON.parse(row.config);
  const { status, stopReason } = currentStatus(row, storedConversations);
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    status,
    ...(stopReason === undefined ? {} : { stopReason }),
    seed: row.seed,
    packageVersion: row.package_version,
    ...(row.git_revision === null ? {} : { gitRevision: row.git_revision }),
    ...(row.planned_conversations === null ? {} : { plannedConversations: row.planned_conversations }),
    ...(row.claims_checksum === null ? {} : { claimsChecksum: row.claims_checksum }),
    config: readRunConfig(storedConfig),
    storedConfig,
  };
}
