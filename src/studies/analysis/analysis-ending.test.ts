import { describe, expect, it } from 'vitest';
import type { LeaseHolder } from '../../runner/run-lease.js';
import type { SessionEnding } from '../../runner/session-ending.js';
import { analysisEnding, liveWriterOf } from './analysis-ending.js';

const COMPLETED: SessionEnding = { status: 'completed', exitCode: 0 };
const AT = '2026-12-01T12:00:00.000Z';
const HOLDER: LeaseHolder = { pid: 41, host: 'here', command: 'pmiyc run', acquiredAt: AT, heartbeatAt: AT };

describe('analysisEnding', () => {
  it.each([
    ['some usable labels', COMPLETED, { plannedLabels: 10, usableLabels: 3 }, COMPLETED],
    ['nothing planned', COMPLETED, { plannedLabels: 0, usableLabels: 0 }, COMPLETED],
    ['no usable label', COMPLETED, { plannedLabels: 10, usableLabels: 0 }, { status: 'failed', stopReason: 'no-usable-label', exitCode: 1 }],
    [
      'a run still being written',
      COMPLETED,
      { plannedLabels: 10, usableLabels: 10, sourceWriter: HOLDER },
      { status: 'interrupted', stopReason: 'source-running', exitCode: 1 },
    ],
    [
      'both: failed first',
      COMPLETED,
      { plannedLabels: 10, usableLabels: 0, sourceWriter: HOLDER },
      { status: 'failed', stopReason: 'no-usable-label', exitCode: 1 },
    ],
    [
      'a stop stays a stop',
      { status: 'interrupted', stopReason: 'SIGINT', exitCode: 130 },
      { plannedLabels: 10, usableLabels: 0 },
      { status: 'interrupted', stopReason: 'SIGINT', exitCode: 130 },
    ],
  ] as const)('%s', (_name, ending, study, expected) => {
    expect(analysisEnding(ending, study)).toEqual(expected);
  });
});

describe('liveWriterOf', () => {
  const run = {
    id: 7,
    name: 'tournament',
    createdAt: AT,
    status: 'running' as const,
    seed: 0,
    packageVersion: 'test',
    config: { kind: 'tournament' },
    storedConfig: {},
  };
  const world = (alive: boolean, now = '2026-12-01T12:00:05.000Z') => ({
    owner: { pid: 1, host: 'here', isProcessAlive: () => alive },
    now: () => new Date(now),
  });
  const store = (status: 'running' | 'completed', holder?: LeaseHolder) => ({
    findRun: () => ({ ...run, status }),
    leases: () => new Map(holder ? [[run.id, holder]] : []),
  });

  it('is the holder of a running run whose lease is alive', () => {
    expect(liveWriterOf(store('running', HOLDER), run, world(true))).toEqual(HOLDER);
  });

  it('is nobody for a finished run, a dead process, a silent heartbeat or no lease', () => {
    expect(liveWriterOf(store('completed', HOLDER), run, world(true))).toBeUndefined();
    expect(liveWriterOf(store('running', HOLDER), run, world(false))).toBeUndefined();
    expect(liveWriterOf(store('running', HOLDER), run, world(true, '2026-12-01T12:05:00.000Z'))).toBeUndefined();
    expect(liveWriterOf(store('running'), run, world(true))).toBeUndefined();
  });
});
