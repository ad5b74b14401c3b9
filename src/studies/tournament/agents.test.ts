import { describe, expect, it } from 'vitest';
import type { Claim } from '../../domain/claim.js';
import { agentOf, checkAgentNames, checkCrossable, checkVariantsFitClaims, crossAgents, echoedAgents, resolveAgents, seedNamesOf } from './agents.js';

const claimOf = (claim: string): Claim => ({ index: 0, domain: 'subjective', claim, origin: 'test', license: 'MIT' });
const variants = { emotional: { persuader: { system: '{{claim}} {{format}}' } } };

describe('agents: a model under a prompt variant', () => {
  it('reads model+variant only for a defined variant', () => {
    expect(agentOf('alpha+emotional', variants)).toEqual({ name: 'alpha+emotional', model: 'alpha', variant: 'emotional' });
    expect(agentOf('alpha', variants)).toEqual({ name: 'alpha', model: 'alpha', variant: 'default' });
    expect(agentOf('openrouter/x+y', variants)).toEqual({ name: 'openrouter/x+y', model: 'openrouter/x+y', variant: 'default' });
  });

  it('crosses models with variants, the default keeping the plain name', () => {
    expect(crossAgents(['a', 'b'], ['default', 'emotional'])).toEqual(['a', 'a+emotional', 'b', 'b+emotional']);
    expect(crossAgents(['a'], undefined)).toEqual(['a']);
    expect(resolveAgents(['a', 'a+emotional', 'b', 'a'], variants).models).toEqual(['a', 'b']);
  });

  it('refuses a "+" that does not name a defined variant, naming the defined ones', () => {
    expect(() => checkAgentNames(['alpha', 'openai/gpt-4o-mini+emotional'], variants)).not.toThrow();
    expect(() => checkAgentNames(['openai/gpt-4o-mini+emotionl'], variants)).toThrow(
      'openai/gpt-4o-mini+emotionl: "emotionl" after the "+" is not a prompt variant (the defined variants are emotional); a model id that contains "+" is named by an alias under models: in the config',
    );
    expect(() => checkAgentNames(['alpha+emotional'], {})).toThrow('(no variants are defined: define one under variants: in the config)');
    expect(() => checkAgentNames(['alpha+emotional+emotional'], variants)).toThrow('has more than one "+"');
    expect(() => checkAgentNames(['+emotional'], variants)).toThrow('names no model before the "+"');
    expect(() => checkCrossable(['alpha+emotional'], ['default', 'emotional'], '--persuader-variants')).toThrow(
      'alpha+emotional already names a prompt variant, so it cannot be crossed with --persuader-variants: list the plain model (alpha)',
    );
    expect(() => checkCrossable(['alpha+emotional'], ['default'], '--persuader-variants')).not.toThrow();
  });

  it("seeds a role by the model's name where the variant leaves that role's prompts alone", () => {
    const book = {
      ...variants,
      doubtful: { persuadee: { opening: 'Your view on {{claim}}?' } },
      both: { ...variants.emotional, persuadee: { final: '{{claim}}' } },
    };
    expect(seedNamesOf('alpha', book)).toEqual({ persuader: 'alpha', persuadee: 'alpha' });
    expect(seedNamesOf('alpha+emotional', book)).toEqual({ persuader: 'alpha+emotional', persuadee: 'alpha' });
    expect(seedNamesOf('alpha+doubtful', book)).toEqual({ persuader: 'alpha', persuadee: 'alpha+doubtful' });
    expect(seedNamesOf('alpha+both', book)).toEqual({ persuader: 'alpha+both', persuadee: 'alpha+both' });
    expect(seedNamesOf('alpha+emotional', {})).toEqual({ persuader: 'alpha+emotional', persuadee: 'alpha+emotional' });
  });

  it('resolves each agent once: its model, variant, prompts (one set per variant) and seed names', () => {
    const book = { ...variants, doubtful: { persuadee: { opening: 'Your view on {{claim}}?' } } };
    const roster = resolveAgents(['alpha', 'alpha+emotional', 'beta+emotional', 'alpha', 'beta+doubtful'], book);
    expect(roster.agents.map(({ name, model, variant, seedNames }) => ({ name, model, variant, seedNames }))).toEqual([
      { name: 'alpha', model: 'alpha', variant: 'default', seedNames: { persuader: 'alpha', persuadee: 'alpha' } },
      { name: 'alpha+emotional', model: 'alpha', variant: 'emotional', seedNames: { persuader: 'alpha+emotional', persuadee: 'alpha' } },
      { name: 'beta+emotional', model: 'beta', variant: 'emotional', seedNames: { persuader: 'beta+emotional', persuadee: 'beta' } },
      { name: 'beta+doubtful', model: 'beta', variant: 'doubtful', seedNames: { persuader: 'beta', persuadee: 'beta+doubtful' } },
    ]);
    expect(roster.models).toEqual(['alpha', 'beta']);
    const claim = claimOf('Tea is better than coffee');
    expect(roster.agent('alpha+emotional').prompts.persuaderSystem(claim)).toContain('Tea is better than coffee');
    expect(roster.agent('alpha+emotional').prompts).toBe(roster.agent('beta+emotional').prompts);
    expect(roster.agent('alpha').prompts).not.toBe(roster.agent('alpha+emotional').prompts);
    // The same value each time a step asks, not a name split again.
    expect(roster.agent('alpha+emotional')).toBe(roster.agents[1]);
    expect(roster.agent('gamma+emotional')).toBe(roster.agent('gamma+emotional'));
  });

  it('finds an agent that a role holds beside its model although its variant changes nothing of that role', () => {
    const book = { ...variants, doubtful: { persuadee: { opening: 'Your view on {{claim}}?' } } };
    expect(echoedAgents(['alpha', 'alpha+emotional', 'beta+emotional', 'alpha+doubtful'], 'persuadee', book)).toEqual([
      { agent: 'alpha+emotional', model: 'alpha', variant: 'emotional', role: 'persuadee' },
    ]);
    expect(echoedAgents(['alpha', 'alpha+emotional', 'alpha+doubtful'], 'persuader', book)).toEqual([
      { agent: 'alpha+doubtful', model: 'alpha', variant: 'doubtful', role: 'persuader' },
    ]);
    expect(echoedAgents(['alpha', 'beta'], 'persuadee', book)).toEqual([]);
  });

  it('refuses a variant that hides the question of misinformation items', () => {
    const question = { ...claimOf('Water boils at 90 C'), domain: 'misinformation' as const, question: 'At what temperature?' };
    expect(() => checkVariantsFitClaims(variants, [question])).toThrow('add {{question}} to variants.emotional.persuader.system');
    expect(() => checkVariantsFitClaims(variants, [claimOf('Cats are better')])).not.toThrow();
  });
});
