import type { VariantOf } from '../metrics/variant-contrast.js';
import { agentOf, echoedAgents, type VariantBook } from '../studies/tournament/agents.js';
import type { StoredDesign } from '../studies/tournament/tournament-design.js';

/** An agent's model and prompt variant, as the CSV files name them: `default` for pmiyc's own prompts. */
export interface AgentParts {
  readonly baseModel: string;
  readonly variant: string;
}

/** The variants the runs define (each run stores those its agents use with its design); names only. */
function variantBookOf(configs: readonly unknown[]): VariantBook {
  const book: Record<string, VariantBook[string]> = {};
  for (const config of configs) {
    const variants = (config as { design?: { variants?: unknown } } | null | undefined)?.design?.variants;
    if (variants && typeof variants === 'object') for (const name of Object.keys(variants)) book[name] = {};
  }
  return book;
}

/**
 * How the agents of some runs split into model and variant (docs/design/variants.md): `alpha+emotional`
 * is `alpha` under `emotional` when a run defines `emotional`, and any other name is a model under
 * the default prompts. Runs without variants (and older or imported runs) give every name `default`.
 */
export function agentPartsOf(configs: readonly unknown[]): { readonly parts: (agent: string) => AgentParts; readonly variantOf: VariantOf } {
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
