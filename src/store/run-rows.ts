import type { RunInfo, RunStatus } from '../runner/run-records.js';

/**
 * The kind of a run, from the command stored in its config (older demo runs say 'demo'). An
 * import of the official code's results holds tournament conversations: it is a tournament.
 */
export const RUN_KIND_SQL = `CASE coalesce(json_extract(config, '$.command'), 'run') WHEN 'run' THEN 'tournament' WHEN 'demo' THEN 'tournament' WHEN 'import' THEN 'tournament' ELSE json_extract(config, '$.command') END`;

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
