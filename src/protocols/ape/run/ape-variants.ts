import type { PmiycConfig } from '../../../config/config-schema.js';
import { configProblemAt } from '../../../config/parse-config.js';
import { InputError } from '../../../domain/errors/input-error.js';
import { DEFAULT_VARIANT, templateFieldsOf, unknownFieldsProblem } from '../../../protocol/prompt-variants.js';
import { agentOf, checkAgentNames } from '../../../studies/tournament/agents.js';
import { APE_PROTOCOL, type ApeVariantTemplates } from './ape-design.js';

/**
 * APE's prompt variants (docs/design/variants.md, "Protocols"): a variant in the config may give APE's persuader a
 * system prompt of its own, under `variants.NAME.protocols.ape.persuader.system`. The config holds it as text
 * (`config/` knows no protocol); this file says what APE takes there, reads it and checks it, naming a problem by
 * file, line and key as the config's own checks do.
 */

/**
 * The fields an APE template may use: the topic's statement, the direction (the aim in words: "come to believe
 * that the statement is true", or "stop believing the statement, ..."), and the degree (the sentence that tells
 * the persuader its persuasion degree and its scale, or to persuade as effectively as it can when the run tells
 * none).
 */
const APE_TEMPLATE_FIELDS = ['statement', 'direction', 'degree'] as const;

/** The prompts of APE a variant may replace, by role: the persuader's system prompt (the persuadee and the judges keep APE's own). */
const APE_TEMPLATE_KEYS: Readonly<Record<string, readonly string[]>> = { persuader: ['system'] };

/** What is wrong with an APE persuader template, or undefined: an unknown field, or no `{{direction}}`. */
export function apeTemplateProblem(template: string): string | undefined {
  const used = templateFieldsOf(template);
  const unknown = unknownFieldsProblem(used, APE_TEMPLATE_FIELDS);
  if (unknown !== undefined) return unknown;
  if (!used.has('direction')) return 'must contain {{direction}} (which way the persuader is to move the person: into the statement or out of it)';
  return undefined;
}

const keyPathOf = (variant: string, ...rest: string[]) => ['variants', variant, 'protocols', APE_PROTOCOL, ...rest];

/** An unknown key under a variant's `protocols.ape` (or under its role), named where it is, with the keys allowed there. */
function unknownKeyProblem(config: PmiycConfig, path: string[], key: string, allowed: readonly string[]) {
  return configProblemAt(
    config,
    [...path, key],
    `unknown key "${key}": APE's variants give ${allowed.join(', ')} here (the persuadee and the judges keep APE's prompts)`,
  );
}

/** One variant's APE templates, checked; undefined when the variant gives APE none. */
function readApeTemplates(config: PmiycConfig, variant: string): ApeVariantTemplates | undefined {
  const given = config.variants[variant]?.protocols?.[APE_PROTOCOL];
  if (given === undefined) return undefined;
  for (const [role, prompts] of Object.entries(given)) {
    const allowedPrompts = APE_TEMPLATE_KEYS[role];
    if (allowedPrompts === undefined) throw unknownKeyProblem(config, keyPathOf(variant), role, Object.keys(APE_TEMPLATE_KEYS));
    const unknown = Object.keys(prompts).find((prompt) => !allowedPrompts.includes(prompt));
    if (unknown !== undefined) throw unknownKeyProblem(config, keyPathOf(variant, role), unknown, allowedPrompts);
  }
  const system = given['persuader']?.['system'];
  if (system === undefined) throw configProblemAt(config, keyPathOf(variant, 'persuader', 'system'), "is required: the persuader's system template");
  const problem = apeTemplateProblem(system);
  if (problem !== undefined) throw configProblemAt(config, keyPathOf(variant, 'persuader', 'system'), problem);
  return { persuader: { system } };
}

/** Every variant's APE templates in the config, each checked (a problem names its file, line and key); variants that give APE none are left out. */
function readApeVariants(config: PmiycConfig): Record<string, ApeVariantTemplates> {
  const book: Record<string, ApeVariantTemplates> = {};
  for (const variant of Object.keys(config.variants)) {
    const templates = readApeTemplates(config, variant);
    if (templates !== undefined) book[variant] = templates;
  }
  return book;
}

/** The refusal of a variant used in an APE run without APE templates: what to add, and where. */
function noApeTemplatesText(agent: string, variant: string): string {
  return (
    `${agent}: the prompt variant ${variant} has no prompt for APE: add variants.${variant}.protocols.ape.persuader.system to the config ` +
    `(the persuader's system prompt; it must contain {{direction}}, and may use ${APE_TEMPLATE_FIELDS.map((field) => `{{${field}}}`).join(', ')})`
  );
}

/**
 * The APE templates of the variants a new run's persuaders use (`alpha+bold`), read from the config and checked:
 * every name's `+` introduces a defined variant, every variant used gives APE a persuader template, and with
 * `--state-degree` every such template tells the degree (`{{degree}}`), or the degree check would compare a
 * degree the persuader was never told. The config's other APE templates are checked too.
 */
export function apeVariantsUsed(persuaders: readonly string[], config: PmiycConfig, statedDegree: boolean): Record<string, ApeVariantTemplates> {
  checkAgentNames(persuaders, config.variants);
  const book = readApeVariants(config);
  const used: Record<string, ApeVariantTemplates> = {};
  for (const name of persuaders) {
    const { variant } = agentOf(name, config.variants);
    if (variant === DEFAULT_VARIANT) continue;
    const templates = book[variant];
    if (templates === undefined) throw new InputError(noApeTemplatesText(name, variant));
    if (statedDegree && !templateFieldsOf(templates.persuader.system).has('degree'))
      throw new InputError(
        `${name}: the prompt variant ${variant} does not tell the persuader its degree, which --state-degree asks for: add {{degree}} to variants.${variant}.protocols.ape.persuader.system, or drop --state-degree`,
      );
    used[variant] = templates;
  }
  return used;
}

/**
 * A resume runs the templates its run started with: a variant the config now gives other APE templates is refused,
 * naming it (editing a template is a new experiment: a new run, whose changed requests are asked anew).
 */
export function checkApeResumeVariants(runName: string, stored: Readonly<Record<string, ApeVariantTemplates>>, config: PmiycConfig): void {
  const configured = readApeVariants(config);
  const changed = Object.keys(stored).filter(
    (variant) => Object.hasOwn(configured, variant) && JSON.stringify(configured[variant]) !== JSON.stringify(stored[variant]),
  );
  if (changed.length === 0) return;
  throw new InputError(
    `the config's APE prompt of variant ${changed.join(', ')} differs from the one run ${runName} started with: a resume runs the prompts it started with; to use the edited templates start a new run (--run <name>), whose calls are new`,
  );
}

/**
 * Refuses a `+` in the name of the persuadee, the evaluator or the refusal check: APE's variants are the persuaders'
 * (they alone are compared); the other roles are models asked with APE's own prompts.
 */
export function checkApeRoleModels(roles: Readonly<Record<string, string | undefined>>): void {
  for (const [flag, name] of Object.entries(roles)) {
    if (name === undefined || !name.includes('+')) continue;
    throw new InputError(
      `${flag} ${name}: in an APE run a prompt variant is a persuader's (--models a,a+v); ${flag} names a model, asked with APE's own prompts: name the model alone (a model id that contains "+" is named by an alias under models: in the config)`,
    );
  }
}
