import { describe, expect, it } from 'vitest';
import { handRecord } from '../../test/support/hand-records.js';
import { persuadeeTrajectory, TurnCurveTally } from './turn-curves.js';

describe('persuadeeTrajectory (Figure 6)', () => {
  it('reads the persuadee at its planned positions 1, 3, ..., t', () => {
    const record = handRecord({ persuader: 'a', persuadee: 'b', claim: 'c1', turns: 9, persuadeeScores: [2, 3, 3, 4], final: 4 });
    expect(persuadeeTrajectory(record)).toEqual([
      { turn: 1, score: 2 },
      { turn: 3, score: 3 },
      { turn: 5, score: 3 },
      { turn: 7, score: 4 },
      { turn: 9, score: 4 },
    ]);
  });

  it('pads with 5 after an early stop up to the final position, where the real final decision stands', () => {
    // Stopped at turn 3 (a reply of 5); the final decision is turn 4 in the record, 2 on the scale.
    const record = handRecord({ persuader: 'a', persuadee: 'b', claim: 'c1', turns: 9, persuadeeScores: [2, 5], final: 2 });
    expect(record.turns.map((turn) => `${turn.index}:${turn.kind}`)).toEqual(['1:opening', '2:argument', '3:reply', '4:final']);
    expect(persuadeeTrajectory(record)).toEqual([
      { turn: 1, score: 2 },
      { turn: 3, score: 5 },
      { turn: 5, score: 5 },
      { turn: 7, score: 5 },
      { turn: 9, score: 2 },
    ]);
  });

  it('pads nothing when the stop comes at the last reply, and ignores failed conversations', () => {
    const late = handRecord({ persuader: 'a', persuadee: 'b', claim: 'c1', turns: 9, persuadeeScores: [1, 2, 3, 5], final: 5 });
    expect(persuadeeTrajectory(late)?.map((point) => point.score)).toEqual([1, 2, 3, 5, 5]);
    const failed = handRecord({ persuader: 'a', persuadee: 'b', claim: 'c1', turns: 9, persuadeeScores: [1], failure: { reason: 'format', attempts: 3 } });
    expect(persuadeeTrajectory(failed)).toBeUndefined();
  });

  it('places a single-turn final decision at turn 3', () => {
    const record = handRecord({ persuader: 'a', persuadee: 'b', claim: 'c1', turns: 3, persuadeeScores: [3], final: 4 });
    expect(persuadeeTrajectory(record)).toEqual([
      { turn: 1, score: 3 },
      { turn: 3, score: 4 },
    ]);
  });
});

describe('TurnCurveTally', () => {
  it('averages per persuader and position, padded conversations included', () => {
    const tally = new TurnCurveTally();
    tally.add(handRecord({ persuader: 'a', persuadee: 'b', claim: 'c1', turns: 7, persuadeeScores: [2, 3, 3], final: 4 }));
    tally.add(handRecord({ persuader: 'a', persuadee: 'b', claim: 'c2', turns: 7, persuadeeScores: [4, 5], final: 4 }));
    tally.add(handRecord({ persuader: 'x', persuadee: 'b', claim: 'c2', turns: 7, persuadeeScores: [4, 4, 4], final: 4 }));
    const [curve] = tally.result().filter((entry) => entry.persuader === 'a');
    expect(curve).toEqual({
      domain: 'subjective',
      setting: 'multi',
      turnsPlanned: 7,
      persuader: 'a',
      points: [
        { turn: 1, meanScore: 3, n: 2 },
        { turn: 3, meanScore: 4, n: 2 },
        { turn: 5, meanScore: 4, n: 2 },
        { turn: 7, meanScore: 4, n: 2 },
      ],
    });
  });
});
