import { type Claim, claimKey } from '../../domain/claim.js';
import { deriveSeed } from '../../domain/random.js';
import type { ChatMessage, ChatModel } from '../../models/chat-model.js';
import { type CallFailureReason, isModelCallError } from '../../models/model-call-error.js';
import { argumentRequest, readArgumentReply, rewriteRequest, synthesisSystemPrompt } from '../../protocol/judge-synthesis-prompt.js';
import type { JudgeSettings } from './judge-trial.js';

/**
 * One line of a synthesized preference dataset, in the field names reward-model and DPO trainers
 * expect (`prompt`, `chosen`, `rejected`), plus where it came from.
 */
export interface PreferenceExample {
  /** The request the two texts answer: our argument request for the claim. */
  readonly prompt: string;
  /** The rewrite, asked to be more persuasive: the preferred text. */
  readonly chosen: string;
  /** The first argument. */
  readonly rejected: string;
  readonly claim: string;
  readonly claimIndex: number;
  readonly origin: string;
  readonly license: string;
  readonly model: string;
  /** The run seed; every call's seed derives from it and the claim. */
  readonly seed: number;
}

export type SynthesisOutcome =
  | { readonly status: 'synthesized'; readonly example: PreferenceExample }
  | { readonly status: 'unusable'; readonly step: 'argument' | 'rewrite'; readonly detail: string }
  | { readonly status: 'failed'; readonly reason: CallFailureReason; readonly detail: string };

type StepResult = { ok: true; text: string } | { ok: false; outcome: SynthesisOutcome };

async function ask(
  model: ChatModel,
  messages: readonly ChatMessage[],
  seedOf: (attempt: number) => number,
  settings: JudgeSettings,
  original: string | undefined,
  abortSignal?: AbortSignal,
): Promise<StepResult> {
  const step = original === undefined ? 'argument' : 'rewrite';
  let detail = '';
  for (let attempt = 1; attempt <= settings.maxAttempts; attempt++) {
    let text: string;
    try {
      const reply = await model.generate({
        messages,
        temperature: settings.temperature,
        maxOutputTokens: settings.maxOutputTokens,
        seed: seedOf(attempt),
        ...(abortSignal ? { abortSignal } : {}),
      });
      if (reply.finishReason === 'content-filter') {
        detail = 'the provider filtered the reply';
        continue;
      }
      text = reply.text;
    } catch (error) {
      if (abortSignal?.aborted || !isModelCallError(error)) throw error;
      return { ok: false, outcome: { status: 'failed', reason: error.reason, detail: error.message } };
    }
    const read = readArgumentReply(text, original);
    if (read.ok) return { ok: true, text: read.text };
    detail = read.detail;
  }
  return { ok: false, outcome: { status: 'unusable', step, detail: `no usable ${step} in ${settings.maxAttempts} attempts: ${detail}` } };
}

export interface SynthesizeInput {
  readonly model: ChatModel;
  readonly modelName: string;
  readonly claim: Claim;
  readonly runSeed: number;
  readonly settings: JudgeSettings;
  readonly abortSignal?: AbortSignal;
}

/**
 * One preference pair for a claim: call 1 writes an argument, call 2 (with call 1 in its context)
 * rewrites it to be more persuasive. Each call is re-asked with a new seed while its reply is
 * unusable (empty, a refusal, a rewrite equal to the original). Seeds come from the run seed and
 * the claim, so a second run asks the same questions and replays them from the call store.
 */
export async function synthesizePreference(input: SynthesizeInput): Promise<SynthesisOutcome> {
  const { claim, runSeed, settings, model } = input;
  const key = claimKey(claim);
  const prompt = argumentRequest(claim.claim);
  const first: ChatMessage[] = [
    { role: 'system', content: synthesisSystemPrompt() },
    { role: 'user', content: prompt },
  ];
  const original = await ask(model, first, (attempt) => deriveSeed(runSeed, ['synthesis-argument', key, attempt]), settings, undefined, input.abortSignal);
  if (!original.ok) return original.outcome;
  const second: ChatMessage[] = [...first, { role: 'assistant', content: original.text }, { role: 'user', content: rewriteRequest() }];
  const rewrite = await ask(model, second, (attempt) => deriveSeed(runSeed, ['synthesis-rewrite', key, attempt]), settings, original.text, input.abortSignal);
  if (!rewrite.ok) return rewrite.outcome;
  return {
    status: 'synthesized',
    example: {
      prompt,
      chosen: rewrite.text,
      rejected: original.text,
      claim: claim.claim,
      claimIndex: claim.index,
      origin: claim.origin,
      license: claim.license,
      model: input.modelName,
      seed: runSeed,
    },
  };
}
