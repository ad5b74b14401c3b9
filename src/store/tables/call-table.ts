import { inflateRawSync } from 'node:zlib';
import type { Database, Statement } from 'better-sqlite3';
import type { FinishReason } from '../../domain/conversation.js';
import type { CachedReply, CachedRequest, CallCache, FailedCall, StoredCall } from '../../models/call-cache.js';
import type { CallCacheScope } from '../../runner/run-records.js';
import { CommitQueue } from '../commit-queue.js';
import { CallMessages, packText, unpackText } from '../records/call-messages.js';
import { hashKey } from '../records/hash-key.js';

interface CallRow {
  readonly row: number;
  /** The reply's text; deflated (a BLOB) when it is long. */
  reply_text: string | Buffer;
  finish_reason: FinishReason;
  input_tokens: number | null;
  output_tokens: number | null;
  cached_input_tokens: number | null;
  cache_write_tokens: number | null;
  cost_usd: number | null;
  run_id: number;
}

/**
 * The `calls` table as the call cache of one run: each reply is committed (its own transaction)
 * before the caller sees it, under its request hash and this run, so a run's accounting is its own
 * rows and never changes because of another run. A lookup prefers this run's own call, then the
 * earliest run that made it; the first use of an earlier run's call is recorded in `call_replays`
 * and reported as a replay (later uses share it within the run, as for the run's own calls). A
 * request's messages go to `call_messages`, each stored once (call-messages.ts); the rest of it
 * (sampling parameters and seed) is JSON text in `request`. Calls of stores written before that
 * have the whole request in `request` and no `messages`.
 */
export class SqliteCallCache implements CallCache {
  /** Every stored row of a request hash (one per run that made the call; nearly always none or one). */
  private readonly select: Statement<[string | Buffer], CallRow>;
  private readonly selectRunName: Statement<[number], string>;
  private readonly runNames = new Map<number, string>();
  /** Whether some call is stored under a hex-text hash (a store written before hashes were bytes). */
  private readonly hasTextHashes: boolean;
  private readonly reuseEarlierRuns: boolean;
  /** False in a store opened to read (a dry run): lookups then change nothing. */
  private readonly recordsReplays: boolean;
  private readonly insertReplay: Statement;
  private readonly remove: Statement<[Buffer | string, number]>;
  private readonly insert: Statement;
  private readonly insertFailure: Statement;
  private readonly messages: CallMessages;

  constructor(
    database: Database,
    private readonly runId: number,
    private readonly now: () => Date,
    scope: CallCacheScope = { reuseEarlierRuns: true },
    private readonly commits: CommitQueue = new CommitQueue(database),
  ) {
    // A probe of the hash's index, without a join or a sort: the row to use is chosen in code.
    this.select =
      database.prepare(`SELECT rowid AS row, reply_text, finish_reason, input_tokens, output_tokens, cached_input_tokens, cache_write_tokens, cost_usd, run_id
       FROM calls WHERE hash = ?`);
    this.selectRunName = database.prepare<[number], string>('SELECT name FROM runs WHERE id = ?').pluck();
    // Text sorts before blobs: the smallest hash tells whether any is text.
    this.hasTextHashes = database.prepare("SELECT typeof(hash) = 'text' FROM calls ORDER BY hash LIMIT 1").pluck().get() === 1;
    this.reuseEarlierRuns = scope.reuseEarlierRuns;
    this.recordsReplays = !database.readonly;
    this.messages = new CallMessages(database, commits);
    this.insertReplay = database.prepare('INSERT OR IGNORE INTO call_replays (run_id, hash, source_run_id) VALUES (?, ?, ?)');
    // Delete, then insert: what INSERT OR REPLACE did. A REPLACE may delete rows, so inside a batch's
    // transaction SQLite copied the pages it touched to a statement journal (a temp file); these two
    // statements each need none.
    this.remove = database.prepare<[Buffer | string, number]>('DELETE FROM calls WHERE hash = ? AND run_id = ?');
    this.insert = database.prepare(
      `INSERT INTO calls (hash, model, run_id, request, messages, reply_text, finish_reason, input_tokens, output_tokens,
         cached_input_tokens, cache_write_tokens, cost_usd, latency_ms, retries, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertFailure = database.prepare(
      `INSERT INTO call_failures (hash, model, run_id, reason, status_code, message, latency_ms, retries, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  lookup(hash: string): CachedReply | undefined {
    const { key, legacy } = hashKey(hash);
    const row = this.usable(key) ?? (this.hasTextHashes && key !== legacy ? this.usable(legacy) : undefined);
    if (!row) return undefined;
    const usage = {
      ...(row.input_tokens === null ? {} : { inputTokens: row.input_tokens }),
      ...(row.output_tokens === null ? {} : { outputTokens: row.output_tokens }),
      ...(row.cached_input_tokens === null ? {} : { cachedInputTokens: row.cached_input_tokens }),
      ...(row.cache_write_tokens === null ? {} : { cacheWriteTokens: row.cache_write_tokens }),
    };
    const reply = {
      text: typeof row.reply_text === 'string' ? row.reply_text : unpackText(row.reply_text),
      finishReason: row.finish_reason,
      ...(row.input_tokens === null && row.output_tokens === null ? {} : { usage }),
      ...(row.cost_usd === null ? {} : { costUsd: row.cost_usd }),
    };
    // The first use of an earlier run's call in this run is its replay; later uses share it within the run.
    if (row.run_id === this.runId || (this.recordsReplays && this.insertReplay.run(this.runId, key, row.run_id).changes === 0)) return { reply };
    return { reply, earlierRun: this.runName(row.run_id) };
  }

  /** This run's own row of a hash, else (when earlier runs may be reused) the one stored first. */
  private usable(hash: string | Buffer): CallRow | undefined {
    let chosen: CallRow | undefined;
    for (const row of this.select.all(hash)) {
      if (row.run_id === this.runId) return row;
      if (this.reuseEarlierRuns && (chosen === undefined || row.row < chosen.row)) chosen = row;
    }
    return chosen;
  }

  private runName(runId: number): string {
    let name = this.runNames.get(runId);
    if (name === undefined) {
      name = this.selectRunName.get(runId) ?? String(runId);
      this.runNames.set(runId, name);
    }
    return name;
  }

  /** Stores a reply in the next commit of the store's queue; resolves once it is committed. */
  save(call: StoredCall): Promise<void> {
    return this.commits.enqueue(() => this.write(call), 'reply');
  }

  private write(call: StoredCall): void {
    const { reply } = call;
    const { messages, ...parameters } = call.request;
    const { key } = hashKey(call.hash);
    this.remove.run(key, this.runId);
    this.insert.run(
      key,
      call.modelIdentity,
      this.runId,
      JSON.stringify(parameters),
      this.messages.save(messages),
      packText(reply.text),
      reply.finishReason,
      reply.usage?.inputTokens ?? null,
      reply.usage?.outputTokens ?? null,
      reply.usage?.cachedInputTokens ?? null,
      reply.usage?.cacheWriteTokens ?? null,
      reply.costUsd ?? null,
      call.latencyMs,
      call.retries,
      this.now().toISOString(),
    );
  }

  saveFailure(failure: FailedCall): void {
    this.insertFailure.run(
      hashKey(failure.hash).key,
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

/** Every stored call's model and request, whichever way it was stored (for tools and tests that check what was asked). */
export function* storedCallRequests(database: Database): Generator<{ model: string; request: CachedRequest }> {
  const messages = new CallMessages(database);
  const rows = database.prepare('SELECT model, request, messages FROM calls ORDER BY rowid').iterate() as IterableIterator<{
    model: string;
    request: Buffer | string;
    messages: number | null;
  }>;
  for (const row of rows) {
    // Old rows hold the whole request deflated; newer ones its parameters as JSON text, messages apart.
    const stored = JSON.parse(typeof row.request === 'string' ? row.request : inflateRawSync(row.request).toString('utf8')) as CachedRequest;
    yield { model: row.model, request: row.messages === null ? stored : { ...stored, messages: messages.read(row.messages) } };
  }
}
