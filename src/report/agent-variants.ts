import type { VariantOf } from '../metrics/arms/variant-contrast.js';
import { type RunConfig, tournamentDesignOf } from '../studies/run-config.js';
import { agentOf, echoedAgents, type VariantBook } from '../studies/tournament/agents.js';
import type { StoredDesign } from '../studies/tournament/tournament-design.js';
import { runAliases } from './run-aliases.js';

/** An agent's model and prompt variant, as the CSV files name them: `default` for pmiyc's own prompts. */
export interface AgentParts {
  readonly baseModel: string;
  readonly variant: string;
}

/** What the CSV exports say of an agent: its model and prompt variant, and the provider and model id the run recorded for that model. */
export interface AgentColumns extends AgentParts {
  /** Null when the run did not record its models (an imported run, or one made by an older pmiyc). */
  readonly provider: string | null;
  readonly modelId: string | null;
}

/** The variants the runs define (each run stores those its agents use with its design); names only. */
function variantBookOf(configs: ReadonlyArray<RunConfig | undefined>): VariantBook {
  const book: Record<string, VariantBook[string]> = {};
  for (const config of configs) {
    const variants = config && tournamentDesignOf(config)?.variants;
    for (const name of Object.keys(variants ?? {})) book[name] = {};
  }
  return book;
}

/**
 * How the agents of some runs split into model and variant (docs/design/variants.md): `alpha+emotional`
 * is `alpha` under `emotional` when a run defines `emotional`, and any other name is a model under
 * the default prompts. Runs without variants (and older or imported runs) give every name `default`.
 */
export function agentPartsOf(configs: ReadonlyArray<RunConfig | undefined>): { readonly parts: (agent: string) => AgentParts; readonly variantOf: VariantOf } {
  const book = variantBookOf(configs);
  const parts = (agent: string): AgentParts => {
    const { model, variant } = agentOf(agent, book);
    return { baseModel: model, variant };
  };
  return {
    parts,
    variantOf: (agent) => {
      const { model, variant, name } = agentOf(agent, book);
      return model === name ? null : { model, variant };
    },
  };
}

/** One line per agent whose conversations in a role repeat its model's there (see `echoedAgents`): said before a run starts. */
export function echoedAgentsText(design: StoredDesign): string[] {
  const variants = design.variants ?? {};
  const echoed = [...echoedAgents(design.persuaders, 'persuader', variants), ...echoedAgents(design.persuadees, 'persuadee', variants)];
  return echoed.map(
    ({ agent, model, variant, role }) =>
      `${agent} as a ${role} is asked exactly what ${model} is asked (variant ${variant} replaces no ${role} prompt): its conversations as a ${role} are ${model}'s, replayed, not a second measurement`,
  );
}

/**
 * An agent's model and variant (as `agentPartsOf`) with the provider and model id that its run recorded
 * for that model (report.json `meta.aliases`, `runAliases`): null for both when the run recorded no
 * models (an imported run, or one of an older pmiyc).
 */
export function agentColumnsOf(run: { readonly name: string; readonly config: RunConfig }): (agent: string) => AgentColumns {
  const { parts } = agentPartsOf([run.config]);
  const identities = new Map(runAliases([{ name: run.name, runConfig: run.config }], []).map((identity) => [identity.alias, identity]));
  return (agent) => {
    const { baseModel, variant } = parts(agent);
    const identity = identities.get(baseModel) ?? identities.get(agent);
    return { baseModel, variant, provider: identity?.provider ?? null, modelId: identity?.modelId ?? null };
  };
}
