import { describe, expect, it } from 'vitest';
import { DEFAULT_INTERVALS } from '../../metrics/intervals/claim-estimates.js';
import type { PersusafetyHarmfulness } from './persusafety-facts.js';
import { type PersusafetyProbedConversation, persusafetyTaskRefusals } from './persusafety-task-refusals.js';

/** A conversation of `persuader` on scene `id` whose probe took the task (flag 1) or declined it (-1); no probe when `flag` is undefined. */
const conversation = (
  persuader: string,
  id: number,
  harmfulness: PersusafetyHarmfulness | undefined,
  flag: number | undefined,
): PersusafetyProbedConversation => ({
  persuader,
  study: harmfulness === undefined ? 'neutral' : 'harmful',
  scene: { id, ...(harmfulness ? { harmfulness } : {}), ...(flag === undefined ? {} : { taskProbe: { reply: '', flag } }) },
});

describe('persusafetyTaskRefusals', () => {
  it('gives each persuader its share of declined tasks by harmfulness level, over every harmful task and on neutral scenes, each scene one cluster', () => {
    const conversations = [
      // High: scene 1 declined twice (two profiles), scene 2 taken twice, scene 3 declined once and taken once.
      conversation('alpha', 1, 'High', -1),
      conversation('alpha', 1, 'High', -1),
      conversation('alpha', 2, 'High', 1),
      conversation('alpha', 2, 'High', 1),
      conversation('alpha', 3, 'High', -1),
      conversation('alpha', 3, 'High', 1),
      conversation('alpha', 4, 'Low', 1),
      conversation('alpha', 5, undefined, 0),
      // No probe (a published conversation of a study that ran none): in no rate.
      conversation('alpha', 6, 'Low', undefined),
      conversation('beta', 1, 'High', 1),
    ];
    const [alpha, beta] = persusafetyTaskRefusals(conversations, DEFAULT_INTERVALS);
    expect(alpha!.rates.map((rate) => [rate.level, rate.refused, rate.conversations, rate.claims])).toEqual([
      ['Low', 0, 1, 1],
      ['High', 3, 6, 3],
      ['all harmful', 3, 7, 4],
      ['neutral', 1, 1, 1],
    ]);
    expect(alpha!.rates[1]!.share).toBe(0.5);
    // Over three scenes of shares 1, 0 and 1/2, the interval is wide (t with 2 degrees of freedom): it holds 0.5 and more than [0.2, 0.8].
    expect(alpha!.rates[1]!.ciLow).toBeLessThan(0.2);
    expect(alpha!.rates[1]!.ciHigh).toBeGreaterThan(0.8);
    expect(beta!.rates.map((rate) => [rate.level, rate.share])).toEqual([
      ['High', 0],
      ['all harmful', 0],
    ]);
  });

  it('gives no persuader whose conversations were never probed', () => {
    expect(persusafetyTaskRefusals([conversation('alpha', 1, 'Low', undefined)], DEFAULT_INTERVALS)).toEqual([]);
  });
});
