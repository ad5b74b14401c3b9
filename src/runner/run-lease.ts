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

/** Where the holder of a run runs, seen from the process that asks, and whether it asked with --take-over. */
export interface HeldRunContext {
  /** The holder runs on this host (its process can be checked, and stopped, from here). */
  readonly here: boolean;
  readonly takeOver: boolean;
}

/**
 * The one line that tells a second writer who holds the run and what to do. A live holder on this host is
 * never taken over, --take-over or not: both processes would make the same calls, and pay them twice.
 */
export function describeHeldRun(runName: string, holder: LeaseHolder, nowMs: number, context: HeldRunContext = { here: false, takeOver: false }): string {
  const since = holder.acquiredAt.replace('T', ' ').slice(0, 19);
  const heartbeat = `last heartbeat ${secondsSince(holder.heartbeatAt, nowMs)} s ago`;
  if (context.here) {
    const who = `(\`${holder.command}\`, pid ${holder.pid}, since ${since} UTC, ${heartbeat})`;
    const stop = `stop it (Ctrl-C there, or \`kill ${holder.pid}\`), then resume the run with --resume: it is free as soon as that process ends`;
    return context.takeOver
      ? `run ${runName} is being written by a live process on this host ${who}; --take-over takes a run only from a process on another host, ` +
          `since both would make the same calls and pay for them twice: ${stop}`
      : `run ${runName} is being written by another process on this host ${who}: wait for it to end, or ${stop}`;
  }
  return (
    `run ${runName} is being written by another process (\`${holder.command}\`, pid ${holder.pid} on ${holder.host}, since ${since} UTC, ${heartbeat}): ` +
    `wait for it to end, or stop it with Ctrl-C there; ` +
    `if that process is gone, the run is free ${Math.round(LEASE_STALE_MS / 1000)} s after its last heartbeat, or add --take-over to take it now`
  );
}

/**
 * The notice of a run taken over. A dead holder's run is taken as it is; a live-looking one on another host
 * (--take-over) may still be working: it stops starting calls at its next heartbeat, so until then, at most
 * `LEASE_HEARTBEAT_MS`, its calls in flight (up to its concurrency at a time) may be made by both and paid twice.
 */
export function describeTakeOver(runName: string, replaced: LeaseHolder, liveness: LeaseLiveness, nowMs: number, concurrency: number): string {
  const from = `taking run ${runName} over from \`${replaced.command}\``;
  if (!liveness.alive) return `${from} (pid ${replaced.pid} on ${replaced.host}; ${liveness.why})`;
  const heartbeatSeconds = Math.round(LEASE_HEARTBEAT_MS / 1000);
  return (
    `${from} (pid ${replaced.pid} on ${replaced.host}, last heartbeat ${secondsSince(replaced.heartbeatAt, nowMs)} s ago; --take-over): ` +
    `if that process still runs, it sees this at its next heartbeat, within ${heartbeatSeconds} s, and starts no call after it; ` +
    `until then a call both processes make is paid twice: at most its calls in flight over those ${heartbeatSeconds} s, ` +
    `up to its --concurrency at a time (${formatCount(concurrency)} in this session)`
  );
}

/** What the store says of a run, and what that means now that leases can be checked. */
export type StoredRunStatus = 'running' | 'completed' | 'failed' | 'interrupted';

export interface RunState {
  readonly status: StoredRunStatus;
  /** Why a failed or interrupted run stopped: error, failures; a signal (SIGINT, SIGTERM, SIGHUP), budget, auth, lease, disk, crash. */
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

/**
 * Stored reasons shown in other words: a stop on too many failed items is the flag's doing; `disk` is a full one;
 * an analysis study with no usable label, or over a run that was still being written (docs/design/techniques.md).
 */
const WHY_SHOWN: Readonly<Record<string, string>> = {
  failures: '--max-failures',
  disk: 'disk full',
  'no-usable-label': 'no usable label',
  'source-running': 'its run was still being written',
};

/**
 * A run's status in the words `pmiyc runs`, the closing lines of a session and the viewer share:
 * "completed", "completed (29 failed)", "completed (settled early)" (a sequential run that stopped
 * starting claims once everything was settled: `--until settled`), "failed (--max-failures)",
 * "failed (error)", "interrupted (budget)", "interrupted (disk full)", "interrupted (crash)", "running".
 */
export function describeRunState(state: RunState, failedItems: number): string {
  if (state.status === 'completed') {
    const notes = [...(state.why === 'settled' ? ['settled early'] : []), ...(failedItems > 0 ? [`${formatCount(failedItems)} failed`] : [])];
    return notes.length > 0 ? `completed (${notes.join('; ')})` : 'completed';
  }
  return state.why ? `${state.status} (${WHY_SHOWN[state.why] ?? state.why})` : state.status;
}
