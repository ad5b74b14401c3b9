import { describe, expect, it } from 'vitest';
import type { AgreementScore } from '../../domain/agreement-score.js';
import type { Turn } from '../../domain/conversation.js';
import { createRandom, type Random } from '../../domain/random.js';
import type { TurnLabels } from '../../domain/turn-labels.js';
import { DEFAULT_INTERVALS } from '../intervals/claim-estimates.js';
import { normalizedChange } from '../normalized-change.js';
import { ethicsByPersuader } from './ethics.js';
import type { LabelledConversation } from './technique-turns.js';

/**
 * Conversations in which a persuader draws an unethical strategy on each of its turns with chance
 * `rate`, independently of everything, and the strategy does nothing: the persuadee moves as it
 * would have anyway. A conversation stops once the persuadee reaches 5, so the ones that succeed
 * are shorter and have fewer turns in which to draw the strategy.
 */
interface NoEffectWorld {
  readonly claims: number;
  readonly persuadees: readonly string[];
  readonly persuaderTurns: number;
  readonly rate: number;
}

/** A conversation as the report holds it: its labels, and its record with the NC a conversation-level comparison would read. */
type ScoredConversation = LabelledConversation & { readonly record: { readonly normalizedChange: number } };

type ConversationTurn = Pick<Turn, 'index' | 'role' | 'kind' | 'score' | 'message' | 'raw' | 'attempts'>;

function turnOf(index: number, role: Turn['role'], kind: Turn['kind'], score: AgreementScore): ConversationTurn {
  return { index, role, kind, score, message: '', raw: '', attempts: [] };
}

/** The persuadee's next score: up one (sometimes two) with the claim's chance, else now and then down one. */
function nextScore(random: Random, score: number, upChance: number): AgreementScore {
  const draw = random();
  const moved = draw < upChance ? score + (random() < 0.3 ? 2 : 1) : draw > 0.92 ? score - 1 : score;
  return Math.max(1, Math.min(5, moved)) as AgreementScore;
}

function oneConversation(random: Random, world: NoEffectWorld, claim: string, persuadee: string, upChance: number): ScoredConversation {
  const opening = (1 + Math.floor(random() * 4)) as AgreementScore;
  const turns: ConversationTurn[] = [turnOf(1, 'persuadee', 'opening', opening)];
  const labels: Array<LabelledConversation['labels'][number]> = [];
  let score: AgreementScore = opening;
  for (let round = 0; round < world.persuaderTurns && score < 5; round++) {
    const index = turns.length + 1;
    turns.push(turnOf(index, 'persuader', 'argument', score));
    const unethical = random() < world.rate ? ['deception'] : [];
    labels.push({ turn: index, labels: { role: 'persuader', techniques: [], unethical, refused: false, leftRole: false } satisfies TurnLabels });
    score = nextScore(random, score, upChance);
    turns.push(turnOf(index + 1, 'persuadee', 'reply', score));
  }
  return {
    record: {
      domain: 'subjective',
      setting: 'multi',
      claim,
      question: null,
      persuader: 'sim/p',
      persuadee,
      status: 'completed',
      normalizedChange: normalizedChange(opening, score),
      turns,
    },
    labels,
  };
}

/** One seed's tournament: every persuadee on every claim, each claim with its own ease of persuasion. */
function noEffectTournament(seed: number, world: NoEffectWorld): ScoredConversation[] {
  const random = createRandom(seed);
  const conversations: ScoredConversation[] = [];
  for (let claim = 0; claim < world.claims; claim++) {
    const upChance = 0.1 + 0.5 * random();
    for (const persuadee of world.persuadees) conversations.push(oneConversation(random, world, `claim ${claim}`, persuadee, upChance));
  }
  return conversations;
}

describe('ethics.withVsWithout on a strategy planted with no effect', () => {
  const world: NoEffectWorld = { claims: 100, persuadees: ['sim/a', 'sim/b'], persuaderTurns: 4, rate: 0.3 };
  const seeds = 240;

  it('sees the early stops: conversations with the strategy had more persuader turns in which to draw it', () => {
    const conversations = noEffectTournament(7, world);
    const persuaderTurns = (conversation: LabelledConversation) => conversation.labels.length;
    const used = conversations.filter((conversation) =>
      conversation.labels.some((label) => label.labels.role === 'persuader' && label.labels.unethical.length > 0),
    );
    const unused = conversations.filter((conversation) => !used.includes(conversation));
    const mean = (list: readonly LabelledConversation[]) => list.reduce((sum, conversation) => sum + persuaderTurns(conversation), 0) / list.length;
    expect(mean(used) - mean(unused)).toBeGreaterThan(0.5);
  });

  it('holds 0 in its 95% interval at the nominal rate over many seeds, and is centred on 0', () => {
    const estimates = Array.from({ length: seeds }, (_, seed) => {
      const [row] = ethicsByPersuader(noEffectTournament(1000 + seed, world), ['deception'], DEFAULT_INTERVALS);
      return row!.withVsWithout;
    });
    const estimated = estimates.flatMap((estimate) => (estimate.status === 'estimated' ? [estimate] : []));
    expect(estimated.length).toBe(seeds);
    const covered = estimated.filter((estimate) => estimate.ciLow <= 0 && estimate.ciHigh >= 0).length / seeds;
    // Three binomial standard deviations of a 95% rate over this many seeds (about 0.042).
    const tolerance = 3 * Math.sqrt((0.95 * 0.05) / seeds);
    expect(Math.abs(covered - 0.95)).toBeLessThanOrEqual(tolerance);
    const meanDifference = estimated.reduce((sum, estimate) => sum + estimate.difference, 0) / seeds;
    const meanError = estimated.reduce((sum, estimate) => sum + estimate.se, 0) / seeds;
    // The average over seeds is within a fifth of one seed's standard error of 0 (a bias of one error would be 0.2 x sqrt(seeds) of its own).
    expect(Math.abs(meanDifference)).toBeLessThan(0.2 * meanError);
  });
});
