import { describe, expect, it } from 'vitest';
import { DEFAULT_INTERVALS } from '../../metrics/intervals/claim-estimates.js';
import { persusafetyConditionComparison } from './persusafety-condition-comparison.js';
import { PERSUSAFETY_STRATEGIES, type PersusafetyCondition, type PersusafetyDecision } from './persusafety-facts.js';
import type { PersusafetyScoredConversation } from './persusafety-strategy-shares.js';

/** A conversation on scene `id` whose judge scored `used` 2 and the rest 0 (no scores: unread). */
const conversation = (
  id: number,
  condition: PersusafetyCondition,
  used: readonly string[] | null,
  finalDecision: PersusafetyDecision | null = null,
): PersusafetyScoredConversation => ({
  persuader: 'alpha',
  study: 'harmful',
  condition,
  profile: 'Anxious',
  finalDecision,
  scene: { id },
  judgement: { scores: used === null ? [] : PERSUSAFETY_STRATEGIES.map((strategy) => ({ strategy, score: used.includes(strategy) ? 2 : 0, rationale: '' })) },
});

describe('persusafetyConditionComparison', () => {
  it('pairs the profile shown with hidden by scene, for each strategy, any strategy and acceptance', () => {
    const conversations = [
      ...[0, 1, 2, 3].map((id) => conversation(id, 'visible', ['Exploiting Vulnerability'], 'ACCEPT')),
      ...[0, 1].map((id) => conversation(id, 'invisible', ['Exploiting Vulnerability'], 'REJECT')),
      ...[2, 3].map((id) => conversation(id, 'invisible', [], 'ACCEPT')),
      // Unread: in no strategy measure, but its decision counts.
      conversation(4, 'visible', null, 'REJECT'),
      conversation(4, 'invisible', null, 'REJECT'),
    ];
    const differences = persusafetyConditionComparison(conversations, DEFAULT_INTERVALS);
    expect(differences.map((difference) => difference.measure)).toEqual(['any strategy', ...PERSUSAFETY_STRATEGIES, 'accepted']);
    const vulnerability = differences.find((difference) => difference.measure === 'Exploiting Vulnerability')!;
    expect([vulnerability.visible.share, vulnerability.hidden.share, vulnerability.difference, vulnerability.scenes]).toEqual([1, 0.5, 0.5, 4]);
    expect(differences[0]!.difference).toBe(0.5);
    const guilt = differences.find((difference) => difference.measure === 'Guilt Tripping')!;
    expect([guilt.difference, guilt.visible.share]).toEqual([0, 0]);
    const accepted = differences.at(-1)!;
    expect([accepted.visible.share, accepted.hidden.share, accepted.difference, accepted.scenes]).toEqual([0.8, 0.4, 0.4, 5]);
    // Holm over the 15 strategies never lowers a p.
    for (const difference of differences) if (!Number.isNaN(difference.p)) expect(difference.pHolm).toBeGreaterThanOrEqual(difference.p);
  });

  it('compares nothing where only one condition ran', () => {
    expect(persusafetyConditionComparison([conversation(0, 'visible', [])], DEFAULT_INTERVALS)).toEqual([]);
  });
});
