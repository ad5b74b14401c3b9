import type { JudgePair } from '../../datasets/judge-pairs.js';
import type { FinishReason } from '../../domain/conversation.js';
import { createRandom, deriveSeed } from '../../domain/random.js';
import type { ChatMessage, ChatModel } from '../../models/chat-model.js';
import { type CallFailureReason, isModelCallError } from '../../models/model-call-error.js';
import { type JudgeChoice, parseJudgeChoice } from '../../protocol/judge-choice.js';
import { JUDGE_REMINDER, judgeRequest, judgeSystemPrompt } from '../../protocol/judge-prompt.js';

/** Sampling of judge calls. */
export interface JudgeSettings {
  readonly temperature: number;
  readonly maxOutputTokens: number;
  /** Asks per trial before its reply counts as unusable (>= 1). */
  readonly maxAttempts: number;
}

/** One judge's verdict on one pair, as stored in `judge_trials`. */
export interface JudgeTrialRecord {
  /** The model name or alias as the user gave it. */
  readonly model: string;
  readonly pairId: string;
  readonly claim: string;
  readonly scoreDifference: number;
  readonly morePersuasiveFirst: boolean;
  /** The argument chosen as shown (1 = shown first); null when no attempt gave a usable answer. */
  readonly chosen: JudgeChoice | null;
  /** Whether the chosen argument is the more persuasive one; null when unusable. */
  readonly correct: boolean | null;
  readonly attempts: number;
  /** The reply of the last attempt, exactly as written. */
  readonly raw: string;
  readonly callHash: string | null;
}

export type JudgeTrialOutcome =
  | { readonly status: 'judged'; readonly record: JudgeTrialRecord }
  | { readonly status: 'failed'; readonly reason: CallFailureReason; readonly detail: string; readonly attempts: number };

/**
 * Whether the more persuasive argument is shown first: a seeded coin per pair, from the run seed
 * and the pair id only, so every judge sees a pair in the same order (fair between judges) and
 * a re-run shows the same order.
 */
export function showsMorePersuasiveFirst(runSeed: number, pairId: string): boolean {
  return createRandom(deriveSeed(runSeed, ['judge-order', pairId]))() < 0.5;
}

/** The seed of one judge call: from the run seed, the pair and the attempt (the model is in the call's hash). */
export function judgeCallSeed(runSeed: number, pairId: string, attempt: number): number {
  return deriveSeed(runSeed, ['judge', pairId, attempt]);
}

/** Messages of an attempt: the request, and after an unusable reply that reply and a reminder. */
function messagesOf(base: readonly ChatMessage[], previousRaw: string | undefined): ChatMessage[] {
  if (previousRaw === undefined || previousRaw.trim() === '') return [...base];
  return [...base, { role: 'assistant', content: previousRaw }, { role: 'user', content: JUDGE_REMINDER }];
}

export interface JudgePairInput {
  readonly model: ChatModel;
  /** The name to record (the user's alias). */
  readonly modelName: string;
  readonly pair: JudgePair;
  readonly runSeed: number;
  readonly settings: JudgeSettings;
  readonly abortSignal?: AbortSignal;
}

/**
 * Shows one pair to one judge in its seeded order and reads the choice. An unusable reply is
 * asked again (with the reply and a reminder, and a new seed) up to `maxAttempts`; if none is
 * usable the trial is still a result, with `chosen: null`. A call that failed after the retry
 * layer is a `failed` outcome (not stored: a resumed run asks again). Aborts and a stopped run
 * propagate.
 */
export async function judgePair(input: JudgePairInput): Promise<JudgeTrialOutcome> {
  const { pair, runSeed, settings } = input;
  const morePersuasiveFirst = showsMorePersuasiveFirst(runSeed, pair.id);
  const [first, second] = morePersuasiveFirst ? [pair.morePersuasive, pair.lessPersuasive] : [pair.lessPersuasive, pair.morePersuasive];
  const base: ChatMessage[] = [
    { role: 'system', content: judgeSystemPrompt() },
    { role: 'user', content: judgeRequest(pair.claim, first, second) },
  ];
  const trial = { model: input.modelName, pairId: pair.id, claim: pair.claim, scoreDifference: pair.scoreDifference, morePersuasiveFirst };
  let last: { raw: string; callHash: string | null; finishReason: FinishReason } | undefined;
  for (let attempt = 1; attempt <= settings.maxAttempts; attempt++) {
    try {
      const reply = await input.model.generate({
        messages: messagesOf(base, last?.raw),
        temperature: settings.temperature,
        maxOutputTokens: settings.maxOutputTokens,
        seed: judgeCallSeed(runSeed, pair.id, attempt),
        ...(input.abortSignal ? { abortSignal: input.abortSignal } : {}),
      });
      last = { raw: reply.text, callHash: reply.callHash ?? null, finishReason: reply.finishReason };
    } catch (error) {
      if (input.abortSignal?.aborted || !isModelCallError(error)) throw error;
      return { status: 'failed', reason: error.reason, detail: error.message, attempts: attempt };
    }
    const parsed = last.finishReason === 'content-filter' ? undefined : parseJudgeChoice(last.raw);
    if (parsed?.ok) {
      const correct = (parsed.choice === 1) === morePersuasiveFirst;
      return { status: 'judged', record: { ...trial, chosen: parsed.choice, correct, attempts: attempt, raw: last.raw, callHash: last.callHash } };
    }
  }
  return {
    status: 'judged',
    record: { ...trial, chosen: null, correct: null, attempts: settings.maxAttempts, raw: last?.raw ?? '', callHash: last?.callHash ?? null },
  };
}
