import { describe, expect, it } from 'vitest';
import type { Attempt, Turn } from '../domain/conversation.js';
import { usageTotals } from './usage-totals.js';

const attempt = (seed: number, usage?: { inputTokens?: number; outputTokens?: number }, costUsd?: number): Attempt => ({
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
    const opening = turn(1, 'persuadee', [attempt(1, { inputTokens: 100, outputTokens: 10 }, 0.001)]);
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
      callsWithoutUsage: 0,
      costUsd: 0.002,
      callsWithoutCost: 0,
    });
    expect(totals).toContainEqual({ model: 'er2', role: 'persuader', calls: 1, inputTokens: 0, outputTokens: 0, callsWithoutUsage: 1, callsWithoutCost: 1 });
  });
});
