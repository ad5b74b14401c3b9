import { deflateRawSync } from 'node:zlib';
import type { Database, Statement } from 'better-sqlite3';
import type { FinishReason } from '../domain/conversation.js';
import type { CallCache, FailedCall, StoredCall } from '../models/call-cache.js';
import type { GenerateReply } from '../models/chat-model.js';

interface CallRow {
  reply_text: string;
  finish_reason: FinishReason;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
}

/**
 * The `calls` table as the call cache of one run: each reply is committed (its own transaction)
 * before the caller sees it, under its request hash. Requests are stored deflated: they repeat
 * the whole conversation so far and are most of the store's size.
 */
export class SqliteCallCache implements CallCache {
  private readonly select: Statement<[string], CallRow>;
  private readonly insert: Statement;
  private readonly insertFailure: Statement;

  constructor(
    database: Database,
    private readonly runId: number,
    private readonly now: () => Date,
  ) {
    this.select = database.prepare('SELECT reply_text, finish_reason, input_tokens, output_tokens, cost_usd FROM calls WHERE hash = ?');
    this.insert = database.prepare(
      `INSERT OR REPLACE INTO calls (hash, model, run_id, request, reply_text, finish_reason, input_tokens, output_tokens, cost_usd, latency_ms, retries, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertFailure = database.prepare(
      `INSERT INTO call_failures (hash, model, run_id, reason, status_code, message, latency_ms, retries, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  lookup(hash: string): GenerateReply | undefined {
    const row = this.select.get(hash);
    if (!row) return undefined;
    const usage = {
      ...(row.input_tokens === null ? {} : { inputTokens: row.input_tokens }),
      ...(row.output_tokens === null ? {} : { outputTokens: row.output_tokens }),
    };
    return {
      text: row.reply_text,
      finishReason: row.finish_reason,
      ...(row.input_tokens === null && row.output_tokens === null ? {} : { usage }),
      ...(row.cost_usd === null ? {} : { costUsd: row.cost_usd }),
    };
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
