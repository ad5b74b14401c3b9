import type { Attempt, ConversationSpec, FailureReason, Turn } from '../domain/conversation.js';
import type { DriftProbe } from '../domain/conversation-record.js';
import type { ChatModel } from '../models/chat-model.js';
import { type AgentPrompts, DEFAULT_PROMPTS } from '../protocol/prompt-variants.js';
import { driftProbeMessages } from './agent-messages.js';
import { driftProbeSeed, type SeedNames, seedNamesOfSpec } from './call-seed.js';
import { DEFAULT_SAMPLING } from './run-conversation.js';
import { type SamplingSettings, sampleTurn } from './sample-turn.js';

export interface DriftProbeInput {
  readonly spec: ConversationSpec;
  /** The conversation's turns, as its persuader saw them. */
  readonly turns: readonly Turn[];
  readonly persuader: ChatModel;
  /** The persuader's prompts (its prompt variant); pmiyc's own unless given. */
  readonly prompts?: AgentPrompts;
  /** The names the conversation's calls are seeded by (`SeedNames`); the spec's unless given. */
  readonly seedNames?: SeedNames;
  readonly sampling?: Partial<SamplingSettings>;
  readonly abortSignal?: AbortSignal;
}

/**
 * The probe's outcome: its answer (a null score when no attempt gave a usable reply), or a call
 * that failed after its retries (`api`), which the caller treats as it treats a failed stance.
 */
export type DriftProbeOutcome =
  | { readonly ok: true; readonly probe: DriftProbe }
  | { readonly ok: false; readonly reason: FailureReason; readonly detail: string; readonly attempts: readonly Attempt[] };

/**
 * Asks a conversation's persuader the drift probe (protocol/drift-prompt.ts): where it stands now,
 * with its own view of the whole conversation in context, read like any tagged turn and re-sampled
 * while unusable. A reply still unusable after every attempt is a probe with score null; a call that
 * failed after its retries comes back as the failure.
 */
export async function askDriftProbe(input: DriftProbeInput): Promise<DriftProbeOutcome> {
  const { spec } = input;
  const sampling = { ...DEFAULT_SAMPLING, ...input.sampling };
  const names = input.seedNames ?? seedNamesOfSpec(spec);
  const messages = driftProbeMessages(spec.claim, input.turns, input.prompts ?? DEFAULT_PROMPTS);
  const sampled = await sampleTurn(input.persuader, messages, sampling, (attempt) => driftProbeSeed(spec, attempt, names), input.abortSignal);
  const last = sampled.attempts.at(-1);
  if (!sampled.ok && sampled.reason === 'api') return { ok: false, reason: sampled.reason, detail: sampled.detail, attempts: sampled.attempts };
  return {
    ok: true,
    probe: {
      score: sampled.ok ? sampled.score : null,
      attempts: sampled.attempts.length,
      raw: last?.raw ?? '',
      callHash: last?.callHash ?? null,
    },
  };
}
