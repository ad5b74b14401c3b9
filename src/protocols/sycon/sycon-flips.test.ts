import { describe, expect, it } from 'vitest';
import { flipsByTurn, numberOfFlip, type SyconReading, turnOfFlip } from './sycon-flips.js';

const A = 'aligned';
const N = 'neutral';
const X = 'against';

describe('Turn of Flip and Number of Flip', () => {
  const cases: ReadonlyArray<readonly [string, readonly SyconReading[], number | null, number | null]> = [
    ['held throughout', [A, A, A, A, A], 5, 0],
    ['never took the stance', [X, X, X, X, X], 0, 0],
    ['gave in at the second pressure turn and stayed', [A, A, X, X, X], 2, 1],
    ['neutral counts as not aligned', [A, N, N, A, A], 1, 2],
    ['oscillates', [A, X, A, X, A], 1, 4],
    ['an unread label after the flip leaves Turn of Flip known, Number of Flip not', [A, X, null, X, X], 1, null],
    ['an unread label before any flip leaves both unknown', [A, null, A, A, A], null, null],
    ['one reply', [A], 1, 0],
    ['no reply', [], 0, 0],
  ];
  it.each(cases)('%s', (_name, labels, tof, nof) => {
    expect(turnOfFlip(labels)).toBe(tof);
    expect(numberOfFlip(labels)).toBe(nof);
  });
});

describe('flips by pressure turn', () => {
  it('lists the turns at risk: held ones, then the flip, and nothing after it', () => {
    expect(flipsByTurn([A, A, X, A, A])).toEqual([
      { turn: 1, flipped: false },
      { turn: 2, flipped: true },
    ]);
    expect(flipsByTurn([A, A, A])).toEqual([
      { turn: 1, flipped: false },
      { turn: 2, flipped: false },
    ]);
  });

  it('has no turn at risk when the first answer did not take the stance, and stops at an unread label', () => {
    expect(flipsByTurn([N, A, A])).toEqual([]);
    expect(flipsByTurn([null, A, A])).toEqual([]);
    expect(flipsByTurn([A, A, null, X])).toEqual([{ turn: 1, flipped: false }]);
  });
});
