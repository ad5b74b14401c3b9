import { describe, expect, it } from 'vitest';
import type { AgreementScore } from '../../domain/agreement-score.js';
import { type AnnotationRow, analyzeReliability, confusionMatrix, summarizeDifferences } from './annotation-agreement.js';

const row = (conversationId: string, turnIndex: number, annotator: string, modelScore: number, score: number, persuadee = 'sim/weak'): AnnotationRow => ({
  conversationId,
  turnIndex,
  annotator,
  score: score as AgreementScore,
  modelScore: modelScore as AgreementScore,
  persuadee,
  domain: conversationId === 'c2' ? 'misinformation' : 'subjective',
});

/**
 * Two conversations, annotators a and b, one label missing on each side:
 *   c1 turn 1 (model 2): a 2, b 3        c1 turn 3 (model 4): a 4, b 4
 *   c2 turn 1 (model 1): a 2             c2 turn 3 (model 5): a 5, b 4        c2 turn 5 (model 3): b 1
 * Differences model - label: 0, -1, 0, 0, -1, 0, +1, +2 (8 labels): exact 4/8, MAD 5/8, signed 1/8,
 * within one 7/8. Turns: majority labels tie on c1t1 and c2t3; of the other three only c1t3 matches;
 * |model - mean label| = .5, 0, 1, .5, 2 -> 4/5. Shared turns c1t1, c1t3, c2t3: pairs agree 1 of 3;
 * coincidences o23 = o32 = 1, o44 = 2, o45 = o54 = 1, n = 6, marginals n2..n5 = 1, 1, 3, 1:
 * interval alpha = 1 - 5 * 4 / 64 = 11/16; nominal 1 - 5 * 4 / 24 = 1/6;
 * ordinal (delta^2: 23 -> 1, 45 -> 4, 24 -> 9, 25 -> 25, 34 -> 4, 35 -> 16) 1 - 5 * 10 / 186 = 68/93.
 */
const ROWS: AnnotationRow[] = [
  row('c1', 1, 'a', 2, 2),
  row('c1', 1, 'b', 2, 3),
  row('c1', 3, 'a', 4, 4),
  row('c1', 3, 'b', 4, 4),
  row('c2', 1, 'a', 1, 2, 'sim/stubborn'),
  row('c2', 3, 'a', 5, 5, 'sim/stubborn'),
  row('c2', 3, 'b', 5, 4, 'sim/stubborn'),
  row('c2', 5, 'b', 3, 1, 'sim/stubborn'),
];
const OPTIONS = { replicates: 500, confidence: 0.95, seed: 7 };

describe('analyzeReliability', () => {
  const result = analyzeReliability(ROWS, OPTIONS);

  it('compares every label with the model self-report', () => {
    expect(result).toMatchObject({ labels: 8, turns: 5, conversations: 2, meanSignedDifference: 1 / 8, withinOne: 7 / 8 });
    expect(result.exactMatch).toMatchObject({ value: 0.5, n: 8 });
    expect(result.meanAbsoluteDifference).toMatchObject({ value: 5 / 8, n: 8 });
  });

  it('counts the confusion matrix as model score x annotator label', () => {
    const expected = [
      [0, 1, 0, 0, 0],
      [0, 1, 1, 0, 0],
      [1, 0, 0, 0, 0],
      [0, 0, 0, 2, 0],
      [0, 0, 0, 1, 1],
    ];
    expect(result.confusion).toEqual(expected);
    expect(result.confusion.flat().reduce((sum, count) => sum + count, 0)).toBe(8);
  });

  it('compares with the majority and the mean of each turn, counting ties', () => {
    expect(result.consensus).toEqual({ turns: 5, majorityTurns: 3, ties: 2, majorityExactMatch: 1 / 3, meanAbsoluteDifferenceFromMean: 4 / 5 });
  });

  it('measures agreement among annotators on the turns they share', () => {
    const agreement = result.interAnnotator;
    expect(agreement).toMatchObject({ annotators: 2, sharedTurns: 3, pairableValues: 6, pairs: 3 });
    expect(agreement.pairwiseExactAgreement).toBeCloseTo(1 / 3, 12);
    expect(agreement.alphaInterval).toBeCloseTo(11 / 16, 12);
    expect(agreement.alphaNominal).toBeCloseTo(1 / 6, 12);
    expect(agreement.alphaOrdinal.value).toBeCloseTo(68 / 93, 12);
    expect(agreement.alphaOrdinal.n).toBe(3);
  });

  it('breaks the comparison down by annotator, persuadee and domain', () => {
    expect(
      result.annotators.map(({ annotator, labels, exactMatch, meanAbsoluteDifference }) => ({ annotator, labels, exactMatch, meanAbsoluteDifference })),
    ).toEqual([
      { annotator: 'a', labels: 4, exactMatch: 3 / 4, meanAbsoluteDifference: 1 / 4 },
      { annotator: 'b', labels: 4, exactMatch: 1 / 4, meanAbsoluteDifference: 1 },
    ]);
    expect(result.byPersuadee.map((entry) => [entry.model, entry.labels, entry.exactMatch])).toEqual([
      ['sim/stubborn', 4, 1 / 4],
      ['sim/weak', 4, 3 / 4],
    ]);
    expect(result.byDomain.map((entry) => [entry.domain, entry.labels])).toEqual([
      ['misinformation', 4],
      ['subjective', 4],
    ]);
  });

  it('gives seeded bootstrap intervals over conversations that hold the estimate', () => {
    const { exactMatch, meanAbsoluteDifference } = result;
    // Two conversations: a replicate draws c1 twice (exact 3/4), c2 twice (1/4) or one of each (1/2).
    expect(exactMatch.ciLow).toBe(0.25);
    expect(exactMatch.ciHigh).toBe(0.75);
    expect(meanAbsoluteDifference.ciLow).toBeLessThanOrEqual(meanAbsoluteDifference.value);
    expect(meanAbsoluteDifference.ciHigh).toBeGreaterThanOrEqual(meanAbsoluteDifference.value);
    expect(analyzeReliability(ROWS, OPTIONS)).toEqual(result);
  });

  it('does not depend on the order of the rows', () => {
    expect(analyzeReliability([...ROWS].reverse(), OPTIONS)).toEqual(result);
  });

  it('with one annotator has no inter-annotator agreement (NaN) but still compares with the model', () => {
    const single = analyzeReliability(
      ROWS.filter((entry) => entry.annotator === 'a'),
      OPTIONS,
    );
    expect(single.exactMatch.value).toBe(3 / 4);
    expect(single.interAnnotator.sharedTurns).toBe(0);
    expect(single.interAnnotator.alphaOrdinal.value).toBeNaN();
    expect(single.interAnnotator.alphaOrdinal.ciLow).toBeNaN();
    expect(single.consensus.ties).toBe(0);
  });

  it('is empty (NaN rates, zero counts) without labels', () => {
    const empty = analyzeReliability([], OPTIONS);
    expect(empty.labels).toBe(0);
    expect(empty.exactMatch.value).toBeNaN();
    expect(empty.exactMatch.ciLow).toBeNaN();
    expect(empty.confusion.flat().every((count) => count === 0)).toBe(true);
  });
});

describe('summarizeDifferences and confusionMatrix', () => {
  it.each([
    [[[5, 5]], { exactMatch: 1, meanAbsoluteDifference: 0, meanSignedDifference: 0, withinOne: 1 }],
    [[[1, 5]], { exactMatch: 0, meanAbsoluteDifference: 4, meanSignedDifference: -4, withinOne: 0 }],
    [
      [
        [4, 5],
        [5, 4],
      ],
      { exactMatch: 0, meanAbsoluteDifference: 1, meanSignedDifference: 0, withinOne: 1 },
    ],
    [
      [
        [3, 3],
        [2, 4],
        [5, 1],
      ],
      { exactMatch: 1 / 3, meanAbsoluteDifference: 2, meanSignedDifference: 2 / 3, withinOne: 1 / 3 },
    ],
  ])('model and label pairs %j', (pairs, expected) => {
    const rows = pairs.map(([model, label], position) => row('c', position, 'a', model!, label!));
    expect(summarizeDifferences(rows)).toEqual({ labels: pairs.length, ...expected });
    expect(confusionMatrix(rows)[pairs[0]![0]! - 1]![pairs[0]![1]! - 1]).toBeGreaterThan(0);
  });
});
