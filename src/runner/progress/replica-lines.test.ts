import { describe, expect, it } from 'vitest';
import type { ReplicaPoolView } from '../../models/providers/replicas/replica-pool.js';
import { RunMeter } from '../run-meter.js';
import { progressBlock, progressLogLine } from './progress-lines.js';
import { describeReplicaUse, replicaLines } from './replica-lines.js';

const pool: ReplicaPoolView = {
  failovers: 3,
  replicas: [
    { endpoint: 'http://gpu-1:8000/v1', status: 'up', inFlight: 3, served: 120, failed: 0, timesOut: 0 },
    { endpoint: 'http://gpu-2:8000/v1', status: 'out', outForMs: 8_000, inFlight: 0, served: 45, failed: 3, timesOut: 1 },
    { endpoint: 'https://gpu-3:8000/v1', status: 'on trial', inFlight: 1, served: 0, failed: 1, timesOut: 1 },
  ],
};

describe('the replicas of a model in the progress display and the summary', () => {
  it('shows each replica with its calls in flight and done, its failures and its health', () => {
    expect(replicaLines(pool)).toEqual([
      'gpu-1:8000/v1: 3 in flight, 120 done · up',
      'gpu-2:8000/v1: 0 in flight, 45 done, 3 failed · out for 8.0 s',
      'gpu-3:8000/v1: 1 in flight, 0 done, 1 failed · on trial',
    ]);
    expect(replicaLines(pool, 2)).toEqual(['gpu-1:8000/v1: 3 in flight, 120 done · up', '… and 2 more replicas']);
    expect(replicaLines({ ...pool, replicaConcurrency: 4 })[0]).toBe('gpu-1:8000/v1: 3 in flight (limit 4), 120 done · up');
  });

  it('puts the replica lines under their model in the live block, and says how many are up in a log line', () => {
    const view = {
      meter: new RunMeter(),
      total: 4,
      unit: 'conversations',
      models: [{ model: 'qwen', replicas: pool }, { model: 'beta' }],
      elapsedMs: 1000,
      nowMs: 1000,
      eta: { status: 'unknown' as const },
      etaUnit: 'items' as const,
      spentUsd: 0,
      modelsWithoutPrice: [],
    };
    const lines = progressBlock(view);
    expect(lines.slice(2).map((line) => line.split(':')[0])).toEqual(['  qwen', '    gpu-1', '    gpu-2', '    gpu-3', '  beta']);
    expect(progressLogLine(view)).toMatch(/; qwen replicas 1\/3 up$/);
  });

  it('sums up which replica served how many calls and how many failed over', () => {
    expect(describeReplicaUse('qwen', pool)).toBe(
      "qwen's replicas: gpu-1:8000/v1 served 120, gpu-2:8000/v1 served 45 (failed 3, out 1 time), gpu-3:8000/v1 served 0 (failed 1, out 1 time); 3 calls failed over",
    );
  });
});
