import { describe, expect, it } from 'vitest';
import { resolveAgents } from '../agents.js';
import { callSharesOf } from './call-shares.js';

describe('callSharesOf', () => {
  it('gives every model of a round robin the same share', () => {
    const shares = callSharesOf({ persuaders: ['a', 'b', 'c'], persuadees: ['a', 'b', 'c'], settings: ['single', 'multi'] }, resolveAgents([], {}));
    expect([...shares.keys()]).toEqual(['a', 'b', 'c']);
    for (const share of shares.values()) expect(share).toBeCloseTo(1 / 3, 12);
  });

  it('splits a conversation as its turns: the persuadee opens, replies and answers last', () => {
    // Single-turn: 3 turns, 2 the persuadee's and 1 the persuader's.
    const shares = callSharesOf({ persuaders: ['a'], persuadees: ['b'], settings: ['single'] }, resolveAgents([], {}));
    expect(Object.fromEntries(shares)).toEqual({ b: 2 / 3, a: 1 / 3 });
  });

  it("counts a variant's calls as its model's (the model's limits hold them)", () => {
    const shares = callSharesOf({ persuaders: ['a', 'a+warm'], persuadees: ['b'], settings: ['single'] }, resolveAgents([], { warm: {} }));
    expect(Object.fromEntries(shares)).toEqual({ b: 2 / 3, a: 1 / 3 });
  });
});
