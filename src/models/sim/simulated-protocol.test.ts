import { describe, expect, it } from 'vitest';
import { InputError } from '../../domain/errors/input-error.js';
import type { GenerateRequest } from '../chat-model.js';
import { parseSimProfile } from './sim-profile.js';
import { SimulatedAgent } from './simulated-agent.js';
import type { SimulatedProtocol } from './simulated-protocol.js';

/** A protocol of its own: it takes `toy.loud=<0-1>` and answers requests whose system prompt is "TOY". */
const checked: Array<Record<string, string>> = [];
const toy: SimulatedProtocol = {
  namespace: 'toy',
  checkTraits: (modelName, traits) => {
    checked.push({ ...traits });
    for (const key of Object.keys(traits)) if (key !== 'toy.loud') throw new InputError(`${modelName}: unknown toy parameter "${key}"`);
  },
  reply: (request, profile, random) =>
    request.messages[0]?.content === 'TOY' ? `[simulated] toy ${profile.protocolTraits?.['toy.loud'] ?? 'quiet'} ${random().toFixed(3)}` : undefined,
};

const request = (system: string, seed = 3): GenerateRequest => ({ messages: [{ role: 'system', content: system }], seed, maxOutputTokens: 400 });

describe("a simulated agent's protocol keys", () => {
  it('are kept raw by the profile, beside its own traits, and absent when none is given', () => {
    const profile = parseSimProfile('sim/x?susceptibility=0.2&ape.refuse=0.1&ape.refuse.UnderminingControl.t1=0.6&technique.logos=0.4:0.3');
    expect(profile.protocolTraits).toEqual({ 'ape.refuse': '0.1', 'ape.refuse.UnderminingControl.t1': '0.6' });
    expect(profile.susceptibility).toBe(0.2);
    expect(profile.techniques).toEqual([{ id: 'logos', rate: 0.4, effect: 0.3 }]);
    expect(parseSimProfile('sim/x').protocolTraits).toBeUndefined();
    expect(() => parseSimProfile('sim/x?refuze=0.1')).toThrow('unknown parameter "refuze"');
  });

  it('are refused by an agent that serves no protocol, as an unknown parameter always was', () => {
    expect(() => new SimulatedAgent('sim/x?ape.refuse=0.1')).toThrow(InputError);
    expect(() => new SimulatedAgent('sim/x?ape.refuse=0.1')).toThrow(
      `sim/x?ape.refuse=0.1: unknown parameter "ape.refuse": a key <protocol>.<trait> plants a trait for that protocol's simulated agents, and this run's protocol (PMIYC's) reads none; drop it, or run the ape protocol (pmiyc run --protocol ape)`,
    );
  });

  it("go to the agent's protocol for its own namespace, and any other namespace is refused", () => {
    checked.length = 0;
    expect(() => new SimulatedAgent('alias', 'sim/x?toy.loud=1&persuasiveness=0.3', toy)).not.toThrow();
    expect(checked).toEqual([{ 'toy.loud': '1' }]);
    expect(() => new SimulatedAgent('sim/x?toy.soft=1', 'sim/x?toy.soft=1', toy)).toThrow('sim/x?toy.soft=1: unknown toy parameter "toy.soft"');
    expect(() => new SimulatedAgent('sim/x?ape.refuse=1', 'sim/x?ape.refuse=1', toy)).toThrow('this run reads only toy.<...> keys');
  });
});

describe("a simulated agent's protocol replies", () => {
  it("answer the protocol's requests first, from the request's seed", async () => {
    const agent = new SimulatedAgent('sim/x?toy.loud=1', 'sim/x?toy.loud=1', toy);
    const first = await agent.generate(request('TOY'));
    expect(first.text).toMatch(/^\[simulated\] toy 1 0\.\d{3}$/);
    expect((await agent.generate(request('TOY'))).text).toBe(first.text);
    expect((await agent.generate(request('TOY', 4))).text).not.toBe(first.text);
  });

  it('leave every other request to the agent, which answers it exactly as without the protocol', async () => {
    const pmiycSystem = 'You are a persuader.';
    const withProtocol = await new SimulatedAgent('sim/eloquent', 'sim/eloquent', toy).generate(request(pmiycSystem));
    expect(withProtocol.text).toBe((await new SimulatedAgent('sim/eloquent').generate(request(pmiycSystem))).text);
  });
});
