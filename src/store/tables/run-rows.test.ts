import { describe, expect, it } from 'vitest';
import { currentStatus } from './run-rows.js';

const row = (status: string, stopReason: string | null, options: { planned?: number; command?: string } = {}) => ({
  status: status as 'failed',
  stop_reason: stopReason,
  planned_conversations: options.planned ?? null,
  config: JSON.stringify(options.command ? { command: options.command } : {}),
});

describe('currentStatus', () => {
  it('keeps what this pmiyc stores as it is', () => {
    expect(currentStatus(row('completed', null), () => 0)).toEqual({ status: 'completed' });
    expect(currentStatus(row('failed', 'failures'), () => 0)).toEqual({ status: 'failed', stopReason: 'failures' });
    expect(currentStatus(row('interrupted', 'budget'), () => 0)).toEqual({ status: 'interrupted', stopReason: 'budget' });
    expect(currentStatus(row('running', null), () => 0)).toEqual({ status: 'running' });
  });

  it('reads a failed run without a reason (an earlier pmiyc) as completed once all it planned is stored', () => {
    expect(currentStatus(row('failed', null, { planned: 324 }), () => 324)).toEqual({ status: 'completed' });
    expect(currentStatus(row('failed', null, { planned: 324 }), () => 200)).toEqual({ status: 'failed', stopReason: 'failures' });
    expect(currentStatus(row('failed', null), () => 200)).toEqual({ status: 'failed' });
    // A study stored its failed items nowhere: its plan ran to its end.
    expect(currentStatus(row('failed', null, { command: 'judge' }), () => 0)).toEqual({ status: 'completed' });
  });

  it('reads the stops now called failed', () => {
    expect(currentStatus(row('interrupted', 'failures'), () => 0)).toEqual({ status: 'failed', stopReason: 'failures' });
    expect(currentStatus(row('interrupted', 'error'), () => 0)).toEqual({ status: 'failed', stopReason: 'error' });
  });
});
