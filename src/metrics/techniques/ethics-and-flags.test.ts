import { describe, expect, it } from 'vitest';
import type { AgreementScore } from '../../domain/agreement-score.js';
import type { Turn } from '../../domain/conversation.js';
import type { TurnLabels } from '../../domain/turn-labels.js';
import { DEFAULT_INTERVALS } from '../intervals/claim-estimates.js';
import { ethicsByPersuader } from './ethics.js';
import type { LabelledConversation } from './technique-turns.js';
import { flagRates } from './turn-flags.js';

type PersuaderLabel = { unethical?: string[]; refused?: boolean; leftRole?: boolean };

/**
 * A 5-turn conversation whose persuadee turns 1, 3 and 5 stand at `scores` (null: a failed
 * conversation, at 3 throughout) and whose persuader turns 2 and 4 carry `labels`; persuadee turns
 * are labelled in role unless `persuadeeLeft`.
 */
function conversation(
  claim: string,
  persuader: string,
  persuadee: string,
  scores: readonly [number, number, number] | null,
  labels: [PersuaderLabel, PersuaderLabel],
  persuadeeLeft = false,
): LabelledConversation {
  const turns = [1, 2, 3, 4, 5].map(
    (index): Pick<Turn, 'index' | 'role' | 'kind' | 'score' | 'message' | 'raw' | 'attempts'> => ({
      index,
      role: index % 2 === 1 ? 'persuadee' : 'persuader',
      kind: index === 1 ? 'opening' : index === 5 ? 'final' : index % 2 === 1 ? 'reply' : 'argument',
      score: (scores?.[Math.floor(index / 2)] ?? 3) as AgreementScore,
      message: '',
      raw: '',
      attempts: [],
    }),
  );
  const persuaderLabels = labels.map((label, position) => ({
    turn: 2 * position + 2,
    labels: {
      role: 'persuader',
      techniques: [],
      unethical: label.unethical ?? [],
      refused: label.refused ?? false,
      leftRole: label.leftRole ?? false,
    } satisfies TurnLabels,
  }));
  const persuadeeLabels = [1, 3, 5].map((turn) => ({ turn, labels: { role: 'persuadee', leftRole: persuadeeLeft && turn === 3 } satisfies TurnLabels }));
  return {
    record: {
      domain: 'subjective',
      setting: 'multi',
      claim,
      question: null,
      persuader,
      persuadee,
      status: scores === null ? 'failed' : 'completed',
      turns,
    },
    labels: [...persuaderLabels, ...persuadeeLabels],
  };
}

const clean: PersuaderLabel = {};
const lies: PersuaderLabel = { unethical: ['deception'] };

describe('ethicsByPersuader', () => {
  // sim/a's next changes: against p, after turns with a strategy +2 (c1) and +1 (c2), after the six without 0, 0, +1, 0, 0, 0;
  // against q, with +1 and 0 (c1), without 0 and 0 (c2). Within p: 1.5 - 1/6 = 4/3; within q: 0.5 - 0 = 0.5; the mean over
  // persuadees 11/12. A failed conversation counts in the shares, not in the relation to persuasion.
  const CONVERSATIONS = [
    conversation('c1', 'sim/a', 'p', [2, 4, 4], [lies, clean]),
    conversation('c2', 'sim/a', 'p', [3, 3, 4], [clean, { unethical: ['deception', 'threats'] }]),
    conversation('c3', 'sim/a', 'p', [2, 3, 3], [clean, clean]),
    conversation('c4', 'sim/a', 'p', [3, 3, 3], [clean, clean]),
    conversation('c1', 'sim/a', 'q', [1, 2, 2], [lies, lies]),
    conversation('c2', 'sim/a', 'q', [3, 3, 3], [clean, clean]),
    conversation('c5', 'sim/a', 'q', null, [lies, clean]),
    conversation('c1', 'sim/b', 'p', [2, 3, 4], [clean, clean]),
    conversation('c2', 'sim/b', 'p', [3, 4, 4], [clean, clean]),
  ];
  const rows = ethicsByPersuader(CONVERSATIONS, ['deception', 'threats', 'smears'], DEFAULT_INTERVALS);
  const a = rows.find((row) => row.persuader === 'sim/a')!;
  const b = rows.find((row) => row.persuader === 'sim/b')!;

  it('counts conversations with any unethical strategy, and each strategy, over every labelled conversation', () => {
    expect(a).toMatchObject({ conversations: 7, withUnethical: 4 });
    expect(a.share).toBeCloseTo(4 / 7, 12);
    expect(a.strategies.map((strategy) => [strategy.id, strategy.conversations])).toEqual([
      ['deception', 4],
      ['threats', 1],
      ['smears', 0],
    ]);
    expect(b).toMatchObject({ conversations: 2, withUnethical: 0, share: 0 });
  });

  it('counts labelled persuader turns with one, failed conversations included', () => {
    expect(a).toMatchObject({ turns: 14, turnsWithUnethical: 5 });
    expect(a.turnShare.share).toBeCloseTo(5 / 14, 12);
    expect(b).toMatchObject({ turns: 4, turnsWithUnethical: 0 });
  });

  it("relates it to the persuadee's next change per turn within each persuadee, completed conversations only", () => {
    const relation = a.withVsWithout;
    if (relation.status !== 'estimated') throw new Error('no estimate');
    expect(relation.difference).toBeCloseTo(11 / 12, 12);
    expect(relation).toMatchObject({ turnsWith: 4, turnsWithout: 8, pairs: 2 });
    expect(relation.meanWith).toBeCloseTo(1, 12);
    expect(relation.meanWithout).toBeCloseTo(1 / 8, 12);
    expect(b.withVsWithout).toEqual({ status: 'no-estimate', reason: 'never-used', turnsWith: 0, turnsWithout: 4 });
  });
});

describe('flagRates', () => {
  const CONVERSATIONS = [
    conversation('c1', 'sim/a', 'p', [2, 3, 4], [{ refused: true }, clean], true),
    conversation('c2', 'sim/a', 'p', [2, 3, 3], [{ refused: true }, { refused: true, leftRole: true }]),
    conversation('c3', 'sim/a', 'p', null, [clean, clean]),
  ];

  it('gives the share of labelled turns and of conversations with a refusal, for persuaders only', () => {
    const [row, ...others] = flagRates(CONVERSATIONS, 'refused', DEFAULT_INTERVALS);
    expect(others).toEqual([]);
    expect(row).toMatchObject({ model: 'sim/a', role: 'persuader', turns: 6, flaggedTurns: 3, conversations: 3, flaggedConversations: 2 });
    expect(row!.turnShare.share).toBeCloseTo(0.5, 12);
    expect(row!.conversationShare.share).toBeCloseTo(2 / 3, 12);
  });

  it('gives role breaks for both roles', () => {
    const rows = flagRates(CONVERSATIONS, 'leftRole', DEFAULT_INTERVALS);
    expect(rows.map((row) => [row.role, row.model, row.flaggedTurns, row.turns, row.flaggedConversations])).toEqual([
      ['persuadee', 'p', 1, 9, 1],
      ['persuader', 'sim/a', 1, 6, 1],
    ]);
  });
});
