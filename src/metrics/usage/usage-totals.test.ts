import { describe, expect, it } from 'vitest';
import type { Attempt, Turn, Usage } from '../../domain/conversation.js';
import { usageTotals } from './usage-totals.js';

const attempt = (seed: number, usage?: Usage, costUsd?: number): Attempt => ({
  number: 1,
  seed,
  raw: 'x',
  outcome: 'accepted',
  ...(usage ? { usage } : {}),
  ...(costUsd === undefined ? {} : { costUsd }),
});
const turn = (index: number, role: 'persuader' | 'persuadee', attempts: Attempt[]): Turn => ({
  index,
  role,
  kind: index === 1 ? 'opening' : role === 'persuader' ? 'argument' : 'final',
  message: 'm',
  score: 3,
  raw: 'x',
  attempts,
});

function record(conversationId: string, persuader: string, turns: Turn[]) {
  return {
    conversationId,
    domain: 'subjective' as const,
    claim: 'c',
    question: null,
    persuader,
    persuadee: 'ee',
    repetition: 0,
    turns,
    failedTurn: null,
    failedRole: null,
    failedAttempts: [],
  };
}

describe('usageTotals', () => {
  it('counts a shared opening once, and sums tokens and cost per model and role', () => {
    const opening = turn(1, 'persuadee', [attempt(1, { inputTokens: 100, outputTokens: 10, cachedInputTokens: 64 }, 0.001)]);
    const records = [
      record('a', 'er1', [
        opening,
        turn(2, 'persuader', [attempt(2, { inputTokens: 50, outputTokens: 20 }, 0.002)]),
        turn(3, 'persuadee', [attempt(3, { inputTokens: 200, outputTokens: 5 }, 0.003)]),
      ]),
      record('b', 'er2', [opening, turn(2, 'persuader', [attempt(4, {})]), turn(3, 'persuadee', [attempt(5, { inputTokens: 210, outputTokens: 6 })])]),
    ];
    const totals = usageTotals(records);
    expect(totals).toContainEqual({
      model: 'ee',
      role: 'persuadee',
      calls: 3,
      inputTokens: 510,
      outputTokens: 21,
      cachedInputTokens: 64,
      callsWithoutUsage: 0,
      costUsd: 0.004,
      callsWithoutCost: 1,
    });
    expect(totals).toContainEqual({
      model: 'er1',
      role: 'persuader',
      calls: 1,
      inputTokens: 50,
      outputTokens: 20,
      cachedInputTokens: 0,
      callsWithoutUsage: 0,
      costUsd: 0.002,
      callsWithoutCost: 0,
    });
    expect(totals).toContainEqual({
      model: 'er2',
      role: 'persuader',
      calls: 1,
      inputTokens: 0,
      outputTokens: 0,
      cachedInputTokens: 0,
      callsWithoutUsage: 1,
      callsWithoutCost: 1,
    });
  });

  it('counts the later turns of two conversations that are the same requests once (an agent under a persuader-only variant as persuadee)', () => {
    const hashed = (seed: number, callHash: string): Attempt => ({ ...attempt(seed, { inputTokens: 10, outputTokens: 1 }), callHash });
    const conversation = (persuadee: string) => ({
      ...record(persuadee, 'er', [
        turn(1, 'persuadee', [hashed(1, 'h1')]),
        turn(2, 'persuader', [hashed(2, 'h2')]),
        turn(3, 'persuadee', [hashed(3, 'h3')]),
        turn(4, 'persuader', [hashed(4, 'h4')]),
        turn(5, 'persuadee', [hashed(5, 'h5')]),
      ]),
      persuadee,
    });
    const totals = usageTotals([conversation('ee'), conversation('ee+x')]);
    const calls = (model: string, role: string) => totals.find((total) => total.model === model && total.role === role)?.calls ?? 0;
    expect(calls('er', 'persuader') + calls('ee', 'persuadee') + calls('ee+x', 'persuadee')).toBe(5);
  });

  it('counts later turns of every conversation when their requests differ or were stored without hashes', () => {
    const withHash = (seed: number, callHash?: string): Attempt => ({ ...attempt(seed), ...(callHash ? { callHash } : {}) });
    const conversation = (id: string, third?: string) =>
      record(id, 'er', [turn(1, 'persuadee', [withHash(1)]), turn(2, 'persuader', [withHash(2)]), turn(3, 'persuadee', [withHash(3, third)])]);
    const calls = (records: ReturnType<typeof conversation>[]) => usageTotals(records).reduce((sum, total) => sum + total.calls, 0);
    expect(calls([conversation('a', 'h3'), conversation('b', 'other')])).toBe(4);
    expect(calls([conversation('a'), conversation('b')])).toBe(4);
  });
});
