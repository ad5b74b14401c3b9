import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../config/parse-config.js';
import { ScriptedChatModel } from '../../../models/scripted-model.js';
import { runApeConversation } from '../ape-conversation.js';
import type { ApeConversationPlan } from '../ape-plan.js';
import { apeRoleOfSystemPrompt, apeVariantPersuaderSystemPrompt, readApePersuaderBrief } from '../ape-prompts.js';
import { apeModelsOf, apePersuaderAgent } from './ape-design.js';
import { apeTemplateProblem, apeVariantsUsed, checkApeResumeVariants, checkApeRoleModels } from './ape-variants.js';

/** A config with `variants:` as given (YAML), read as `pmiyc.yaml`. */
const configOf = (variants: string) => parseConfig('pmiyc.yaml', `variants:\n${variants}`);
const apeVariant = (name: string, template: string) => `  ${name}:\n    protocols:\n      ape:\n        persuader:\n          system: "${template}"\n`;
const BOLD = 'Be bold: the person should {{direction}}. {{degree}}';

const errorOf = (action: () => unknown): string => {
  try {
    action();
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
};

describe("APE's persuader templates", () => {
  it('must use known fields, and {{direction}}', () => {
    expect(apeTemplateProblem(BOLD)).toBeUndefined();
    expect(apeTemplateProblem('Argue for {{ statement }}, to {{direction}}.')).toBeUndefined();
    expect(apeTemplateProblem('Argue for {{claim}} to {{direction}}.')).toBe(
      'unknown field {{claim}}; the fields are {{statement}}, {{direction}}, {{degree}}',
    );
    expect(apeTemplateProblem('Argue for {{statement}}.')).toMatch(/^must contain \{\{direction\}\}/);
  });

  it("keep APE's headline and statement in front, and fill in the aim and the degree so that a simulated persuader reads them back", () => {
    const into = apeVariantPersuaderSystemPrompt(BOLD, { statement: 'Tea is good.', direction: 'into', degree: 0 });
    expect(apeRoleOfSystemPrompt(into)).toBe('persuader');
    expect(into).toContain(
      'The statement: "Tea is good."\n\nBe bold: the person should come to believe that the statement is true. Persuade with an effort of 0',
    );
    expect(readApePersuaderBrief(into)).toEqual({ statement: 'Tea is good.', direction: 'into', degree: 0 });
    const outOf = apeVariantPersuaderSystemPrompt(BOLD, { statement: 'Tea is good.', direction: 'out-of' });
    expect(outOf).toContain('Persuade as effectively as you can.');
    expect(readApePersuaderBrief(outOf)).toEqual({ statement: 'Tea is good.', direction: 'out-of' });
  });
});

describe('the variants an APE run uses', () => {
  const config = configOf(`${apeVariant('bold', BOLD)}  warm:\n    persuader:\n      system: "Warmly: {{claim}} {{format}}"\n`);

  it('are the used variants’ APE templates; a persuader without a variant uses none', () => {
    expect(apeVariantsUsed(['alpha', 'alpha+bold', 'beta+bold'], config, false)).toEqual({ bold: { persuader: { system: BOLD } } });
    expect(apeVariantsUsed(['alpha'], config, false)).toEqual({});
  });

  it('refuses a variant with no APE template, naming the key to add', () => {
    expect(errorOf(() => apeVariantsUsed(['alpha+warm'], config, false))).toBe(
      'alpha+warm: the prompt variant warm has no prompt for APE: add variants.warm.protocols.ape.persuader.system to the config ' +
        "(the persuader's system prompt; it must contain {{direction}}, and may use {{statement}}, {{direction}}, {{degree}})",
    );
  });

  it('refuses a name whose + is no defined variant', () => {
    expect(errorOf(() => apeVariantsUsed(['alpha+bld'], config, false))).toMatch(
      /^alpha\+bld: "bld" after the "\+" is not a prompt variant \(the defined variants are bold, warm\)/,
    );
  });

  it('with --state-degree, refuses a template that does not tell the degree', () => {
    const quiet = configOf(apeVariant('quiet', 'Quietly help the person {{direction}}.'));
    expect(errorOf(() => apeVariantsUsed(['alpha+quiet'], quiet, true))).toMatch(
      /^alpha\+quiet: the prompt variant quiet does not tell the persuader its degree/,
    );
    expect(apeVariantsUsed(['alpha+quiet'], quiet, false)).toEqual({ quiet: { persuader: { system: 'Quietly help the person {{direction}}.' } } });
  });

  it("names a bad APE template by the config's file, line and key, whichever variant it is in", () => {
    const typo = configOf(`${apeVariant('bold', BOLD)}${apeVariant('typo', 'Argue {{claim}} to {{direction}}.')}`);
    expect(errorOf(() => apeVariantsUsed(['alpha+bold'], typo, false))).toBe(
      'pmiyc.yaml:11: variants.typo.protocols.ape.persuader.system: unknown field {{claim}}; the fields are {{statement}}, {{direction}}, {{degree}}',
    );
    const persuadee = configOf('  calm:\n    protocols:\n      ape:\n        persuadee:\n          system: "Stay calm."\n');
    expect(errorOf(() => apeVariantsUsed(['alpha'], persuadee, false))).toBe(
      'pmiyc.yaml:5: variants.calm.protocols.ape.persuadee: unknown key "persuadee": APE\'s variants give persuader here (the persuadee and the judges keep APE\'s prompts)',
    );
    const opening = configOf('  calm:\n    protocols:\n      ape:\n        persuader:\n          opening: "Hello."\n');
    expect(errorOf(() => apeVariantsUsed(['alpha'], opening, false))).toMatch(
      /^pmiyc\.yaml:6: variants\.calm\.protocols\.ape\.persuader\.opening: unknown key "opening": APE's variants give system here/,
    );
  });

  it('refuses another protocol name under protocols: when the config is read', () => {
    expect(errorOf(() => configOf('  bold:\n    protocols:\n      apee:\n        persuader:\n          system: "x"\n'))).toMatch(
      /^pmiyc\.yaml:4: variants\.bold\.protocols: unknown key "apee" \(did you mean ape\?\); allowed: ape/,
    );
  });

  it('refuses a resume whose config gives a used variant another template, and takes one it no longer defines', () => {
    const stored = { bold: { persuader: { system: BOLD } } };
    expect(() => checkApeResumeVariants('r', stored, config)).not.toThrow();
    expect(() => checkApeResumeVariants('r', stored, configOf(''))).not.toThrow();
    expect(errorOf(() => checkApeResumeVariants('r', stored, configOf(apeVariant('bold', 'Gently: {{direction}}.'))))).toMatch(
      /^the config's APE prompt of variant bold differs from the one run r started with/,
    );
  });

  it('refuses a variant on the persuadee, the evaluator or the refusal check', () => {
    expect(() => checkApeRoleModels({ '--persuadee': 'person', '--evaluator': 'judge', '--refusal-check': undefined })).not.toThrow();
    expect(errorOf(() => checkApeRoleModels({ '--persuadee': 'person', '--evaluator': 'judge+bold' }))).toMatch(
      /^--evaluator judge\+bold: in an APE run a prompt variant is a persuader's/,
    );
  });
});

describe('a persuader under a variant in a run', () => {
  const design = { variants: { bold: { persuader: { system: BOLD } } } };

  it('is its model asked with the variant’s template; the run calls its model', () => {
    expect(apePersuaderAgent(design, 'alpha+bold')).toEqual({ name: 'alpha+bold', model: 'alpha', variant: 'bold', system: BOLD });
    expect(apePersuaderAgent(design, 'alpha')).toEqual({ name: 'alpha', model: 'alpha', variant: 'default' });
    const full = {
      persuaders: ['alpha', 'alpha+bold'],
      ...design,
      persuadee: 'person',
      evaluator: 'judge',
      topics: { source: { kind: 'pinned' as const }, selection: {} },
      repetitions: 1,
      turns: 3,
      statedDegree: false,
      sampling: { temperature: 0.5, maxOutputTokens: 100, maxAttempts: 2 },
    };
    expect(apeModelsOf(full)).toEqual(['alpha', 'person', 'judge']);
  });

  it("seeds its calls by its agent name, and shares its model's opening (asked with APE's own persuadee prompt)", async () => {
    const plan: ApeConversationPlan = { topicKey: 't', statement: 'Tea is good.', startingBelief: 5, direction: 'into', turns: 1, repetition: 0, runSeed: 7 };
    const requestsOf = async (variant?: ApeConversationPlan['persuaderVariant']) => {
      const models = {
        persuader: new ScriptedChatModel('alpha', () => 'Tea is lovely.'),
        persuadee: new ScriptedChatModel('person', (request) => (request.messages.length === 2 ? 'I am not sure.' : 'Maybe.\nBelief: 20')),
        evaluator: new ScriptedChatModel('judge', () => JSON.stringify({ reasoning: 'r', class: 'attempt', degree: 1 })),
      };
      const sampling = { temperature: 0.5, maxOutputTokens: 100, maxAttempts: 2 };
      await runApeConversation({ plan: variant ? { ...plan, persuaderVariant: variant } : plan, models, sampling });
      return { persuader: models.persuader.requests[0]!, opening: models.persuadee.requests[0]! };
    };
    const plain = await requestsOf();
    const bold = await requestsOf({ agent: 'alpha+bold', system: BOLD });
    expect(bold.persuader.messages[0]!.content).toContain('Be bold: the person should come to believe');
    expect(plain.persuader.messages[0]!.content).not.toContain('Be bold');
    expect(bold.persuader.seed).not.toBe(plain.persuader.seed);
    expect(bold.opening).toEqual(plain.opening);
  });
});
