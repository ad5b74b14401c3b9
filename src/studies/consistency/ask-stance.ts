import type { AgreementScore } from '../../domain/agreement-score.js';
import { type Claim, claimKey } from '../../domain/claim.js';
import { deriveSeed } from '../../domain/random.js';
import { callModel, sampledRequest } from '../../engine/sampled-call.js';
import type { ChatModel } from '../../models/chat-model.js';
import type { CallFailureReason } from '../../models/model-call-error.js';
import { stanceMessages } from '../../protocol/stance-prompt.js';
import { parseStanceReply } from '../../protocol/stance-reply.js';

/** One answer to ask for: a model's stance on a claim, the `sampleIndex`-th time. */
export interface StanceTask {
  readonly model: string;
  readonly claim: Claim;
  readonly sampleIndex: number;
}

/** How answers are sampled: the run's temperature, a small output limit, re-asks. */
export interface StanceSampling {
  readonly temperature: number;
  readonly maxOutputTokens: number;
  /** Calls per answer before it is recorded as unusable (>= 1). */
  readonly maxAttempts: number;
}

/**
 * An answer: a score (null when every attempt was unusable), or a call that failed after its
 * retries. Failed answers are not stored, so a resumed study asks for them again.
 */
export type StanceOutcome =
  | {
      readonly status: 'answered';
      readonly score: AgreementScore | null;
      readonly attempts: number;
      readonly unusable: number;
      readonly raw: string;
      readonly callHash: string | null;
    }
  | { readonly status: 'failed'; readonly reason: CallFailureReason; readonly detail: string };

/**
 * The seed of one call, from what it is (never the clock): the study's seed, the model, the
 * claim's content, which answer, which attempt. A resumed or repeated study asks the same questions.
 */
export function stanceSeed(runSeed: number, task: StanceTask, attempt: number): number {
  return deriveSeed(runSeed, ['consistency', task.model, claimKey(task.claim), task.sampleIndex, attempt]);
}

/**
 * Asks one model for its stance on one claim, re-asking (new seed, same question) while the reply
 * is unusable. A provider's content filter counts as an unusable reply (the model declined); any
 * other call error that survived the retry layer fails the answer. Stops and aborts propagate.
 */
export async function askStance(
  model: ChatModel,
  task: StanceTask,
  sampling: StanceSampling,
  runSeed: number,
  abortSignal?: AbortSignal,
): Promise<StanceOutcome> {
  const messages = stanceMessages(task.claim);
  let last = { raw: '', callHash: null as string | null };
  for (let attempt = 1; attempt <= sampling.maxAttempts; attempt++) {
    const answer = await callModel(model, sampledRequest(messages, sampling, stanceSeed(runSeed, task, attempt), { abortSignal }));
    if (!answer.ok) {
      if (answer.error.reason !== 'refusal') return { status: 'failed', reason: answer.error.reason, detail: answer.error.message };
      last = { raw: '', callHash: null };
      continue;
    }
    const { reply } = answer;
    last = { raw: reply.text, callHash: reply.callHash ?? null };
    const parsed = reply.finishReason === 'content-filter' ? undefined : parseStanceReply(reply.text);
    if (parsed?.ok) return { status: 'answered', score: parsed.score, attempts: attempt, unusable: attempt - 1, ...last };
  }
  return { status: 'answered', score: null, attempts: sampling.maxAttempts, unusable: sampling.maxAttempts, ...last };
}
