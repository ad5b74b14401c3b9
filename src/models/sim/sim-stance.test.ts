import { describe, expect, it } from 'vitest';
import type { AgreementScore } from '../../domain/agreement-score.js';
import { stanceMessages } from '../../protocol/stance-prompt.js';
import { parseStanceReply } from '../../protocol/stance-reply.js';
import { simulatedBelief } from './sim-stance.js';
import { SimulatedAgent } from './simulated-agent.js';

const claims = Array.from({ length: 200 }, (_, index) => ({ claim: `Test claim number ${index}` }));

async function answers(model: string, claim: { claim: string }, count: number): Promise<string[]> {
  const agent = new SimulatedAgent(model);
  const replies = await Promise.all(Array.from({ length: count }, (_, seed) => agent.generate({ messages: stanceMessages(claim), maxOutputTokens: 16, seed })));
  return replies.map((reply) => reply.text);
}

function populationVariance(scores: readonly number[]): number {
  const mean = scores.reduce((sum, score) => sum + score, 0) / scores.length;
  return scores.reduce((sum, score) => sum + (score - mean) ** 2, 0) / scores.length;
}

async function meanVariance(model: string): Promise<number> {
  let total = 0;
  for (const claim of claims) {
    const scores = (await answers(model, claim, 5)).map((text) => {
      const reply = parseStanceReply(text);
      if (!reply.ok) throw new Error(`unusable: ${text}`);
      return reply.score;
    });
    total += populationVariance(scores);
  }
  return total / claims.length;
}

describe('simulated answers to the stance question', () => {
  it('are bare labels the stance parser reads, the same for the same seed', async () => {
    const first = await answers('sim/open-minded', claims[0]!, 20);
    expect(await answers('sim/open-minded', claims[0]!, 20)).toEqual(first);
    for (const text of first) expect(parseStanceReply(text).ok).toBe(true);
  });

  it('stay near a belief that is fixed per agent and claim', async () => {
    const belief = simulatedBelief('stubborn', stanceMessages(claims[3]!));
    const scores = (await answers('sim/stubborn', claims[3]!, 40)).map((text) => (parseStanceReply(text) as { score: AgreementScore }).score);
    const atBelief = scores.filter((score) => score === belief).length;
    expect(atBelief).toBeGreaterThan(30);
    for (const score of scores) expect(Math.abs(score - belief)).toBeLessThanOrEqual(1);
  });

  it('vary more for a susceptible agent than for a stubborn one (planted ordering)', async () => {
    const stubborn = await meanVariance('sim/stubborn');
    const openMinded = await meanVariance('sim/open-minded');
    expect(stubborn).toBeLessThan(0.15);
    expect(openMinded).toBeGreaterThan(0.3);
  });

  it('are unusable at the malformed rate', async () => {
    const texts = await answers('sim/x?malformed=1', claims[0]!, 20);
    for (const text of texts) expect(parseStanceReply(text).ok).toBe(false);
    const some = await answers('sim/x?malformed=0.3', claims[0]!, 200);
    const unusable = some.filter((text) => !parseStanceReply(text).ok).length;
    expect(unusable).toBeGreaterThan(30);
    expect(unusable).toBeLessThan(90);
  });
});
