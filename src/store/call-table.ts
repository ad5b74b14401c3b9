import { deflateRawSync } from 'node:zlib';
import type { Database, Statement } from 'better-sqlite3';
import type { FinishReason } from '../domain/conversation.js';
import type { CachedReply, CallCache, FailedCall, StoredCall } from '../models/call-cache.js';
import type { CallCacheScope } from '../runner/run-records.js';

interface CallRow {
  reply_text: string;
  finish_reason: FinishReason;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  run_id: number;
  run_name: string;
}

/**
 * The `calls` table as the call cache of one run: each reply is committed (its own transaction)
 * before the caller sees it, under its request hash and this run, so a run's accounting is its own
 * rows and never changes because of another run. A lookup prefers this run's own call, then the
 * earliest run that made it; the first use of an earlier run's call is recorded in `call_replays`
 * and reported as a replay (later uses share it within the run, as for the run's own calls). Requests
 * are stored deflated: they repeat the whole conversation so far and are most of the store's size.
 */
export class SqliteCallCache implements CallCache {
  private readonly select: Statement<[{ hash: string; runId: number; reuse: number }], CallRow>;
  private readonly reuse: number;
  private readonly insertReplay: Statement;
  private readonly insert: Statement;
  private readonly insertFailure: Statement;

  constructor(
    database: Database,
    private readonly runId: number,
    private readonly now: () => Date,
    scope: CallCacheScope = { reuseEarlierRuns: true },
  ) {
    this.select = database.prepare(
      `SELECT c.reply_text, c.finish_reason, c.input_tokens, c.output_tokens, c.cost_usd, c.run_id, r.name AS run_name
       FROM calls c JOIN runs r ON r.id = c.run_id
       WHERE c.hash = @hash AND (c.run_id = @runId OR @reuse) ORDER BY c.run_id = @runId DESC, c.rowid LIMIT 1`,
    );
    this.reuse = scope.reuseEarlierRuns ? 1 : 0;
    this.insertReplay = database.prepare('INSERT OR IGNORE INTO call_replays (run_id, hash, source_run_id) VALUES (?, ?, ?)');
    this.insert = database.prepare(
      `INSERT OR REPLACE INTO calls (hash, model, run_id, request, reply_text, finish_reason, input_tokens, output_tokens, cost_usd, latency_ms, retries, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertFailure = database.prepare(
      `INSERT INTO call_failures (hash, model, run_id, reason, status_code, message, latency_ms, retries, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  lookup(hash: string): CachedReply | undefined {
    const row = this.select.get({ hash, runId: this.runId, reuse: this.reuse });
    if (!row) return undefined;
    const usage = {
      ...(row.input_tokens === null ? {} : { inputTokens: row.input_tokens }),
      ...(row.output_tokens === null ? {} : { outputTokens: row.output_tokens }),
    };
    const reply = {
      text: row.reply_text,
      finishReason: row.finish_reason,
      ...(row.input_tokens === null && row.output_tokens === null ? {} : { usage }),
      ...(row.cost_usd === null ? {} : { costUsd: row.cost_usd }),
    };
    // The first use of an earlier run's call in this run is its replay; later uses share it within the run.
    if (row.run_id === this.runId || this.insertReplay.run(this.runId, hash, row.run_id).changes === 0) return { reply };
    return { reply, earlierRun: row.run_name };
  }

  save(call: StoredCall): void {
    const { reply } = call;
    this.insert.run(
      call.hash,
      call.modelIdentity,
      this.runId,
      deflateRawSync(JSON.stringify(call.request)),
      reply.text,
      reply.finishReason,
      reply.usage?.inputTokens ?? null,
      reply.usage?.outputTokens ?? null,
      reply.costUsd ?? null,
      call.latencyMs,
      call.retries,
      this.now().toISOString(),
    );
  }

  saveFailure(failure: FailedCall): void {
    this.insertFailure.run(
      failure.hash,
      failure.modelIdentity,
      this.runId,
      failure.reason,
      failure.statusCode ?? null,
      failure.message,
      failure.latencyMs,
      failure.retries,
      this.now().toISOString(),
    );
  }
}
