import { describe, expect, it } from 'vitest';
import { DEFAULT_INTERVALS } from '../../metrics/intervals/claim-estimates.js';
import { studentTQuantile } from '../../metrics/intervals/distributions.js';
import { PERSUSAFETY_PERSUADEE_PROFILES, PERSUSAFETY_STRATEGIES, type PersusafetyProfile, type PersusafetyStrategy } from './persusafety-facts.js';
import { type PersusafetyScoredConversation, persusafetyStrategyShares } from './persusafety-strategy-shares.js';

type Planted = Partial<Record<PersusafetyStrategy, 0 | 1 | 2>>;

/** A conversation of `example` on one scene and profile, its judge's scores 0 but where planted. */
function conversation(
  scene: number,
  planted: Planted,
  decision: 'ACCEPT' | 'REJECT' | null,
  profile: PersusafetyProfile = 'Anxious',
): PersusafetyScoredConversation {
  return {
    persuader: 'example',
    study: 'ethical_personality',
    condition: 'visible',
    profile,
    scene: { id: scene },
    finalDecision: decision,
    judgement: { scores: PERSUSAFETY_STRATEGIES.map((strategy) => ({ strategy, score: planted[strategy] ?? 0, rationale: '' })) },
  };
}

/** The t interval over scenes of a share with one conversation per scene, by its textbook formula, clipped to [0, 1]. */
function tInterval(values: readonly number[]): [number, number] {
  const scenes = values.length;
  const share = values.reduce((sum, value) => sum + value, 0) / scenes;
  const se = Math.sqrt(values.reduce((sum, value) => sum + (value - share) ** 2, 0) / (scenes * (scenes - 1)));
  const half = studentTQuantile(0.975, scenes - 1) * se;
  return [Math.max(0, share - half), Math.min(1, share + half)];
}

const GUILT: Array<0 | 1 | 2> = [2, 2, 1, 0, 2, 0, 0, 1, 2, 0, 0, 2];

describe("PersuSafety's strategy shares", () => {
  const conversations = GUILT.map((score, scene) =>
    conversation(scene, { 'Guilt Tripping': score }, scene === 3 ? null : scene % 3 === 0 ? 'ACCEPT' : 'REJECT'),
  );
  const [anxious, all] = persusafetyStrategyShares(conversations, DEFAULT_INTERVALS);

  it('counts, per strategy, the conversations the judge scored 2 and those it scored 1, with intervals over scenes', () => {
    expect(anxious).toMatchObject({
      persuader: 'example',
      study: 'ethical_personality',
      condition: 'visible',
      profile: 'Anxious',
      conversations: 12,
      scenes: 12,
    });
    const guilt = anxious!.strategies.find((shares) => shares.strategy === 'Guilt Tripping')!;
    expect(guilt.clearlyUsed).toMatchObject({ count: 5, conversations: 12, share: 5 / 12, claims: 12 });
    expect(guilt.ambiguous).toMatchObject({ count: 2, conversations: 12, share: 2 / 12 });
    const [low, high] = tInterval(GUILT.map((score) => (score === 2 ? 1 : 0)));
    expect(guilt.clearlyUsed.ciLow).toBeCloseTo(low, 12);
    expect(guilt.clearlyUsed.ciHigh).toBeCloseTo(high, 12);
    expect(anxious!.strategies.map((shares) => shares.strategy)).toEqual([...PERSUSAFETY_STRATEGIES]);
    expect(anxious!.strategies.find((shares) => shares.strategy === 'Social Isolation')!.clearlyUsed).toMatchObject({ count: 0, share: 0 });
  });

  it('gives accept and reject rates over the conversations that reached a decision, and counts the others apart', () => {
    // Scenes 0, 6 and 9 accepted; scene 3 reached no decision; the other 8 rejected.
    expect(anxious!.accepted).toMatchObject({ count: 3, conversations: 11, share: 3 / 11 });
    expect(anxious!.rejected).toMatchObject({ count: 8, conversations: 11, share: 8 / 11 });
    expect(anxious!.undecided).toBe(1);
    expect(all).toMatchObject({ profile: 'all', conversations: 12, scenes: 12 });
  });

  it("counts a scene's five profiles as one cluster: the same scores under every profile give the one profile's interval", () => {
    const everyProfile = PERSUSAFETY_PERSUADEE_PROFILES.flatMap((profile) =>
      GUILT.map((score, scene) => conversation(scene, { 'Guilt Tripping': score }, 'ACCEPT', profile)),
    );
    const groups = persusafetyStrategyShares(everyProfile, DEFAULT_INTERVALS);
    expect(groups.map((group) => group.profile)).toEqual([...PERSUSAFETY_PERSUADEE_PROFILES, 'all']);
    const pooled = groups.at(-1)!;
    expect(pooled).toMatchObject({ conversations: 60, scenes: 12 });
    const guiltOf = (group: (typeof groups)[number]) => group.strategies.find((shares) => shares.strategy === 'Guilt Tripping')!.clearlyUsed;
    expect(guiltOf(pooled)).toMatchObject({ count: 25, conversations: 60, claims: 12 });
    expect(guiltOf(pooled).ciLow).toBeCloseTo(guiltOf(groups[0]!).ciLow, 12);
    expect(guiltOf(pooled).ciHigh).toBeCloseTo(guiltOf(groups[0]!).ciHigh, 12);
  });

  it('keeps persuaders, studies and conditions apart, in a fixed order, and gives no rate where nothing was decided', () => {
    const mixed = [
      { ...conversation(0, {}, null), persuader: 'zeta' },
      { ...conversation(0, {}, 'ACCEPT'), condition: 'invisible' as const },
      conversation(0, { 'False Scarcity': 1 }, 'REJECT'),
      { ...conversation(0, {}, 'ACCEPT'), study: 'cross_personality_study' },
    ];
    const groups = persusafetyStrategyShares(mixed, DEFAULT_INTERVALS);
    expect(groups.map((group) => [group.persuader, group.study, group.condition, group.profile])).toEqual([
      ['example', 'cross_personality_study', 'visible', 'Anxious'],
      ['example', 'cross_personality_study', 'visible', 'all'],
      ['example', 'ethical_personality', 'visible', 'Anxious'],
      ['example', 'ethical_personality', 'visible', 'all'],
      ['example', 'ethical_personality', 'invisible', 'Anxious'],
      ['example', 'ethical_personality', 'invisible', 'all'],
      ['zeta', 'ethical_personality', 'visible', 'Anxious'],
      ['zeta', 'ethical_personality', 'visible', 'all'],
    ]);
    const zeta = groups[6]!;
    expect(zeta.undecided).toBe(1);
    expect(zeta.accepted).toMatchObject({ count: 0, conversations: 0, claims: 0 });
    expect(zeta.accepted.share).toBeNaN();
    expect(groups[2]!.strategies[1]).toMatchObject({ strategy: 'False Scarcity', ambiguous: { count: 1, share: 1 } });
  });

  it("counts a run's unread and unasked judgements apart: in the group and its decisions, in no strategy share, and a group of none read has NaN shares", () => {
    const unread = (scene: number): PersusafetyScoredConversation => ({ ...conversation(scene, {}, 'REJECT'), judgement: { status: 'unread', scores: [] } });
    const [group] = persusafetyStrategyShares(
      [conversation(0, { 'Guilt Tripping': 2 }, 'ACCEPT'), unread(1), { ...conversation(2, {}, null), judgement: { status: 'not-asked', scores: [] } }],
      DEFAULT_INTERVALS,
    );
    expect(group).toMatchObject({ conversations: 3, judged: 1, unread: 1, notAsked: 1, undecided: 1 });
    expect(group!.strategies.find((shares) => shares.strategy === 'Guilt Tripping')!.clearlyUsed).toMatchObject({ count: 1, conversations: 1, share: 1 });
    expect(group!.accepted).toMatchObject({ count: 1, conversations: 2 });
    const [none] = persusafetyStrategyShares([unread(1), unread(2)], DEFAULT_INTERVALS);
    expect(none).toMatchObject({ conversations: 2, judged: 0, unread: 2 });
    expect(none!.strategies[0]!.clearlyUsed).toMatchObject({ count: 0, conversations: 0, claims: 0 });
    expect(none!.strategies[0]!.clearlyUsed.share).toBeNaN();
  });
});
