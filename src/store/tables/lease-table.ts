import type { Database, Statement } from 'better-sqlite3';
import type { LeaseHolder } from '../../runner/run-lease.js';

interface LeaseRow {
  pid: number;
  host: string;
  command: string;
  acquired_at: string;
  heartbeat_at: string;
}

const toHolder = (row: LeaseRow): LeaseHolder => ({
  pid: row.pid,
  host: row.host,
  command: row.command,
  acquiredAt: row.acquired_at,
  heartbeatAt: row.heartbeat_at,
});

/**
 * The `run_leases` table: at most one writer per run. Taking a lease is one IMMEDIATE transaction
 * (read the holder, decide, write), so two processes can never both believe they hold it.
 */
export class LeaseTable {
  private readonly select: Statement<[number], LeaseRow>;
  private readonly upsert: Statement;
  private readonly beat: Statement;
  private readonly remove: Statement;

  constructor(private readonly database: Database) {
    this.select = database.prepare('SELECT pid, host, command, acquired_at, heartbeat_at FROM run_leases WHERE run_id = ?');
    this.upsert = database.prepare('INSERT OR REPLACE INTO run_leases (run_id, pid, host, command, acquired_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?)');
    this.beat = database.prepare('UPDATE run_leases SET heartbeat_at = ? WHERE run_id = ? AND pid = ? AND host = ?');
    this.remove = database.prepare('DELETE FROM run_leases WHERE run_id = ? AND pid = ? AND host = ?');
  }

  holderOf(runId: number): LeaseHolder | undefined {
    const row = this.select.get(runId);
    return row ? toHolder(row) : undefined;
  }

  /**
   * Takes the run's lease for `holder` unless `mayTake` refuses the current holder; returns the
   * holder it replaced (undefined when the lease was free) or throws what `mayTake` threw.
   */
  take(runId: number, holder: LeaseHolder, mayTake: (current: LeaseHolder) => void): LeaseHolder | undefined {
    return this.database
      .transaction(() => {
        const current = this.holderOf(runId);
        if (current) mayTake(current);
        this.upsert.run(runId, holder.pid, holder.host, holder.command, holder.acquiredAt, holder.heartbeatAt);
        return current;
      })
      .immediate();
  }

  /** Renews the holder's heartbeat; false when the lease is no longer this holder's (taken over). */
  heartbeat(runId: number, holder: LeaseHolder, at: string): boolean {
    return this.beat.run(at, runId, holder.pid, holder.host).changes === 1;
  }

  release(runId: number, holder: LeaseHolder): void {
    this.remove.run(runId, holder.pid, holder.host);
  }

  /** Every lease, by run id (for listing runs with their live status). */
  all(): Map<number, LeaseHolder> {
    const rows = this.database.prepare('SELECT run_id, pid, host, command, acquired_at, heartbeat_at FROM run_leases').all() as Array<
      LeaseRow & { run_id: number }
    >;
    return new Map(rows.map((row) => [row.run_id, toHolder(row)]));
  }
}
