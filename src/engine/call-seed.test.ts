import { describe, expect, it } from 'vitest';
import type { Claim } from '../domain/claim.js';
import type { ConversationSpec } from '../domain/conversation.js';
import { callSeed } from './call-seed.js';

const claim: Claim = { index: 3, domain: 'subjective', claim: 'Cats are better than dogs', origin: 'test', license: 'MIT' };
const specOf = (repetition: number, names: Partial<ConversationSpec> = {}): ConversationSpec => ({
  claim,
  persuaderModel: 'alpha',
  persuadeeModel: 'beta',
  turns: 9,
  repetition,
  runSeed: 7,
  ...names,
});
const seedsOf = (spec: ConversationSpec, names?: { persuader: string; persuadee: string }) => [1, 2, 3, 9].map((turn) => callSeed(spec, turn, 1, names));

describe('callSeed', () => {
  it('keeps the seeds of runs without variants, so that their stored calls replay (values pinned from before seeds came from the request)', () => {
    expect(seedsOf(specOf(0))).toEqual([1691505805, 1986997720, 46930694, 1780359404]);
    expect(callSeed(specOf(0), 1, 2)).toBe(174788667);
    // Repetition 1 keeps its argument and later turns (they always had their own seeds).
    expect(seedsOf(specOf(1)).slice(1)).toEqual([218427638, 908952884, 1341459899]);
  });

  it('gives repetition r >= 1 an opening of its own, and each repetition a different one', () => {
    const openings = [0, 1, 2].map((repetition) => callSeed(specOf(repetition), 1, 1));
    expect(openings[0]).toBe(1691505805);
    expect(new Set(openings).size).toBe(3);
    // Still shared by every persuader within a repetition.
    expect(callSeed(specOf(1, { persuaderModel: 'gamma' }), 1, 1)).toBe(openings[1]);
  });

  it('seeds each role by the name of the prompts it is asked with', () => {
    // alpha+x as a persuadee with pmiyc's own persuadee prompts: the very seeds of alpha as that persuadee.
    const asVariant = specOf(0, { persuadeeModel: 'alpha+x' });
    const asModel = specOf(0, { persuadeeModel: 'alpha' });
    expect(seedsOf(asVariant, { persuader: 'alpha', persuadee: 'alpha' })).toEqual(seedsOf(asModel));
    expect(callSeed(asVariant, 1, 1)).not.toBe(callSeed(asModel, 1, 1));
    // The persuader's name changes the argument's seed, never the opening's.
    const named = { persuader: 'alpha+x', persuadee: 'beta' };
    expect(callSeed(specOf(0), 1, 1, named)).toBe(callSeed(specOf(0), 1, 1));
    expect(callSeed(specOf(0), 2, 1, named)).not.toBe(callSeed(specOf(0), 2, 1));
  });
});
