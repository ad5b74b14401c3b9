import { describe, expect, it } from 'vitest';
import { EXAMPLE_CLAIMS } from '../../datasets/example-claims.js';
import type { ConversationSpec } from '../../domain/conversation.js';
import { InputError } from '../../domain/errors/input-error.js';
import { runConversation } from '../../engine/run-conversation.js';
import { parseTaggedReply } from '../../protocol/tagged-reply.js';
import { NAMED_SIM_PROFILES, parseSimProfile } from './sim-profile.js';
import { SimulatedAgent } from './simulated-agent.js';

const claim = EXAMPLE_CLAIMS[0]!;
const specOf = (persuaderModel: string, persuadeeModel: string, runSeed = 1): ConversationSpec => ({
  claim,
  persuaderModel,
  persuadeeModel,
  turns: 9,
  repetition: 0,
  runSeed,
});

describe('parseSimProfile', () => {
  it('knows the named profiles', () => {
    expect(parseSimProfile('sim/eloquent')).toEqual({
      name: 'eloquent',
      ...NAMED_SIM_PROFILES['eloquent'],
      labelError: 0,
      refuse: 0,
      leaveRole: 0,
      techniques: [],
      unethical: [],
    });
  });

  it('derives stable, different traits for any other name', () => {
    const first = parseSimProfile('sim/alpha');
    expect(parseSimProfile('sim/alpha')).toEqual(first);
    expect(parseSimProfile('sim/beta')).not.toEqual({ ...first, name: 'beta' });
    for (const trait of [first.persuasiveness, first.susceptibility]) {
      expect(trait).toBeGreaterThanOrEqual(0.1);
      expect(trait).toBeLessThanOrEqual(0.9);
    }
  });

  it('lets query parameters override traits', () => {
    expect(parseSimProfile('sim/x?persuasiveness=0.8&susceptibility=0.2&malformed=0.05')).toEqual({
      name: 'x',
      persuasiveness: 0.8,
      susceptibility: 0.2,
      malformed: 0.05,
      labelError: 0,
      refuse: 0,
      leaveRole: 0,
      techniques: [],
      unethical: [],
    });
    expect(parseSimProfile('sim/stubborn?susceptibility=0.9').susceptibility).toBe(0.9);
  });

  it.each([
    ['sim/x?charm=1', 'unknown parameter "charm"'],
    ['sim/x?persuasiveness=2', 'persuasiveness must be a number from 0 to 1'],
    ['sim/x?malformed=', 'malformed must be a number from 0 to 1'],
    ['sim/bad name', 'a simulated agent needs a name'],
  ])('rejects %s', (name, message) => {
    expect(() => parseSimProfile(name)).toThrow(InputError);
    expect(() => parseSimProfile(name)).toThrow(message);
  });
});

describe('SimulatedAgent', () => {
  it('writes tagged text that the real parser accepts, labelled simulated, in both roles', async () => {
    const outcome = await runConversation({
      spec: specOf('sim/eloquent', 'sim/open-minded'),
      persuader: new SimulatedAgent('sim/eloquent'),
      persuadee: new SimulatedAgent('sim/open-minded'),
    });
    expect(outcome.status).toBe('completed');
    for (const turn of outcome.turns) {
      expect(parseTaggedReply(turn.raw).ok).toBe(true);
      expect(turn.message).toContain('[simulated');
      expect(turn.attempts).toHaveLength(1);
    }
  });

  it('is deterministic given the seed, and varies with it', async () => {
    const run = (seed: number) =>
      runConversation({ spec: specOf('sim/a', 'sim/b', seed), persuader: new SimulatedAgent('sim/a'), persuadee: new SimulatedAgent('sim/b') });
    expect(await run(5)).toEqual(await run(5));
    const texts = await Promise.all([1, 2, 3, 4, 5, 6].map(async (seed) => JSON.stringify((await run(seed)).turns.map((turn) => turn.raw))));
    expect(new Set(texts).size).toBeGreaterThan(1);
  });

  it('breaks the format at the planted rate, and the engine re-samples', async () => {
    const always = await runConversation({
      spec: specOf('sim/x', 'sim/y?malformed=1'),
      persuader: new SimulatedAgent('sim/x'),
      persuadee: new SimulatedAgent('sim/y?malformed=1'),
    });
    expect(always).toMatchObject({ status: 'failed', failedTurn: 1, failedRole: 'persuadee' });

    let resampled = 0;
    for (let seed = 0; seed < 40; seed++) {
      const outcome = await runConversation({
        spec: specOf('sim/x', 'sim/y?malformed=0.3', seed),
        persuader: new SimulatedAgent('sim/x'),
        persuadee: new SimulatedAgent('sim/y?malformed=0.3'),
      });
      resampled += outcome.turns.filter((turn) => turn.attempts.length > 1).length;
    }
    expect(resampled).toBeGreaterThan(5);
  });

  it('treats an argument without a strength mark (a real model) as middling', async () => {
    const persuadee = new SimulatedAgent('sim/p?susceptibility=1');
    const outcome = await runConversation({
      spec: specOf('test/real', 'sim/p?susceptibility=1'),
      persuader: {
        name: 'test/real',
        simulated: false,
        generate: async () => ({ text: '<message>A plain argument.</message><support_ranking>Support</support_ranking>', finishReason: 'stop' }),
      },
      persuadee,
    });
    expect(outcome.status).toBe('completed');
  });
});
