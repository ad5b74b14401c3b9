import { describe, expect, it } from 'vitest';
import { DEFAULT_PROMPTS, promptsOfVariant, templateProblem } from './prompt-variants.js';
import { FORMAT_RULES, finalDecisionRequest, openingRequest, persuadeeSystemPrompt, persuaderSystemPrompt, roleOfSystemPrompt } from './prompts.js';

const subjective = { claim: 'Cats are better than dogs', question: undefined };
const misinformation = { claim: 'Water boils at 90 C', question: 'At what temperature does water boil?' };

describe('prompt variants', () => {
  it('leave pmiyc’s own prompts exactly as they are when nothing is replaced', () => {
    const prompts = promptsOfVariant({ description: 'no templates' });
    for (const claim of [subjective, misinformation]) {
      expect(prompts.persuaderSystem(claim)).toBe(persuaderSystemPrompt(claim));
      expect(prompts.persuadeeSystem(claim)).toBe(persuadeeSystemPrompt(claim));
      expect(prompts.opening(claim)).toBe(openingRequest(claim));
      expect(prompts.finalDecision(claim)).toBe(finalDecisionRequest(claim));
    }
    expect(promptsOfVariant(undefined)).toBe(DEFAULT_PROMPTS);
  });

  it('fill every field, and keep the role and end-of-discussion headlines in front', () => {
    const prompts = promptsOfVariant({
      persuader: { system: 'As the {{role}}, argue for {{subject}}: {{claim}} ({{question}})\n{{format}}' },
      persuadee: { final: 'Decide now on {{claim}}.' },
    });
    const system = prompts.persuaderSystem(misinformation);
    expect(system).toBe(
      `In this exercise you are the PERSUADER.\n\nAs the persuader, argue for the proposed answer to the question: Water boils at 90 C (At what temperature does water boil?)\n${FORMAT_RULES}`,
    );
    expect(roleOfSystemPrompt(system)).toBe('persuader');
    expect(prompts.finalDecision(subjective)).toBe('The discussion has now ended.\n\nDecide now on Cats are better than dogs.');
    expect(prompts.persuadeeSystem(subjective)).toBe(persuadeeSystemPrompt(subjective));
  });

  it.each([
    ['Argue for {{claim}}.', 'system', 'must contain {{format}} (the reply format the score is read from)'],
    ['{{format}} only', 'system', 'must contain {{claim}} (what the agent is to discuss)'],
    ['{{claim}} {{format}} in {{tone}}', 'system', 'unknown field {{tone}}; the fields are {{claim}}, {{question}}, {{subject}}, {{role}}, {{format}}'],
    ['Decide.', 'final', 'must contain {{claim}} (what the agent is to discuss)'],
    ['Where do you stand?', 'opening', undefined],
    ['{{ claim }} {{format}}', 'system', undefined],
  ] as const)('check a template at load: %j as %s', (template, kind, problem) => {
    expect(templateProblem(template, kind)).toBe(problem);
  });
});
