import { describe, expect, it } from 'vitest';
import {
  describeHeldRun,
  describeRunState,
  describeTakeOver,
  LEASE_STALE_MS,
  type LeaseHolder,
  type LeaseWorld,
  leaseLiveness,
  runState,
} from './run-lease.js';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const holder = (overrides: Partial<LeaseHolder> = {}): LeaseHolder => ({
  pid: 42,
  host: 'box',
  command: 'pmiyc run --resume',
  acquiredAt: '2026-11-30T11:00:00.000Z',
  heartbeatAt: new Date(NOW - 2_000).toISOString(),
  ...overrides,
});
const world = (alive: number[], host = 'box'): LeaseWorld => ({ pid: 7, host, nowMs: NOW, isProcessAlive: (pid) => alive.includes(pid) });

describe('leaseLiveness', () => {
  it('is alive with a recent heartbeat and, on this host, a live process', () => {
    expect(leaseLiveness(holder(), world([42]))).toEqual({ alive: true });
    expect(leaseLiveness(holder(), world([], 'other-box'))).toEqual({ alive: true });
  });

  it('is dead at once when its process on this host is gone (kill -9)', () => {
    expect(leaseLiveness(holder(), world([]))).toEqual({ alive: false, why: 'process 42 is gone' });
  });

  it('is dead after the stale time without a heartbeat, on any host', () => {
    const quiet = holder({ heartbeatAt: new Date(NOW - LEASE_STALE_MS - 1_000).toISOString() });
    expect(leaseLiveness(quiet, world([42]))).toEqual({ alive: false, why: `no heartbeat for ${LEASE_STALE_MS / 1000 + 1} s` });
    expect(leaseLiveness(quiet, world([], 'other-box')).alive).toBe(false);
  });
});

describe('runState', () => {
  it('tells a live run from a dead one stored as running', () => {
    expect(runState('running', undefined, holder(), world([42]))).toEqual({ status: 'running' });
    expect(runState('running', undefined, holder(), world([]))).toEqual({ status: 'interrupted', why: 'crash' });
    expect(runState('running', undefined, undefined, world([]))).toEqual({ status: 'interrupted', why: 'crash' });
  });

  it('keeps stored endings with their reason', () => {
    expect(runState('interrupted', 'SIGTERM', undefined, world([]))).toEqual({ status: 'interrupted', why: 'SIGTERM' });
    expect(runState('completed', undefined, undefined, world([]))).toEqual({ status: 'completed' });
  });
});

describe('describeRunState', () => {
  it('says a completed run with its failed count, and why a failed or interrupted one stopped', () => {
    expect(describeRunState({ status: 'completed' }, 0)).toBe('completed');
    expect(describeRunState({ status: 'completed' }, 1_029)).toBe('completed (1,029 failed)');
    expect(describeRunState({ status: 'completed', why: 'settled' }, 0)).toBe('completed (settled early)');
    expect(describeRunState({ status: 'completed', why: 'settled' }, 2)).toBe('completed (settled early; 2 failed)');
    expect(describeRunState({ status: 'failed', why: 'failures' }, 40)).toBe('failed (--max-failures)');
    expect(describeRunState({ status: 'failed', why: 'error' }, 0)).toBe('failed (error)');
    expect(describeRunState({ status: 'interrupted', why: 'budget' }, 3)).toBe('interrupted (budget)');
    expect(describeRunState({ status: 'interrupted', why: 'crash' }, 0)).toBe('interrupted (crash)');
    expect(describeRunState({ status: 'running' }, 2)).toBe('running');
  });
});

describe('describeHeldRun', () => {
  it('says who holds the run and what to do', () => {
    expect(describeHeldRun('paper', holder(), NOW)).toBe(
      'run paper is being written by another process (`pmiyc run --resume`, pid 42 on box, since 2026-11-30 11:00:00 UTC, last heartbeat 2 s ago): ' +
        'wait for it to end, or stop it with Ctrl-C there; if that process is gone, the run is free 30 s after its last heartbeat, or add --take-over to take it now',
    );
  });

  it('names a holder on this host by its pid, to stop it, and never offers --take-over for it', () => {
    const stop = 'stop it (Ctrl-C there, or `kill 42`), then resume the run with --resume: it is free as soon as that process ends';
    expect(describeHeldRun('paper', holder(), NOW, { here: true, takeOver: false })).toBe(
      'run paper is being written by another process on this host (`pmiyc run --resume`, pid 42, since 2026-11-30 11:00:00 UTC, last heartbeat 2 s ago): ' +
        `wait for it to end, or ${stop}`,
    );
    expect(describeHeldRun('paper', holder(), NOW, { here: true, takeOver: true })).toBe(
      'run paper is being written by a live process on this host (`pmiyc run --resume`, pid 42, since 2026-11-30 11:00:00 UTC, last heartbeat 2 s ago); ' +
        `--take-over takes a run only from a process on another host, since both would make the same calls and pay for them twice: ${stop}`,
    );
  });
});

describe('describeTakeOver', () => {
  it("takes a dead holder's run, saying why it is dead", () => {
    expect(describeTakeOver('paper', holder(), { alive: false, why: 'process 42 is gone' }, NOW, 8)).toBe(
      'taking run paper over from `pmiyc run --resume` (pid 42 on box; process 42 is gone)',
    );
  });

  it('bounds what a live holder on another host may pay twice: its calls in flight until its next heartbeat', () => {
    expect(describeTakeOver('paper', holder({ host: 'gpu-box' }), { alive: true }, NOW, 8)).toBe(
      'taking run paper over from `pmiyc run --resume` (pid 42 on gpu-box, last heartbeat 2 s ago; --take-over): ' +
        'if that process still runs, it sees this at its next heartbeat, within 5 s, and starts no call after it; ' +
        'until then a call both processes make is paid twice: at most its calls in flight over those 5 s, up to its --concurrency at a time (8 in this session)',
    );
  });
});
