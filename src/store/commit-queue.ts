import type { Database, Transaction } from 'better-sqlite3';

interface Pending {
  readonly work: () => void;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Writes gathered over one turn of the event loop and committed in one transaction. At hundreds of
 * calls a second, a transaction per call writes the same index pages to the WAL again and again;
 * one per tick writes them once. Each writer's promise settles only after the commit that holds its
 * write, so a reply is still used only once it is on disk. If the transaction fails, every write in
 * it fails with the error.
 */
export class CommitQueue {
  private pending: Pending[] = [];
  private scheduled = false;
  private readonly commit: Transaction<(batch: readonly Pending[]) => void>;
  private readonly rollbackListeners: Array<() => void> = [];

  constructor(database: Database) {
    this.commit = database.transaction((batch: readonly Pending[]) => {
      for (const entry of batch) entry.work();
    });
  }

  /** Calls `listener` whenever a commit fails, before its writers are told: what they wrote is gone. */
  onRollback(listener: () => void): void {
    this.rollbackListeners.push(listener);
  }

  /** Runs `work` in the next commit; resolves once that commit is done. */
  enqueue(work: () => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ work, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits what is waiting now (before a synchronous write that must follow it, and on close). */
  flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    try {
      // IMMEDIATE: the write lock is taken (waiting as busy_timeout allows) before the first read of
      // the batch. A deferred transaction that reads first cannot upgrade once another process has
      // written meanwhile: SQLite then fails it at once with "database is locked".
      this.commit.immediate(batch);
    } catch (error) {
      for (const listener of this.rollbackListeners) listener();
      for (const entry of batch) entry.reject(error);
      return;
    }
    for (const entry of batch) entry.resolve();
  }
}
