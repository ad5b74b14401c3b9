import type { ConversationRecord } from '../../domain/conversation-record.js';
import { deriveSeed } from '../../domain/random.js';
import type { Taxonomy } from '../../domain/taxonomy.js';
import { callModel, sampledRequest } from '../../engine/sampled-call.js';
import type { ChatMessage, ChatModel } from '../../models/chat-model.js';
import type { CallFailureReason } from '../../models/model-call-error.js';
import { turnJudgeReminder, turnJudgeRequest, turnJudgeSystemPrompt } from '../../protocol/turn-judge-prompt.js';
import { parseTurnLabels, turnLabelsSchema } from '../../protocol/turn-labels-reply.js';
import type { Sampling } from '../design-parts.js';
import type { StoredTurnLabels } from './analysis-results.js';

/** One label set to ask for: a judge's reading of one turn of one conversation. */
export interface TurnTask {
  readonly judge: string;
  readonly record: ConversationRecord;
  /** The turn's 1-based index, as in the record's turns. */
  readonly turn: number;
}

/**
 * What asking for one turn's labels came to: labels (or, when every attempt was unusable, none and
 * the last problem), or a call that failed after its retries (not stored: a resumed study asks again).
 */
export type TurnOutcome =
  | ({ readonly status: 'labelled' } & TurnLabelsRead)
  | { readonly status: 'failed'; readonly reason: CallFailureReason; readonly detail: string };

/**
 * What was read of a turn's labels, as stored (`StoredTurnLabels`), with the keys of the usable answer
 * that were not asked for, read past (none when the turn has no labels).
 */
export type TurnLabelsRead = Pick<StoredTurnLabels, 'labels' | 'problem' | 'attempts' | 'raw' | 'callHash'> & { readonly ignoredKeys: readonly string[] };

/**
 * The seed of one judge call, from what it is (never the clock): the study's seed, the judge, the
 * conversation, the turn and the attempt. A resumed study, or another study of the same run with the
 * same judge and seed, asks exactly the same requests (and so replays them from the store).
 */
function turnLabelSeed(studySeed: number, task: TurnTask, attempt: number): number {
  return deriveSeed(studySeed, ['analyze', task.judge, task.record.conversationId, task.turn, attempt]);
}

/** The first request of a turn's labels: the judge's instructions, the claim and the conversation up to that turn. */
export function turnJudgeMessages(taxonomy: Taxonomy, record: ConversationRecord, turn: number): ChatMessage[] {
  const shown = record.turns.filter((item) => item.index <= turn).map((item) => ({ role: item.role, message: item.message }));
  return [
    { role: 'system', content: turnJudgeSystemPrompt(taxonomy) },
    { role: 'user', content: turnJudgeRequest(record.claim, shown) },
  ];
}

/** The role of a record's turn. */
function roleOfTurn(record: ConversationRecord, turn: number): 'persuader' | 'persuadee' {
  const found = record.turns.find((item) => item.index === turn);
  if (found === undefined) throw new RangeError(`conversation ${record.conversationId} has no turn ${turn}`);
  return found.role;
}

/**
 * Asks one judge for one turn's labels, with the JSON Schema of the answer for providers with
 * structured output, and reads what it asked for strictly (keys it did not ask for are read past and
 * named in the outcome, not asked again). An unusable answer is asked again with that
 * answer and a reminder naming what was wrong (a new seed), up to `maxAttempts`; if none is usable
 * the turn is still an outcome, labelled null with the last problem. A provider's content filter
 * counts as an unusable answer. Any other call error that survived the retry layer fails the turn.
 * Aborts and a stopped run propagate.
 */
export async function labelTurn(
  model: ChatModel,
  task: TurnTask,
  taxonomy: Taxonomy,
  sampling: Sampling,
  studySeed: number,
  abortSignal?: AbortSignal,
): Promise<TurnOutcome> {
  const role = roleOfTurn(task.record, task.turn);
  const base = turnJudgeMessages(taxonomy, task.record, task.turn);
  const responseFormat = { name: 'turn_labels', schema: turnLabelsSchema(role, taxonomy) };
  let messages: ChatMessage[] = base;
  let last: { raw: string; callHash: string | null; problem: string } = { raw: '', callHash: null, problem: 'no answer' };
  for (let attempt = 1; attempt <= sampling.maxAttempts; attempt++) {
    const answer = await callModel(model, sampledRequest(messages, sampling, turnLabelSeed(studySeed, task, attempt), { responseFormat, abortSignal }));
    if (!answer.ok) {
      if (answer.error.reason !== 'refusal') return { status: 'failed', reason: answer.error.reason, detail: answer.error.message };
      last = { raw: '', callHash: null, problem: 'the provider refused to answer' };
      continue;
    }
    const { reply } = answer;
    if (reply.finishReason === 'content-filter') {
      last = { raw: reply.text, callHash: reply.callHash ?? null, problem: 'the provider filtered the answer' };
      continue;
    }
    const parsed = parseTurnLabels(reply.text, role, taxonomy);
    if (parsed.ok)
      return {
        status: 'labelled',
        labels: parsed.labels,
        problem: null,
        attempts: attempt,
        raw: reply.text,
        callHash: reply.callHash ?? null,
        ignoredKeys: parsed.ignoredKeys,
      };
    last = { raw: reply.text, callHash: reply.callHash ?? null, problem: parsed.detail };
    // An empty answer is asked again as it was (some providers refuse an empty assistant message).
    messages =
      reply.text.trim() === '' ? base : [...base, { role: 'assistant', content: reply.text }, { role: 'user', content: turnJudgeReminder(parsed.detail) }];
  }
  return {
    status: 'labelled',
    labels: null,
    problem: last.problem,
    attempts: sampling.maxAttempts,
    raw: last.raw,
    callHash: last.callHash,
    ignoredKeys: [],
  };
}
