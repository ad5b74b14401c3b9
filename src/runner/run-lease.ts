import { formatCount } from '../domain/text-labels.js';

/**
 * Run ownership: one process writes a run at a time. The writer holds a lease in the store and
 * renews its heartbeat; a second writer is refused while the lease is alive, and takes over a
 * dead one. Pure: the clock, the host and the process table are passed in.
 */

/** Who holds a run's lease. Times are ISO strings (UTC). */
export interface LeaseHolder {
  readonly pid: number;
  readonly host: string;
  /** The command line, e.g. `pmiyc run`, to tell the user what holds the run. */
  readonly command: string;
  readonly acquiredAt: string;
  readonly heartbeatAt: string;
}

/** How often the holder renews its heartbeat. */
export const LEASE_HEARTBEAT_MS = 5_000;
/** A lease without a heartbeat for this long is dead, whatever its process does. */
export const LEASE_STALE_MS = 30_000;

export interface LeaseWorld {
  readonly pid: number;
  readonly host: string;
  readonly nowMs: number;
  /** Whether a process of this host exists (signal 0). */
  readonly isProcessAlive: (pid: number) => boolean;
}

export type LeaseLiveness = { readonly alive: true } | { readonly alive: false; readonly why: string };

const secondsSince = (iso: string, nowMs: number) => Math.max(0, Math.round((nowMs - Date.parse(iso)) / 1000));

/**
 * Alive while its heartbeat is recent and, on this host, its process still exists: a process that
 * died on this host frees the run at once, one elsewhere after `LEASE_STALE_MS`.
 */
export function leaseLiveness(holder: LeaseHolder, world: LeaseWorld): LeaseLiveness {
  const quietMs = world.nowMs - Date.parse(holder.heartbeatAt);
  if (holder.host === world.host && !world.isProcessAlive(holder.pid)) return { alive: false, why: `process ${holder.pid} is gone` };
  if (!(quietMs <= LEASE_STALE_MS)) return { alive: false, why: `no heartbeat for ${secondsSince(holder.heartbeatAt, world.nowMs)} s` };
  return { alive: true };
}

/** The one line that tells a second writer who holds the run and what to do. */
export function describeHeldRun(runName: string, holder: LeaseHolder, nowMs: number): string {
  const since = holder.acquiredAt.replace('T', ' ').slice(0, 19);
  return (
    `run ${runName} is being written by another process (\`${holder.command}\`, pid ${holder.pid} on ${holder.host}, since ${since} UTC, ` +
    `last heartbeat ${secondsSince(holder.heartbeatAt, nowMs)} s ago): wait for it to end, or stop it with Ctrl-C there; ` +
    `if that process is gone, the run is free ${Math.round(LEASE_STALE_MS / 1000)} s after its last heartbeat, or add --take-over to take it now`
  );
}

/** What the store says of a run, and what that means now that leases can be checked. */
export type StoredRunStatus = 'running' | 'completed' | 'failed' | 'interrupted';

export interface RunState {
  readonly status: StoredRunStatus;
  /** Why a failed or interrupted run stopped: error, failures; a signal (SIGINT, SIGTERM, SIGHUP), budget, auth, lease, crash. */
  readonly why?: string;
}

/**
 * The honest status of a run: stored as running but with no live lease means its process died
 * (killed, crashed, power cut) without a word; that is an interruption, resumable like any other.
 */
export function runState(stored: StoredRunStatus, stopReason: string | undefined, holder: LeaseHolder | undefined, world: LeaseWorld): RunState {
  if (stored !== 'running') return { status: stored, ...(stopReason ? { why: stopReason } : {}) };
  if (holder && leaseLiveness(holder, world).alive) return { status: 'running' };
  return { status: 'interrupted', why: 'crash' };
}

/** Stored reasons shown in other words: a stop on too many failed items is the flag's doing. */
const WHY_SHOWN: Readonly<Record<string, string>> = { failures: '--max-failures' };

/**
 * A run's status in the words `pmiyc runs`, the closing lines of a session and the viewer share:
 * "completed", "completed (29 failed)", "failed (--max-failures)", "failed (error)",
 * "interrupted (budget)", "interrupted (crash)", "running".
 */
export function describeRunState(state: RunState, failedItems: number): string {
  if (state.status === 'completed') return failedItems > 0 ? `completed (${formatCount(failedItems)} failed)` : 'completed';
  return state.why ? `${state.status} (${WHY_SHOWN[state.why] ?? state.why})` : state.status;
}
