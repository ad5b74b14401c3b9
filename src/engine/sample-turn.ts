import type { AgreementScore } from '../domain/agreement-score.js';
import type { Attempt, FailureReason } from '../domain/conversation.js';
import type { ChatMessage, ChatModel } from '../models/chat-model.js';
import { parseTaggedReply } from '../protocol/tagged-reply.js';
import { callModel, sampledRequest } from './sampled-call.js';

export interface SamplingSettings {
  readonly temperature: number;
  readonly maxOutputTokens: number;
  /** How many samples a turn may take before its conversation fails (>= 1). */
  readonly maxAttempts: number;
}

export type SampledTurn =
  | { readonly ok: true; readonly message: string; readonly score: AgreementScore; readonly raw: string; readonly attempts: Attempt[] }
  | { readonly ok: false; readonly reason: FailureReason; readonly detail: string; readonly attempts: Attempt[] };

/**
 * Asks `model` for one tagged reply, re-sampling the same context with a new seed while the
 * reply is unusable. A call error that survived the retry layer ends the turn at once.
 * Aborts and programming errors propagate: they are not properties of the model.
 */
export async function sampleTurn(
  model: ChatModel,
  messages: readonly ChatMessage[],
  settings: SamplingSettings,
  seedOfAttempt: (attempt: number) => number,
  abortSignal?: AbortSignal,
): Promise<SampledTurn> {
  const attempts: Attempt[] = [];
  for (let number = 1; number <= settings.maxAttempts; number++) {
    const seed = seedOfAttempt(number);
    const answer = await callModel(model, sampledRequest(messages, settings, seed, { abortSignal }));
    if (!answer.ok) {
      const { reason, message } = answer.error;
      attempts.push({ number, seed, raw: '', outcome: reason, detail: message });
      return { ok: false, reason, detail: message, attempts };
    }
    const { reply } = answer;
    const base = {
      number,
      seed,
      raw: reply.text,
      finishReason: reply.finishReason,
      ...(reply.usage ? { usage: reply.usage } : {}),
      ...(reply.costUsd === undefined ? {} : { costUsd: reply.costUsd }),
      ...(reply.callHash === undefined ? {} : { callHash: reply.callHash }),
    };
    if (reply.finishReason === 'content-filter') {
      attempts.push({ ...base, outcome: 'refusal', detail: 'the provider filtered the reply' });
      continue;
    }
    const parsed = parseTaggedReply(reply.text);
    if (parsed.ok) {
      attempts.push({ ...base, outcome: 'accepted' });
      return { ok: true, message: parsed.message, score: parsed.score, raw: parsed.raw, attempts };
    }
    attempts.push({ ...base, outcome: parsed.problem, detail: parsed.detail });
  }
  const last = attempts.at(-1);
  const reason = last && last.outcome !== 'accepted' ? last.outcome : 'format';
  const detail = `no usable reply in ${settings.maxAttempts} attempt${settings.maxAttempts === 1 ? '' : 's'}: ${last?.detail ?? ''}`;
  return { ok: false, reason, detail, attempts };
}
