import type { Database, Transaction } from 'better-sqlite3';

interface Pending {
  readonly work: () => void;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Commits start at least this far apart. A commit costs its pages' writes to the WAL (~10 pages of
 * 16 KB) whatever it holds, and every ~1,000 pages a checkpoint copies the WAL into the database
 * (~12 ms), so at hundreds of replies a second, spacing them lets each commit hold several replies.
 * A reply then waits at most this long, against the 100 ms or more a model takes to answer; at the
 * call rates of real models (seconds per call) commits are further apart than this and every reply
 * is committed at once. 2 ms made ~2.8 replies per commit at ~570 calls/s, 10 ms ~7, for 2-11% less
 * CPU in five interleaved runs; 20 ms began to lengthen the run (bench/README.md).
 */
const COMMIT_SPACING_MS = 10;

/**
 * Writes gathered over one turn of the event loop (or, when the last commit was less than
 * `COMMIT_SPACING_MS` ago, until that much time has passed) and committed in one transaction. At
 * hundreds of calls a second, a transaction per call writes the same index pages to the WAL again
 * and again; one per batch writes them once. Each writer's promise settles only after the commit that
 * holds its write, so a reply is still used only once it is on disk. If the transaction fails, every
 * write in it fails with the error.
 */
export class CommitQueue {
  private pending: Pending[] = [];
  private scheduled = false;
  private lastCommitAt = Number.NEGATIVE_INFINITY;
  private readonly commit: Transaction<(batch: readonly Pending[]) => void>;
  private failures = 0;

  constructor(database: Database) {
    this.commit = database.transaction((batch: readonly Pending[]) => {
      for (const entry of batch) entry.work();
    });
  }

  /** How many commits have failed: what their writes stored is gone (a writer that remembers rows checks this). */
  get failedCommits(): number {
    return this.failures;
  }

  /** Runs `work` in the next commit; resolves once that commit is done. */
  enqueue(work: () => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ work, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        const wait = this.lastCommitAt + COMMIT_SPACING_MS - performance.now();
        if (wait > 0) setTimeout(() => this.flush(), wait);
        else setImmediate(() => this.flush());
      }
    });
  }

  /** Commits what is waiting now (before a synchronous write that must follow it, and on close). */
  flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.lastCommitAt = performance.now();
    try {
      // IMMEDIATE: the write lock is taken (waiting as busy_timeout allows) before the first read of
      // the batch. A deferred transaction that reads first cannot upgrade once another process has
      // written meanwhile: SQLite then fails it at once with "database is locked".
      this.commit.immediate(batch);
    } catch (error) {
      this.failures += 1;
      for (const entry of batch) entry.reject(error);
      return;
    }
    for (const entry of batch) entry.resolve();
  }
}
