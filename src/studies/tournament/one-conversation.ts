import type { Claim } from '../../domain/claim.js';
import type { ConversationSpec, Turn } from '../../domain/conversation.js';
import { type ConversationRecord, toConversationRecord } from '../../domain/conversation-record.js';
import { runConversation } from '../../engine/run-conversation.js';
import type { SamplingSettings } from '../../engine/sample-turn.js';
import type { ModelRegistry } from '../../runner/models/model-registry.js';
import { checkAgentNames, resolveAgents, type VariantBook } from './agents.js';

export interface OneConversationInput {
  /** The agents, named as a run names them: a model, or model+variant of `variants`. */
  readonly persuader: string;
  readonly persuadee: string;
  /** The claim argued for; with `question`, the incorrect answer to it (a misinformation item). */
  readonly claim: string;
  readonly question?: string;
  readonly turns: number;
  readonly seed: number;
  readonly sampling: SamplingSettings;
  readonly variants: VariantBook;
  readonly registry: Pick<ModelRegistry, 'modelFor'>;
}

/** A conversation ready to run: its spec (for a header), then `run`, which resolves to its record (not stored: it belongs to no run). */
export interface OneConversation {
  readonly spec: ConversationSpec;
  run(options: { readonly abortSignal?: AbortSignal; readonly onTurn?: (turn: Turn) => void }): Promise<ConversationRecord>;
}

/**
 * One conversation outside any run (`pmiyc converse`), asked exactly as a run asks it: either side
 * may be an agent under a prompt variant (a `+` must name a defined one), and the calls are seeded as
 * a run seeds them, so a persuader-only variant opens as its model does.
 */
export function prepareOneConversation(input: OneConversationInput): OneConversation {
  checkAgentNames([input.persuader, input.persuadee], input.variants);
  const agents = resolveAgents([input.persuader, input.persuadee], input.variants);
  const persuaderAgent = agents.agent(input.persuader);
  const persuadeeAgent = agents.agent(input.persuadee);
  const persuader = input.registry.modelFor(persuaderAgent.model);
  const persuadee = input.registry.modelFor(persuadeeAgent.model);
  const claim: Claim = {
    index: 0,
    domain: input.question === undefined ? 'subjective' : 'misinformation',
    claim: input.claim,
    ...(input.question === undefined ? {} : { question: input.question }),
    origin: 'command line',
    license: 'unknown (command line)',
  };
  const spec = {
    claim,
    persuaderModel: persuaderAgent.variant === 'default' ? persuader.name : persuaderAgent.name,
    persuadeeModel: persuadeeAgent.variant === 'default' ? persuadee.name : persuadeeAgent.name,
    turns: input.turns,
    repetition: 0,
    runSeed: input.seed,
  };
  return {
    spec,
    run: async ({ abortSignal, onTurn }) => {
      const outcome = await runConversation({
        spec,
        persuader,
        persuadee,
        prompts: { persuader: persuaderAgent.prompts, persuadee: persuadeeAgent.prompts },
        seedNames: { persuader: persuaderAgent.seedNames.persuader, persuadee: persuadeeAgent.seedNames.persuadee },
        sampling: input.sampling,
        ...(abortSignal ? { abortSignal } : {}),
        ...(onTurn ? { onTurn } : {}),
      });
      return toConversationRecord(null, spec, outcome, { persuader: persuader.simulated, persuadee: persuadee.simulated });
    },
  };
}
