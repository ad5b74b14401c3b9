import type { Database } from 'better-sqlite3';
import type { CallTotal, RunCallTotals } from '../../runner/run-records.js';

interface TotalRow {
  model: string;
  this_session: number;
  calls: number;
  input_tokens: number | null;
  output_tokens: number | null;
  cached_input_tokens: number | null;
  cache_write_tokens: number | null;
  without_usage: number;
  cost_usd: number | null;
  without_cost: number;
}

const NO_CALLS: CallTotal = {
  calls: 0,
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  callsWithoutUsage: 0,
  costUsd: 0,
  callsWithoutCost: 0,
};

const toTotal = (row: TotalRow): CallTotal => ({
  calls: row.calls,
  inputTokens: row.input_tokens ?? 0,
  outputTokens: row.output_tokens ?? 0,
  cachedInputTokens: row.cached_input_tokens ?? 0,
  cacheWriteTokens: row.cache_write_tokens ?? 0,
  callsWithoutUsage: row.without_usage,
  costUsd: row.cost_usd ?? 0,
  callsWithoutCost: row.without_cost,
});

const plus = (a: CallTotal, b: CallTotal): CallTotal => ({
  calls: a.calls + b.calls,
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
  cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
  cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  callsWithoutUsage: a.callsWithoutUsage + b.callsWithoutUsage,
  costUsd: a.costUsd + b.costUsd,
  callsWithoutCost: a.callsWithoutCost + b.callsWithoutCost,
});

/** The last row of the call store: calls stored later have larger row ids (rows are only ever appended). */
export function callsMark(database: Database): number {
  return database.prepare('SELECT coalesce(max(rowid), 0) FROM calls').pluck().get() as number;
}

/**
 * A run's own stored calls (what it paid for; replays are other runs' rows), per model identity, in
 * all and since a mark. One pass over the run's rows: about 2 s per million calls.
 */
export function runCallTotals(database: Database, runId: number, sinceMark: number): RunCallTotals {
  const rows = database
    .prepare(
      `SELECT model, rowid > ? AS this_session, count(*) AS calls, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
         sum(cached_input_tokens) AS cached_input_tokens, sum(cache_write_tokens) AS cache_write_tokens,
         sum(input_tokens IS NULL AND output_tokens IS NULL) AS without_usage, sum(cost_usd) AS cost_usd, sum(cost_usd IS NULL) AS without_cost
       FROM calls WHERE run_id = ? GROUP BY model, this_session`,
    )
    .all(sinceMark, runId) as TotalRow[];
  const byModel = new Map<string, { identity: string; inAll: CallTotal; thisSession: CallTotal }>();
  for (const row of rows) {
    const entry = byModel.get(row.model) ?? { identity: row.model, inAll: NO_CALLS, thisSession: NO_CALLS };
    const total = toTotal(row);
    entry.inAll = plus(entry.inAll, total);
    if (row.this_session) entry.thisSession = plus(entry.thisSession, total);
    byModel.set(row.model, entry);
  }
  const models = [...byModel.values()].sort((a, b) => b.inAll.calls - a.inAll.calls || a.identity.localeCompare(b.identity));
  return {
    inAll: models.reduce((sum, model) => plus(sum, model.inAll), NO_CALLS),
    thisSession: models.reduce((sum, model) => plus(sum, model.thisSession), NO_CALLS),
    byModel: models,
  };
}

/** Tables whose rows are a run's work: a run with a row in any of them is never discarded. */
const WORK_TABLES = [
  'calls',
  'participants',
  'call_failures',
  'call_replays',
  'conversations',
  'consistency_samples',
  'judge_trials',
  'annotations',
  'batches',
  'turn_labels',
  'drift_probes',
  'protocol_records',
];

/**
 * Removes a run with nothing in it (see `WORK_TABLES`) and its bookkeeping (lease, claims), in one
 * IMMEDIATE transaction; true when removed. A run some other run replayed from holds calls, so is kept.
 */
export function discardRunIfEmpty(database: Database, runId: number): boolean {
  return database
    .transaction(() => {
      for (const table of WORK_TABLES) {
        if (database.prepare(`SELECT 1 FROM ${table} WHERE run_id = ? LIMIT 1`).get(runId) !== undefined) return false;
      }
      database.prepare('DELETE FROM run_leases WHERE run_id = ?').run(runId);
      database.prepare('DELETE FROM run_claims WHERE run_id = ?').run(runId);
      return database.prepare('DELETE FROM runs WHERE id = ?').run(runId).changes > 0;
    })
    .immediate();
}
