import { describe, expect, it } from 'vitest';
import type { Claim } from '../../domain/claim.js';
import { agentOf, checkVariantsFitClaims, crossAgents, modelsOfAgents, seedNamesOf } from './agents.js';

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
    expect(modelsOfAgents(['a', 'a+emotional', 'b'], variants)).toEqual(['a', 'b']);
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

  it('refuses a variant that hides the question of misinformation items', () => {
    const question = { ...claimOf('Water boils at 90 C'), domain: 'misinformation' as const, question: 'At what temperature?' };
    expect(() => checkVariantsFitClaims(variants, [question])).toThrow('add {{question}} to variants.emotional.persuader.system');
    expect(() => checkVariantsFitClaims(variants, [claimOf('Cats are better')])).not.toThrow();
  });
});
