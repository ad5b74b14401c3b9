import { describe, expect, it } from 'vitest';
import { handRecord } from '../../../test/support/hand-records.js';
import { openingScores } from './consistency-openings.js';

describe('openingScores', () => {
  it('counts each opening once, however many persuaders and settings share it', () => {
    const records = ['p1', 'p2', 'p3'].flatMap((persuader) =>
      [3, 9].map((turns) => handRecord({ persuader, persuadee: 'ee', claim: 'c1', turns, persuadeeScores: [2, 3], final: 3 })),
    );
    records.push(handRecord({ persuader: 'p1', persuadee: 'ee', claim: 'c2', turns: 3, persuadeeScores: [4], final: 4 }));
    records.push(handRecord({ persuader: 'p1', persuadee: 'other', claim: 'c1', turns: 3, persuadeeScores: [1], final: 1 }));
    expect([...openingScores(records)]).toEqual([
      { model: 'ee', domain: 'subjective', claimIndex: expect.any(Number), claim: 'c1', score: 2 },
      { model: 'ee', domain: 'subjective', claimIndex: expect.any(Number), claim: 'c2', score: 4 },
      { model: 'other', domain: 'subjective', claimIndex: expect.any(Number), claim: 'c1', score: 1 },
    ]);
  });

  it('skips conversations without an initial score', () => {
    const record = { ...handRecord({ persuader: 'p', persuadee: 'ee', claim: 'c', turns: 3, persuadeeScores: [2], final: 2 }), initialScore: null };
    expect([...openingScores([record])]).toEqual([]);
  });
});
