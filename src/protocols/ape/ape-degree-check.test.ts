import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoredTurn } from '../../../test/support/ape-conversations.js';
import { describeWithTestData } from '../../../test/support/test-data.js';
import { apeDegreeCheck } from './ape-degree-check.js';
import { APE_DEGREE_LEVELS } from './ape-metrics.js';
import type { ApeScoredConversation, ApeScoredTurn } from './ape-scored-conversation.js';

const conversationOf = (persuader: string, topicIndex: number, turns: ApeScoredTurn[]): ApeScoredConversation => ({
  persuader,
  topicIndex,
  category: 'Conspiracy',
  direction: 'into',
  turns,
});

/** Conversations whose turn `turn` fills `matrix[instructed][read]` (one conversation per count). */
function filling(matrix: number[][], turn = 1): ApeScoredConversation[] {
  let topicIndex = 0;
  return matrix.flatMap((row, instructed) =>
    row.flatMap((count, read) =>
      Array.from({ length: count }, () =>
        conversationOf('gpt-4o', topicIndex++, [scoredTurn(turn, read === 0 ? 'no-attempt' : 'attempt', { instructedDegree: instructed, readDegree: read })]),
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
    expect([table!.turns, table!.unread, table!.uninstructed, table!.outOfScale]).toEqual([600, 0, 0, 0]);
  });

  it('keeps each persuader and turn apart, counts turns without a read or an instructed degree and turns off the scale, and leaves an empty row NaN', () => {
    const conversations = [
      conversationOf('b', 0, [
        scoredTurn(1, 'attempt', { instructedDegree: 2, readDegree: 1 }),
        scoredTurn(2, 'refusal', { instructedDegree: 2, readDegree: null }),
        scoredTurn(3, 'attempt', { instructedDegree: 2, readDegree: 3 }),
      ]),
      conversationOf('a', 1, [scoredTurn(1, 'attempt', { instructedDegree: 0, readDegree: 0 }), scoredTurn(2, null, { instructedDegree: 0.5, readDegree: 1 })]),
      conversationOf('a', 2, [scoredTurn(1, 'attempt', { instructedDegree: null, readDegree: 1 })]),
    ];
    const tables = apeDegreeCheck(conversations, 3, 3);
    expect(tables.map(({ model, turn }) => `${model}${turn}`)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'b3']);
    const [a1, a2, a3, b1, b2, b3] = tables;
    expect(a1!.counts).toEqual([
      [1, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ]);
    expect([a1!.agreement, a1!.turns, a1!.uninstructed]).toEqual([1, 1, 1]);
    expect(a1!.rowShares[0]).toEqual([1, 0, 0]);
    expect(a1!.rowShares[1]!.every(Number.isNaN)).toBe(true);
    expect([a2!.turns, a2!.outOfScale, a3!.turns]).toEqual([0, 1, 0]);
    expect(a3!.agreement).toBeNaN();
    expect([b1!.counts[2], b1!.agreement]).toEqual([[0, 1, 0], 0]);
    expect([b2!.unread, b2!.turns]).toEqual([1, 0]);
    expect([b3!.outOfScale, b3!.turns]).toEqual([1, 0]);
  });
});

describeWithTestData("APE's degree check against the benchmark's published GPT-4o run", (testData) => {
  it("gives every turn's row-normalised table and accuracy of all_metrics.json from its raw counts, on the config's scale", () => {
    const folder = join(testData.data, 'benchmarks', 'ape');
    const published = JSON.parse(readFileSync(join(folder, 'assets/example_gpt4o/all_metrics.json'), 'utf8')) as {
      confusion_matrices: Array<{ turn: number; raw_matrix: number[][]; normalized_matrix: number[][] }>;
      accuracy_by_turn: number[];
      avg_persuasion_by_turn: number[];
    };
    const scale = Number(/^evaluation_scale: (\d+)$/m.exec(readFileSync(join(folder, 'configs/config.yaml'), 'utf8'))?.[1]);
    expect(scale).toBe(APE_DEGREE_LEVELS);
    for (const { turn, raw_matrix: raw, normalized_matrix: normalized } of published.confusion_matrices) {
      const [table] = apeDegreeCheck(filling(raw, turn), APE_DEGREE_LEVELS, turn).filter((entry) => entry.turn === turn);
      expect(table!.counts).toEqual(raw);
      expect(table!.rowShares).toEqual(normalized);
      expect(table!.agreement).toBe(published.accuracy_by_turn[turn - 1]);
      // The benchmark's attempt rate is the share read as an attempt (degree 1): the table's second column.
      expect((raw[0]![1]! + raw[1]![1]!) / table!.turns).toBe(published.avg_persuasion_by_turn[turn - 1]);
    }
  });
});
