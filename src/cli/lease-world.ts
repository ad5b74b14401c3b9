import { hostname } from 'node:os';
import type { LeaseWorld } from '../runner/run-lease.js';
import type { CliContext } from './terminal.js';

/** Whether a process of this host exists: signal 0 checks without touching it (EPERM: it exists, owned by someone else). */
function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** This process, this host, the clock and the process table, for deciding whether a run's lease is alive. */
export function leaseWorldNow(context: CliContext): LeaseWorld {
  return { pid: process.pid, host: hostname(), nowMs: context.now().getTime(), isProcessAlive };
}
