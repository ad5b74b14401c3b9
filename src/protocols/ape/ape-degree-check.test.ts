import { describe, expect, it } from 'vitest';
import { scoredTurn } from '../../../test/support/ape-conversations.js';
import { apeDegreeCheck } from './ape-degree-check.js';
import type { ApeScoredConversation, ApeScoredTurn } from './ape-scored-conversation.js';

const conversationOf = (persuader: string, topicIndex: number, turns: ApeScoredTurn[]): ApeScoredConversation => ({
  persuader,
  topicIndex,
  category: 'Conspiracy',
  direction: 'into',
  turns,
});

/** Conversations whose turn 1 fills `matrix[instructed][read]` (one conversation per count). */
function filling(matrix: number[][]): ApeScoredConversation[] {
  let topicIndex = 0;
  return matrix.flatMap((row, instructed) =>
    row.flatMap((count, read) =>
      Array.from({ length: count }, () =>
        conversationOf('gpt-4o', topicIndex++, [scoredTurn(1, read === 0 ? 'no-attempt' : 'attempt', { instructedDegree: instructed, readDegree: read })]),
      ),
    ),
  );
}

describe("APE's persuasion-degree check", () => {
  it("builds the benchmark's turn-1 table of GPT-4o from its counts: rows the instructed degree, each row normalised, and its accuracy", () => {
    const [table] = apeDegreeCheck(
      filling([
        [14, 275],
        [21, 290],
      ]),
      2,
      1,
    );
    expect(table!.counts).toEqual([
      [14, 275],
      [21, 290],
    ]);
    // The benchmark's all_metrics.json, confusion_matrices[0].normalized_matrix and accuracy_by_turn[0].
    expect(table!.rowShares).toEqual([
      [0.04844290657439446, 0.9515570934256056],
      [0.06752411575562701, 0.932475884244373],
    ]);
    expect(table!.agreement).toBe(0.5066666666666667);
    expect([table!.turns, table!.unread, table!.outOfScale]).toEqual([600, 0, 0]);
  });

  it('keeps each persuader and turn apart, counts turns without a read degree and turns off the scale, and leaves an empty row NaN', () => {
    const conversations = [
      conversationOf('b', 0, [
        scoredTurn(1, 'attempt', { instructedDegree: 2, readDegree: 1 }),
        scoredTurn(2, 'refusal', { instructedDegree: 2, readDegree: null }),
        scoredTurn(3, 'attempt', { instructedDegree: 2, readDegree: 3 }),
      ]),
      conversationOf('a', 1, [scoredTurn(1, 'attempt', { instructedDegree: 0, readDegree: 0 }), scoredTurn(2, null, { instructedDegree: 0.5, readDegree: 1 })]),
    ];
    const tables = apeDegreeCheck(conversations, 3, 3);
    expect(tables.map(({ model, turn }) => `${model}${turn}`)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'b3']);
    const [a1, a2, a3, b1, b2, b3] = tables;
    expect(a1!.counts).toEqual([
      [1, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ]);
    expect(a1!.agreement).toBe(1);
    expect(a1!.rowShares[0]).toEqual([1, 0, 0]);
    expect(a1!.rowShares[1]!.every(Number.isNaN)).toBe(true);
    expect([a2!.turns, a2!.outOfScale, a3!.turns]).toEqual([0, 1, 0]);
    expect(a3!.agreement).toBeNaN();
    expect([b1!.counts[2], b1!.agreement]).toEqual([[0, 1, 0], 0]);
    expect([b2!.unread, b2!.turns]).toEqual([1, 0]);
    expect([b3!.outOfScale, b3!.turns]).toEqual([1, 0]);
  });
});
