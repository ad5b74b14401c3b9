import type { ChatMessage, ChatModel, GenerateReply, GenerateRequest, ResponseFormat } from '../models/chat-model.js';
import { isModelCallError, type ModelCallError } from '../models/model-call-error.js';

/** How a call is sampled: its temperature and output limit. */
export interface CallSampling {
  readonly temperature: number;
  readonly maxOutputTokens: number;
}

/** A request of `messages` sampled as `sampling` says, with its seed, and the reply's shape and the abort signal when given. */
export function sampledRequest(
  messages: readonly ChatMessage[],
  sampling: CallSampling,
  seed: number,
  extra: { readonly responseFormat?: ResponseFormat; readonly abortSignal?: AbortSignal | undefined } = {},
): GenerateRequest {
  return {
    messages,
    temperature: sampling.temperature,
    maxOutputTokens: sampling.maxOutputTokens,
    seed,
    ...(extra.responseFormat ? { responseFormat: extra.responseFormat } : {}),
    ...(extra.abortSignal ? { abortSignal: extra.abortSignal } : {}),
  };
}

/** What one call came to: its reply, or the call error that survived the retry layer. */
export type CallAnswer = { readonly ok: true; readonly reply: GenerateReply } | { readonly ok: false; readonly error: ModelCallError };

/**
 * Makes one call and gives its reply or its call error as data. An abort (the request's signal) and any
 * error that is not a call error propagate: they are not properties of the model.
 */
export async function callModel(model: ChatModel, request: GenerateRequest): Promise<CallAnswer> {
  try {
    return { ok: true, reply: await model.generate(request) };
  } catch (error) {
    if (request.abortSignal?.aborted || !isModelCallError(error)) throw error;
    return { ok: false, error };
  }
}
