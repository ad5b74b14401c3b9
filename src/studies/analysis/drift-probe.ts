import type { AgreementScore } from '../../domain/agreement-score.js';
import type { Claim } from '../../domain/claim.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { deriveSeed } from '../../domain/random.js';
import { driftProbeMessages } from '../../engine/agent-messages.js';
import { sampleTurn } from '../../engine/sample-turn.js';
import type { ChatModel } from '../../models/chat-model.js';
import type { AgentPrompts } from '../../protocol/prompt-variants.js';
import type { Sampling } from '../design-parts.js';

/** The claim a record argued, as the prompts need it. */
export function claimOfRecord(record: ConversationRecord): Claim {
  return {
    index: record.claimIndex,
    domain: record.domain,
    claim: record.claim,
    ...(record.question === null ? {} : { question: record.question }),
    origin: record.origin,
    license: record.license,
  };
}

/**
 * Whether the record holds a drift probe asked during its run (`pmiyc run --probe-drift` keeps it in
 * the record as `driftProbe`): then `analyze --probe-drift` does not ask it again. Read loosely, so
 * that records without the field (older runs, imported ones) are probed.
 */
export function hasRecordedDriftProbe(record: ConversationRecord): boolean {
  const probe = (record as { readonly driftProbe?: unknown }).driftProbe;
  return probe !== undefined && probe !== null;
}

/** What asking a persuader for its stance after its conversation came to. */
export type DriftOutcome =
  | { readonly status: 'asked'; readonly score: AgreementScore | null; readonly attempts: number; readonly raw: string; readonly callHash: string | null }
  | { readonly status: 'failed'; readonly reason: string; readonly detail: string };

/** The seed of one drift probe call: the study's seed, the persuader, the conversation and the attempt. */
function driftProbeSeed(studySeed: number, record: ConversationRecord, attempt: number): number {
  return deriveSeed(studySeed, ['drift', record.persuader, record.conversationId, attempt]);
}

/**
 * Asks the conversation's persuader, with its own view of the whole conversation, where it stands now
 * (protocol/drift-prompt.ts), re-sampled like any tagged turn. Unusable answers in every attempt give a
 * null score (stored); a call error that survived the retry layer fails the probe (not stored: asked
 * again on resume).
 */
export async function askDriftProbe(
  model: ChatModel,
  record: ConversationRecord,
  prompts: AgentPrompts,
  sampling: Sampling,
  studySeed: number,
  abortSignal?: AbortSignal,
): Promise<DriftOutcome> {
  const messages = driftProbeMessages(claimOfRecord(record), record.turns, prompts);
  const sampled = await sampleTurn(model, messages, sampling, (attempt) => driftProbeSeed(studySeed, record, attempt), abortSignal);
  const last = sampled.attempts.at(-1);
  const callHash = last?.callHash ?? null;
  if (sampled.ok) return { status: 'asked', score: sampled.score, attempts: sampled.attempts.length, raw: sampled.raw, callHash };
  if (sampled.reason === 'api' || sampled.reason === 'context') return { status: 'failed', reason: sampled.reason, detail: sampled.detail };
  return { status: 'asked', score: null, attempts: sampled.attempts.length, raw: last?.raw ?? '', callHash };
}
