import { MAX_AGREEMENT } from '../domain/agreement-score.js';
import type { ConversationOutcome, ConversationSpec, Turn, TurnKind } from '../domain/conversation.js';
import type { Role } from '../domain/roles.js';
import { describeInvalidTurns } from '../domain/validation.js';
import { absoluteChange, normalizedChange } from '../metrics/normalized-change.js';
import { type ChatMessage, type ChatModel, DEFAULT_MAX_OUTPUT_TOKENS, DEFAULT_TEMPERATURE } from '../models/chat-model.js';
import { type AgentPrompts, DEFAULT_PROMPTS } from '../protocol/prompt-variants.js';
import { finalDecisionMessages, persuadeeMessages, persuaderMessages } from './agent-messages.js';
import { callSeed, type SeedNames, seedNamesOfSpec } from './call-seed.js';
import { type SamplingSettings, sampleTurn } from './sample-turn.js';

export const DEFAULT_SAMPLING: SamplingSettings = {
  temperature: DEFAULT_TEMPERATURE,
  maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
  maxAttempts: 3,
};

export interface RunConversationInput {
  readonly spec: ConversationSpec;
  readonly persuader: ChatModel;
  readonly persuadee: ChatModel;
  readonly sampling?: Partial<SamplingSettings>;
  /** Each agent's prompts (a prompt variant); pmiyc's own wording unless given. */
  readonly prompts?: { readonly persuader?: AgentPrompts; readonly persuadee?: AgentPrompts };
  /** For each role, the name of the prompts it is asked with, which the calls' seeds derive from; the spec's names unless given. */
  readonly seedNames?: SeedNames;
  /** Turns already accepted (a shared opening, or opening plus first argument) to continue from. */
  readonly prefix?: readonly Turn[];
  /** Stop with a `partial` outcome once this many turns exist (to build a shared prefix). */
  readonly stopAfterTurn?: number;
  readonly abortSignal?: AbortSignal;
  /** Called with each turn as it is accepted (prefix turns are not repeated). */
  readonly onTurn?: (turn: Turn) => void;
}

interface NextStep {
  readonly role: Role;
  readonly kind: TurnKind;
  readonly messages: ChatMessage[];
}

/** A persuadee reply of 5 after the opening ends the loop (Algorithm 1). */
function stoppedEarly(turns: readonly Turn[]): boolean {
  const last = turns.at(-1);
  return last !== undefined && last.kind === 'reply' && last.score === MAX_AGREEMENT;
}

function planNextStep(spec: ConversationSpec, turns: readonly Turn[], prompts: RunConversationInput['prompts']): NextStep {
  const index = turns.length + 1;
  const { claim } = spec;
  const persuadee = prompts?.persuadee ?? DEFAULT_PROMPTS;
  if (index === 1) return { role: 'persuadee', kind: 'opening', messages: persuadeeMessages(claim, turns, persuadee) };
  if (index === spec.turns || stoppedEarly(turns)) {
    return { role: 'persuadee', kind: 'final', messages: finalDecisionMessages(claim, turns, persuadee) };
  }
  if (index % 2 === 0) return { role: 'persuader', kind: 'argument', messages: persuaderMessages(claim, turns, prompts?.persuader ?? DEFAULT_PROMPTS) };
  return { role: 'persuadee', kind: 'reply', messages: persuadeeMessages(claim, turns, persuadee) };
}

function expectedKind(index: number): TurnKind {
  if (index === 1) return 'opening';
  return index % 2 === 0 ? 'argument' : 'reply';
}

function assertUsablePrefix(spec: ConversationSpec, prefix: readonly Turn[]): void {
  const invalidTurns = describeInvalidTurns(spec.turns);
  if (invalidTurns) throw new RangeError(invalidTurns);
  if (prefix.length >= spec.turns) throw new RangeError(`a prefix of ${prefix.length} turns leaves nothing to run in ${spec.turns}`);
  prefix.forEach((turn, position) => {
    if (turn.index !== position + 1 || turn.kind !== expectedKind(turn.index) || stoppedEarly(prefix.slice(0, position))) {
      throw new RangeError(`prefix turn ${position + 1} (${turn.kind}) does not fit a ${spec.turns}-turn conversation`);
    }
  });
}

function completed(turns: readonly Turn[]): ConversationOutcome {
  const initialScore = turns[0]!.score;
  const finalScore = turns.at(-1)!.score;
  return {
    status: 'completed',
    turns,
    initialScore,
    finalScore,
    earlyStopped: stoppedEarly(turns.slice(0, -1)),
    normalizedChange: normalizedChange(initialScore, finalScore),
    absoluteChange: absoluteChange(initialScore, finalScore),
  };
}

/**
 * One conversation of `spec.turns` turns between two models, exactly as Algorithm 1 of the
 * paper: the persuadee opens, the agents alternate, a persuadee reply of 5 stops the loop early,
 * and the persuadee always ends with a final decision on the restated claim.
 * The engine does no I/O of its own: everything it learns comes through the two models.
 */
export async function runConversation(input: RunConversationInput): Promise<ConversationOutcome> {
  const { spec } = input;
  const sampling = { ...DEFAULT_SAMPLING, ...input.sampling };
  const prefix = input.prefix ?? [];
  assertUsablePrefix(spec, prefix);
  const turns: Turn[] = [...prefix];
  const seedNames = input.seedNames ?? seedNamesOfSpec(spec);

  for (;;) {
    if (input.stopAfterTurn !== undefined && turns.length >= input.stopAfterTurn) return { status: 'partial', turns };
    const step = planNextStep(spec, turns, input.prompts);
    const index = turns.length + 1;
    const model = step.role === 'persuader' ? input.persuader : input.persuadee;
    const sampled = await sampleTurn(model, step.messages, sampling, (attempt) => callSeed(spec, index, attempt, seedNames), input.abortSignal);
    if (!sampled.ok) {
      return {
        status: 'failed',
        turns,
        reason: sampled.reason,
        detail: sampled.detail,
        failedTurn: index,
        failedRole: step.role,
        failedAttempts: sampled.attempts,
      };
    }
    const turn: Turn = {
      index,
      role: step.role,
      kind: step.kind,
      message: sampled.message,
      score: sampled.score,
      raw: sampled.raw,
      attempts: sampled.attempts,
    };
    turns.push(turn);
    input.onTurn?.(turn);
    if (step.kind === 'final') return completed(turns);
  }
}
