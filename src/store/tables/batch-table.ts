import type { Database, Statement } from 'better-sqlite3';
import type { BatchLedger, OpenBatch } from '../../models/batch/batch-ledger.js';
import type { CallCacheScope } from '../../runner/run-records.js';
import { hashKey } from '../records/hash-key.js';

interface BatchRow {
  id: number;
  provider_batch_id: string | null;
  submission_key: string;
  submitted_at: string;
}

/**
 * The `batches` and `batch_requests` tables as the ledger of one run's batches. Each write is its
 * own transaction, committed when the method returns (after the call commits queued before it), so
 * a batch and its request hashes are on disk before the provider hears of it. A batch stays open
 * until every request it carries is settled, that is has a stored reply (in any run) or failed in the
 * batch's results (`batch_requests.outcome`), or until it never reached the provider.
 * Other runs' open batches are re-attached too (their replies are shared as stored calls are), unless
 * the run reuses nothing from other runs (`--no-cache`).
 */
export class SqliteBatchLedger implements BatchLedger {
  private readonly insertBatch: Statement;
  private readonly insertRequest: Statement;
  private readonly setProviderId: Statement;
  private readonly setStatus: Statement;
  private readonly setOutcome: Statement;
  private readonly close: Statement;
  private readonly selectOpen: Statement<[string], BatchRow>;
  private readonly selectUnanswered: Statement<[number], Buffer | string>;

  constructor(
    private readonly database: Database,
    private readonly runId: number,
    private readonly now: () => Date,
    private readonly flushCommits: () => void,
    scope: CallCacheScope = { reuseEarlierRuns: true },
  ) {
    // Under --no-cache a run re-attaches only to its own batches, and counts only its own stored replies.
    const reuse = scope.reuseEarlierRuns ? 1 : 0;
    this.insertBatch = database.prepare(
      `INSERT INTO batches (run_id, model, provider, submission_key, status, submitted_at, updated_at) VALUES (?, ?, ?, ?, 'submitting', ?, ?)`,
    );
    this.insertRequest = database.prepare('INSERT OR IGNORE INTO batch_requests (batch_id, hash) VALUES (?, ?)');
    this.setProviderId = database.prepare(`UPDATE batches SET provider_batch_id = ?, status = 'submitted', updated_at = ? WHERE id = ?`);
    this.setStatus = database.prepare('UPDATE batches SET provider_status = ?, updated_at = ? WHERE id = ?');
    this.setOutcome = database.prepare('UPDATE batch_requests SET outcome = ? WHERE batch_id = ? AND hash = ?');
    this.close = database.prepare(`UPDATE batches SET status = 'closed', provider_status = ?, updated_at = ? WHERE id = ?`);
    this.selectOpen = database.prepare<[string], BatchRow>(
      `SELECT id, provider_batch_id, submission_key, submitted_at FROM batches
       WHERE model = ? AND status != 'closed' AND (run_id = ${runId} OR ${reuse}) ORDER BY id`,
    );
    this.selectUnanswered = database
      .prepare<[number], Buffer | string>(
        `SELECT r.hash FROM batch_requests r
         WHERE r.batch_id = ? AND r.outcome IS NOT 'failed' AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.hash = r.hash AND (c.run_id = ${runId} OR ${reuse}))`,
      )
      .pluck();
  }

  openBatches(modelIdentity: string): OpenBatch[] {
    this.flushCommits();
    const open: OpenBatch[] = [];
    for (const row of this.selectOpen.all(modelIdentity)) {
      const hashes = this.selectUnanswered.all(row.id).map((hash) => (typeof hash === 'string' ? hash : hash.toString('hex')));
      if (hashes.length === 0) {
        this.close.run('every line answered or failed', this.now().toISOString(), row.id);
        continue;
      }
      open.push({
        localId: row.id,
        ...(row.provider_batch_id === null ? {} : { providerBatchId: row.provider_batch_id }),
        submissionKey: row.submission_key,
        hashes,
        submittedAtMs: Date.parse(row.submitted_at),
      });
    }
    return open;
  }

  beginBatch(batch: { modelIdentity: string; provider: string; submissionKey: string; hashes: readonly string[] }): number {
    this.flushCommits();
    const at = this.now().toISOString();
    return this.database.transaction(() => {
      const id = Number(this.insertBatch.run(this.runId, batch.modelIdentity, batch.provider, batch.submissionKey, at, at).lastInsertRowid);
      for (const hash of batch.hashes) this.insertRequest.run(id, hashKey(hash).key);
      return id;
    })();
  }

  batchSubmitted(localId: number, providerBatchId: string): void {
    this.flushCommits();
    this.setProviderId.run(providerBatchId, this.now().toISOString(), localId);
  }

  linesRead(localId: number, outcomes: ReadonlyMap<string, 'succeeded' | 'failed'>): void {
    this.flushCommits();
    this.database.transaction(() => {
      for (const [hash, outcome] of outcomes) this.setOutcome.run(outcome, localId, hashKey(hash).key);
    })();
  }

  batchStatus(localId: number, status: { providerStatus: string; closed?: boolean }): void {
    this.flushCommits();
    (status.closed ? this.close : this.setStatus).run(status.providerStatus, this.now().toISOString(), localId);
  }
}
