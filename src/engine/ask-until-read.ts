import type { Attempt, FailureReason } from '../domain/conversation.js';
import type { ChatMessage, ChatModel, GenerateReply, ResponseFormat } from '../models/chat-model.js';
import type { SamplingSettings } from './sample-turn.js';
import { callModel, sampledRequest } from './sampled-call.js';

/**
 * Asking a model of a protocol's conversation (APE's, PersuSafety's, ...) for one answer, with the re-asks pmiyc
 * makes everywhere: an agent's unusable reply is sampled again from the same messages with a new seed (as the
 * engine's `sampleTurn`), a judge's unreadable answer is asked again with that answer and a reminder (as the
 * judge's `labelTurn`). Every call is kept as an attempt. A call error that survived the retry layer stops the
 * asking; aborts propagate. A protocol gives the readers of its answers and its reminders.
 */

/** A reader of an agent's reply: the value it carries, or what is wrong with it. */
export type ReplyReader<Value> = (raw: string) => { readonly ok: true; readonly value: Value } | { readonly ok: false; readonly detail: string };

/** What asking an agent came to: the value read from an accepted reply, or why there is none. */
export type AgentAnswer<Value> =
  | { readonly ok: true; readonly value: Value; readonly raw: string; readonly attempts: readonly Attempt[] }
  | { readonly ok: false; readonly reason: FailureReason; readonly detail: string; readonly attempts: readonly Attempt[] };

/** How one agent call is asked: its messages, sampling, the seed of each attempt, and what a provider's content filter means. */
export interface AgentAsk<Value> {
  readonly model: ChatModel;
  readonly messages: readonly ChatMessage[];
  readonly sampling: SamplingSettings;
  readonly seedOf: (attempt: number) => number;
  readonly read: ReplyReader<Value>;
  /** `stop`: a filtered reply ends the asking as a refusal (a persuader's refusal is the datum); `resample`: it is asked again. */
  readonly onContentFilter: 'stop' | 'resample';
  readonly abortSignal?: AbortSignal | undefined;
}

function attemptOf(number: number, seed: number, reply: GenerateReply, outcome: Attempt['outcome'], detail?: string): Attempt {
  return {
    number,
    seed,
    raw: reply.text,
    outcome,
    ...(detail === undefined ? {} : { detail }),
    finishReason: reply.finishReason,
    ...(reply.usage ? { usage: reply.usage } : {}),
    ...(reply.costUsd === undefined ? {} : { costUsd: reply.costUsd }),
    ...(reply.callHash === undefined ? {} : { callHash: reply.callHash }),
  };
}

/** Asks an agent until a reply reads, `sampling.maxAttempts` at most. */
export async function askAgent<Value>(ask: AgentAsk<Value>): Promise<AgentAnswer<Value>> {
  const attempts: Attempt[] = [];
  for (let number = 1; number <= ask.sampling.maxAttempts; number++) {
    const seed = ask.seedOf(number);
    const answer = await callModel(ask.model, sampledRequest(ask.messages, ask.sampling, seed, { abortSignal: ask.abortSignal }));
    if (!answer.ok) {
      attempts.push({ number, seed, raw: '', outcome: answer.error.reason, detail: answer.error.message });
      return { ok: false, reason: answer.error.reason, detail: answer.error.message, attempts };
    }
    const { reply } = answer;
    if (reply.finishReason === 'content-filter') {
      attempts.push(attemptOf(number, seed, reply, 'refusal', 'the provider filtered the reply'));
      if (ask.onContentFilter === 'stop') return { ok: false, reason: 'refusal', detail: 'the provider filtered the reply', attempts };
      continue;
    }
    const read = ask.read(reply.text);
    if (read.ok) {
      attempts.push(attemptOf(number, seed, reply, 'accepted'));
      return { ok: true, value: read.value, raw: reply.text, attempts };
    }
    attempts.push(attemptOf(number, seed, reply, 'format', read.detail));
  }
  const last = attempts.at(-1);
  const reason = last && last.outcome !== 'accepted' ? last.outcome : 'format';
  return { ok: false, reason, detail: `no usable reply in ${ask.sampling.maxAttempts} attempts: ${last?.detail ?? ''}`, attempts };
}

/** How a judge's JSON answer is asked for and read: its response format, its reader, and the reminder after an unreadable answer. */
export interface JudgeAsk<Value> {
  readonly responseFormat: ResponseFormat;
  readonly read: (
    raw: string,
  ) => { readonly ok: true; readonly value: Value; readonly ignoredKeys: readonly string[] } | { readonly ok: false; readonly detail: string };
  readonly reminder: (problem: string) => string;
}

/**
 * What asking a judge (APE's evaluator, PersuSafety's judge) came to: its value (with the answer's keys not asked
 * for), none after every attempt was unreadable (with the last problem: data, the conversation goes on), or a
 * call that failed.
 */
export type JudgeAnswer<Value> =
  | { readonly status: 'read'; readonly value: Value; readonly ignoredKeys: readonly string[]; readonly attempts: readonly Attempt[] }
  | { readonly status: 'unread'; readonly problem: string; readonly attempts: readonly Attempt[] }
  | { readonly status: 'failed'; readonly reason: FailureReason; readonly detail: string; readonly attempts: readonly Attempt[] };

/**
 * Asks a judge for one JSON answer, with its JSON Schema. A refusal by the provider (a call error or its
 * content filter) and an unreadable answer are asked again, the latter with the answer and a reminder naming
 * the problem (an empty answer as it was asked).
 */
export async function askJudge<Value>(
  model: ChatModel,
  base: readonly ChatMessage[],
  sampling: SamplingSettings,
  seedOf: (attempt: number) => number,
  judge: JudgeAsk<Value>,
  abortSignal?: AbortSignal,
): Promise<JudgeAnswer<Value>> {
  const attempts: Attempt[] = [];
  let messages = base;
  for (let number = 1; number <= sampling.maxAttempts; number++) {
    const seed = seedOf(number);
    const answer = await callModel(model, sampledRequest(messages, sampling, seed, { responseFormat: judge.responseFormat, abortSignal }));
    if (!answer.ok) {
      attempts.push({ number, seed, raw: '', outcome: answer.error.reason, detail: answer.error.message });
      if (answer.error.reason !== 'refusal') return { status: 'failed', reason: answer.error.reason, detail: answer.error.message, attempts };
      continue;
    }
    const { reply } = answer;
    if (reply.finishReason === 'content-filter') {
      attempts.push(attemptOf(number, seed, reply, 'refusal', 'the provider filtered the answer'));
      continue;
    }
    const parsed = judge.read(reply.text);
    if (parsed.ok) {
      attempts.push(attemptOf(number, seed, reply, 'accepted'));
      return { status: 'read', value: parsed.value, ignoredKeys: parsed.ignoredKeys, attempts };
    }
    attempts.push(attemptOf(number, seed, reply, 'format', parsed.detail));
    messages =
      reply.text.trim() === '' ? base : [...base, { role: 'assistant', content: reply.text }, { role: 'user', content: judge.reminder(parsed.detail) }];
  }
  return { status: 'unread', problem: attempts.at(-1)?.detail ?? 'no answer', attempts };
}
