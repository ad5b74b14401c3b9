import { describe, expect, it } from 'vitest';
import type { AgreementScore } from '../../domain/agreement-score.js';
import type { Turn } from '../../domain/conversation.js';
import type { TurnLabels } from '../../domain/turn-labels.js';
import { DEFAULT_INTERVALS } from '../intervals/claim-estimates.js';
import { type TechniqueEffect, techniqueEffects } from './technique-effects.js';
import { techniqueShares } from './technique-profiles.js';
import type { LabelledConversation } from './technique-turns.js';

/** A 9-turn conversation: the persuadee's five scores (turns 1, 3, 5, 7, 9) and the techniques of persuader turns 2, 4, 6, 8. */
function conversation(
  claim: string,
  persuader: string,
  scores: readonly AgreementScore[],
  techniques: readonly (readonly string[])[],
  persuadee = 'sim/b',
): LabelledConversation {
  const turns: Pick<Turn, 'index' | 'role' | 'kind' | 'score' | 'message' | 'raw' | 'attempts'>[] = [];
  for (let index = 1; index <= 9; index++) {
    const persuadee = index % 2 === 1;
    const kind = index === 1 ? 'opening' : index === 9 ? 'final' : persuadee ? 'reply' : 'argument';
    turns.push({
      index,
      role: persuadee ? 'persuadee' : 'persuader',
      kind,
      score: persuadee ? scores[(index - 1) / 2]! : 3,
      message: '',
      raw: '',
      attempts: [],
    });
  }
  const labels = techniques.map((used, position) => ({
    turn: 2 * position + 2,
    labels: { role: 'persuader', techniques: used, unethical: [], refused: false, leftRole: false } satisfies TurnLabels,
  }));
  return { record: { domain: 'subjective', setting: 'multi', claim, question: null, persuader, persuadee, status: 'completed', turns }, labels };
}

// Next changes per claim: c1 +1 0 +1 0; c2 +1 0 0 0; c3 0 0 0 0. Technique x: used minus other is
// 1, 0.5 and 0 on the three claims; y: 0, -0.5 and 0; a is on every turn.
const CONVERSATIONS = [
  conversation('c1', 'sim/a', [2, 3, 3, 4, 4], [['x', 'a'], ['a'], ['x', 'y', 'a'], ['y', 'a']]),
  conversation(
    'c2',
    'sim/a',
    [1, 2, 2, 2, 2],
    [
      ['x', 'a'],
      ['x', 'a'],
      ['y', 'a'],
      ['y', 'a'],
    ],
  ),
  conversation('c3', 'sim/a', [3, 3, 3, 3, 3], [['x', 'a'], ['a'], ['x', 'y', 'a'], ['y', 'a']]),
];

const estimated = (effects: readonly TechniqueEffect[], technique: string) => {
  const effect = effects.find((entry) => entry.technique === technique);
  if (effect?.status !== 'estimated') throw new Error(`${technique} has no estimate`);
  return effect;
};

describe('techniqueEffects', () => {
  it('gives used minus not used with a t interval over claims, a p value and Holm over techniques', () => {
    const effects = techniqueEffects(CONVERSATIONS, ['x', 'y', 'a', 'z'], DEFAULT_INTERVALS);
    const x = estimated(effects, 'x');
    // Per-claim differences 1, 0.5, 0: mean 0.5, SE 0.5 / sqrt(3), t(2, 0.975) = 4.302653.
    expect(x.value).toBeCloseTo(0.5, 12);
    expect(x.se).toBeCloseTo(0.5 / Math.sqrt(3), 12);
    expect(x.ciLow).toBeCloseTo(0.5 - 4.302653 * (0.5 / Math.sqrt(3)), 5);
    expect(x.ciHigh).toBeCloseTo(0.5 + 4.302653 * (0.5 / Math.sqrt(3)), 5);
    // t = sqrt(3) on 2 degrees of freedom: p = 1 - t / sqrt(t^2 + 2).
    expect(x.p).toBeCloseTo(1 - Math.sqrt(3) / Math.sqrt(5), 10);
    expect(x).toMatchObject({ claims: 3, usedTurns: 6, otherTurns: 6, persuaders: ['sim/a'], pairs: 1, thin: true });
    const y = estimated(effects, 'y');
    expect(y.value).toBeCloseTo(-1 / 6, 12);
    expect(y.p).toBeCloseTo(1 - 1 / Math.sqrt(3), 10);
    // Holm over the two estimated techniques: 2 x p(x) for x, and y's own p lifted to it.
    expect(x.pHolm).toBeCloseTo(2 * x.p, 12);
    expect(y.pHolm).toBeCloseTo(2 * x.p, 12);
  });

  it('says why a technique has no estimate: never used, always used, or no pair with both', () => {
    const effects = techniqueEffects(CONVERSATIONS, ['x', 'y', 'a', 'z'], DEFAULT_INTERVALS);
    expect(effects.find((entry) => entry.technique === 'a')).toMatchObject({ status: 'no-estimate', reason: 'always-used', usedTurns: 12, otherTurns: 0 });
    expect(effects.find((entry) => entry.technique === 'z')).toMatchObject({ status: 'no-estimate', reason: 'never-used', usedTurns: 0 });
    // One persuader always uses w and moves the persuadee, the other never does and does not: a
    // pooled comparison would credit w with +1, but no persuader has turns of both kinds.
    const split = [
      conversation('c1', 'sim/always', [1, 2, 3, 4, 4], [['w'], ['w'], ['w'], ['w']]),
      conversation('c1', 'sim/never', [2, 2, 2, 2, 2], [[], [], [], []]),
    ];
    expect(techniqueEffects(split, ['w'], DEFAULT_INTERVALS)).toEqual([
      { domain: 'subjective', setting: 'multi', technique: 'w', usedTurns: 4, otherTurns: 4, status: 'no-estimate', reason: 'no-pair-with-both' },
    ]);
  });

  it('compares turns against the same persuadee: a technique used only on the persuadee who moves is not credited with it', () => {
    // sim/a uses w on every turn against sim/open, who moves, and never against sim/closed, who does not.
    const byPersuadee = [
      conversation('c1', 'sim/a', [1, 2, 3, 4, 4], [['w'], ['w'], ['w'], ['w']], 'sim/open'),
      conversation('c1', 'sim/a', [2, 2, 2, 2, 2], [[], [], [], []], 'sim/closed'),
    ];
    expect(techniqueEffects(byPersuadee, ['w'], DEFAULT_INTERVALS)).toMatchObject([{ technique: 'w', status: 'no-estimate', reason: 'no-pair-with-both' }]);
  });

  it('leaves out turns after which the persuadee already stood at 5, and failed conversations', () => {
    const atTop = conversation('c1', 'sim/a', [5, 5, 5, 5, 5], [['x'], [], [], ['x']]);
    const failed = { ...conversation('c2', 'sim/a', [1, 5, 5, 5, 5], [['x'], [], [], []]), record: { ...CONVERSATIONS[0]!.record, status: 'failed' as const } };
    const withThem = techniqueEffects([...CONVERSATIONS, atTop, failed], ['x'], DEFAULT_INTERVALS);
    expect(estimated(withThem, 'x')).toEqual(estimated(techniqueEffects(CONVERSATIONS, ['x'], DEFAULT_INTERVALS), 'x'));
  });
});

describe('techniqueShares', () => {
  it("gives each persuader's share of turns using each technique, with an interval over claims", () => {
    const shares = techniqueShares(CONVERSATIONS, ['x', 'a', 'z'], DEFAULT_INTERVALS);
    const of = (technique: string) => shares.find((share) => share.technique === technique)!;
    // x: 2 of 4 turns on c1 and c3, 2 of 4 on c2.
    expect(of('x')).toMatchObject({ persuader: 'sim/a', share: 0.5, ciLow: 0.5, ciHigh: 0.5, turns: 12, usedTurns: 6, claims: 3 });
    expect(of('a')).toMatchObject({ share: 1, usedTurns: 12 });
    expect(of('z')).toMatchObject({ share: 0, usedTurns: 0 });
    expect(of('y').share).toBe(0.5);
  });
});
