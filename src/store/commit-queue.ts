import type { Database, Transaction } from 'better-sqlite3';

interface Pending {
  readonly work: () => void;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** What a write is: a paid reply (counted against the queue's limit of waiting replies) or any other row. */
export type WriteKind = 'reply' | 'other';

/**
 * Commits start at least this far apart. A commit writes every page it changed to the WAL, whole
 * (~13 pages of 16 KB for a commit of ~8 replies and 2 conversations: the random leaves of the hash
 * indexes, the conversations' covering indexes), and every ~1,000 pages a checkpoint copies the WAL
 * into the database (~14 ms). At hundreds of replies a second, spacing commits lets each hold several
 * replies and write those pages once. A reply then waits at most this long, against the 100 ms or
 * more a model takes to answer; the call's slot is free meanwhile, so only the run's tail waits.
 * At the call rates of real models (seconds per call) commits are further apart than this and every
 * reply is committed at once. In a 2,900-call run at ~600 calls/s: 2 ms made ~2.8 replies per
 * commit, 10 ms ~7.5, 25 ms ~15.5 (transactions 530 -> 400 ms, 0.67 -> 0.64 ms of CPU per call, wall
 * 1.11x -> 1.12x the ideal); 50 ms lengthened the run to 1.15x (bench/README.md).
 */
const COMMIT_SPACING_MS = 25;

/**
 * Writes gathered over one turn of the event loop (or, when the last commit was less than
 * `COMMIT_SPACING_MS` ago, until that much time has passed) and committed in one transaction. At
 * hundreds of calls a second, a transaction per call writes the same index pages to the WAL again
 * and again; one per batch writes them once. Each writer's promise settles only after the commit that
 * holds its write, so a reply is still used only once it is on disk. If the transaction fails, every
 * write in it fails with the error.
 *
 * A reply waiting for a commit was paid for and is lost to a kill -9. With `limitWaitingReplies(n)`
 * the queue commits at once, without waiting out the spacing, when the n-th reply arrives, so at most
 * n - 1 paid replies ever wait: a kill -9 repeats at most the calls on the wire plus those
 * (docs/design/run-ownership.md). Without a limit, how many wait depends on the call rate.
 */
export class CommitQueue {
  private pending: Pending[] = [];
  private waitingReplies = 0;
  private replyLimit = Number.POSITIVE_INFINITY;
  /** Cancels the scheduled flush; undefined when none is scheduled. */
  private cancelScheduled: (() => void) | undefined;
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

  /**
   * Commits at once whenever `replies` paid replies wait (a whole number >= 1; the smallest limit
   * asked for holds, since one store's queue may serve several sessions).
   */
  limitWaitingReplies(replies: number): void {
    if (!(Number.isInteger(replies) && replies >= 1)) throw new RangeError(`replies must be a whole number >= 1, got ${replies}`);
    this.replyLimit = Math.min(this.replyLimit, replies);
  }

  /** Runs `work` in the next commit; resolves once that commit is done. */
  enqueue(work: () => void, kind: WriteKind = 'other'): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ work, resolve, reject });
      if (kind === 'reply') this.waitingReplies += 1;
      if (this.waitingReplies >= this.replyLimit) this.flush();
      else if (this.cancelScheduled === undefined) this.schedule();
    });
  }

  private schedule(): void {
    const wait = this.lastCommitAt + COMMIT_SPACING_MS - performance.now();
    if (wait > 0) {
      const timer = setTimeout(() => this.flush(), wait);
      this.cancelScheduled = () => clearTimeout(timer);
    } else {
      const immediate = setImmediate(() => this.flush());
      this.cancelScheduled = () => clearImmediate(immediate);
    }
  }

  /** Commits what is waiting now (before a synchronous write that must follow it, and on close). */
  flush(): void {
    this.cancelScheduled?.();
    this.cancelScheduled = undefined;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.waitingReplies = 0;
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
