import type { Claim } from '../../domain/claim.js';
import { InputError } from '../../domain/errors/input-error.js';
import type { SeedNames } from '../../engine/call-seed.js';
import { type AgentPrompts, DEFAULT_VARIANT, promptsOfVariant, templateShowsQuestion, type VariantTemplates } from '../../protocol/prompt-variants.js';

/**
 * An agent of a tournament: a model under a prompt variant. It is named after the model for
 * pmiyc's own prompts (`alpha`) and `model+variant` otherwise (`alpha+emotional`), and that name is
 * what is planned, stored, exported and reported, like a model's.
 */
export interface Agent {
  readonly name: string;
  readonly model: string;
  readonly variant: string;
}

export type VariantBook = Readonly<Record<string, VariantTemplates>>;

/** The defined variants by name, whatever each holds (a tournament's templates, a protocol's): all a name is split by. */
type DefinedVariants = Readonly<Record<string, unknown>>;

function agentName(model: string, variant: string): string {
  return variant === DEFAULT_VARIANT ? model : `${model}+${variant}`;
}

/** The agent a name stands for: `model+variant` when the part after the last `+` is a known variant, else a model. */
export function agentOf(name: string, variants: DefinedVariants): Agent {
  const plus = name.lastIndexOf('+');
  const variant = plus > 0 ? name.slice(plus + 1) : undefined;
  if (variant !== undefined && Object.hasOwn(variants, variant)) return { name, model: name.slice(0, plus), variant };
  return { name, model: name, variant: DEFAULT_VARIANT };
}

/** The defined variants, for a message: their names, or how to define one. */
function definedVariantsText(variants: DefinedVariants): string {
  const names = Object.keys(variants);
  return names.length > 0 ? `the defined variants are ${names.join(', ')}` : 'no variants are defined: define one under variants: in the config';
}

/**
 * Refuses an agent name whose `+` does not introduce a variant the config defines (`alpha+emotinal`
 * would otherwise be taken for a model id and asked for, or crossed into `alpha+emotinal+emotional`).
 * In an agent name a `+` always separates the variant: a model whose id contains one is named through
 * an alias under `models:` (aliases cannot contain `+`). See docs/design/variants.md.
 */
export function checkAgentNames(names: readonly string[], variants: DefinedVariants): void {
  for (const name of names) {
    const plus = name.lastIndexOf('+');
    if (plus < 0) continue;
    const [model, variant] = [name.slice(0, plus), name.slice(plus + 1)];
    let problem: string;
    if (!Object.hasOwn(variants, variant)) problem = `"${variant}" after the "+" is not a prompt variant (${definedVariantsText(variants)})`;
    else if (model === '') problem = 'names no model before the "+"';
    else if (model.includes('+')) problem = 'has more than one "+" (one model, one variant)';
    else continue;
    throw new InputError(`${name}: ${problem}; a model id that contains "+" is named by an alias under models: in the config`);
  }
}

/**
 * Refuses to cross a name that already has a variant (`alpha+x`) with another variant, which would
 * make `alpha+x+y`; `flag` is the option that gave the variants, for the message.
 */
export function checkCrossable(names: readonly string[], variants: readonly string[] | undefined, flag: string): void {
  if (!variants?.some((variant) => variant !== DEFAULT_VARIANT)) return;
  const named = names.find((name) => name.includes('+'));
  if (named === undefined) return;
  throw new InputError(
    `${named} already names a prompt variant, so it cannot be crossed with ${flag}: list the plain model (${named.slice(0, named.lastIndexOf('+'))}) and give all its variants with ${flag}`,
  );
}

/** Every model crossed with every variant, in that order: `[a, b] x [default, x]` is `a, a+x, b, b+x`. */
export function crossAgents(models: readonly string[], variants: readonly string[] | undefined): string[] {
  return models.flatMap((model) => (variants ?? [DEFAULT_VARIANT]).map((variant) => agentName(model, variant)));
}

/** Whether a variant replaces any prompt of a role (else that role is asked with pmiyc's own prompts). */
function replacesPromptsOf(templates: VariantTemplates, role: keyof SeedNames): boolean {
  if (role === 'persuader') return templates.persuader?.system !== undefined;
  const persuadee = templates.persuadee;
  return persuadee !== undefined && (persuadee.system !== undefined || persuadee.opening !== undefined || persuadee.final !== undefined);
}

/**
 * For each role, the name that stands for the prompts an agent is asked with in it, from which its
 * calls' seeds derive: the agent's own where its variant replaces a prompt of the role, else its
 * model's. A persuader-only variant (`alpha+emotional`) is then asked, as a persuadee and for its
 * stance, exactly what `alpha` is asked, seed included: the same request, made once. A persuadee
 * variant keeps openings of its own. Without variants every name is the agent's, as it always was.
 */
export function seedNamesOf(name: string, variants: VariantBook): SeedNames {
  const agent = agentOf(name, variants);
  const templates = variants[agent.variant];
  if (agent.variant === DEFAULT_VARIANT || templates === undefined) return { persuader: name, persuadee: name };
  return {
    persuader: replacesPromptsOf(templates, 'persuader') ? name : agent.model,
    persuadee: replacesPromptsOf(templates, 'persuadee') ? name : agent.model,
  };
}

/**
 * An agent as a run asks it, worked out once from its name: its model, its variant, the prompts it is
 * asked with, and for each role the name its calls are seeded by (`seedNamesOf`).
 */
interface ResolvedAgent extends Agent {
  readonly prompts: AgentPrompts;
  readonly seedNames: SeedNames;
}

/**
 * The agents of a run, each resolved once from its name (see `resolveAgents`) and then looked up by
 * it, so that no step splits a name again.
 */
export interface AgentRoster {
  /** The distinct agents, in the order first named. */
  readonly agents: readonly ResolvedAgent[];
  /** The distinct models behind them, in the order first named: what is configured, called and rate-limited. */
  readonly models: readonly string[];
  /** The agent a name stands for; a name the roster was not made with is resolved and kept then. */
  agent(name: string): ResolvedAgent;
}

/**
 * Resolves each agent name once: model and variant (`agentOf`), the variant's prompts (made once per
 * variant) and the seed names. Pass the roster down instead of the names and the variants.
 */
export function resolveAgents(names: readonly string[], variants: VariantBook): AgentRoster {
  const byName = new Map<string, ResolvedAgent>();
  const promptsByVariant = new Map<string, AgentPrompts>();
  const resolve = (name: string): ResolvedAgent => {
    const known = byName.get(name);
    if (known) return known;
    const agent = agentOf(name, variants);
    let prompts = promptsByVariant.get(agent.variant);
    if (!prompts) {
      prompts = promptsOfVariant(variants[agent.variant]);
      promptsByVariant.set(agent.variant, prompts);
    }
    const resolved = { ...agent, prompts, seedNames: seedNamesOf(name, variants) };
    byName.set(name, resolved);
    return resolved;
  };
  const agents = [...new Set(names)].map(resolve);
  return { agents, models: [...new Set(agents.map((agent) => agent.model))], agent: resolve };
}

/** An agent whose requests in a role are its model's, while the model plays that role in the same run too. */
export interface EchoedAgent {
  readonly agent: string;
  readonly model: string;
  readonly variant: string;
  readonly role: keyof SeedNames;
}

/**
 * Agents that a role's list holds beside their own model although their variant replaces no prompt
 * of that role (a persuader-only variant crossed as a persuadee): asked exactly what the model is
 * asked, seeds included, their conversations there are the model's, replayed, and add no data.
 * `pmiyc run` says so before it starts, so that no one reads them as a second measurement.
 */
export function echoedAgents(names: readonly string[], role: keyof SeedNames, variants: VariantBook): EchoedAgent[] {
  const present = new Set(names);
  return names.flatMap((name) => {
    const agent = agentOf(name, variants);
    if (agent.variant === DEFAULT_VARIANT || seedNamesOf(name, variants)[role] !== agent.model || !present.has(agent.model)) return [];
    return [{ agent: name, model: agent.model, variant: agent.variant, role }];
  });
}

/** Claims with a question (misinformation items) need every system template of the run to show it. */
export function checkVariantsFitClaims(variants: VariantBook, claims: readonly Claim[]): void {
  if (!claims.some((claim) => claim.question !== undefined)) return;
  for (const [name, templates] of Object.entries(variants)) {
    for (const [role, system] of [
      ['persuader', templates.persuader?.system],
      ['persuadee', templates.persuadee?.system],
    ] as const) {
      if (system !== undefined && !templateShowsQuestion(system)) {
        throw new InputError(
          `variant ${name}: its ${role} system template has no {{question}}, but some claims are questions with a proposed answer: add {{question}} to variants.${name}.${role}.system`,
        );
      }
    }
  }
}
