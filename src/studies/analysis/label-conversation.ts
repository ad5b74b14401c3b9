import type { ConversationRecord } from '../../domain/conversation-record.js';
import { deriveSeed } from '../../domain/random.js';
import type { Taxonomy } from '../../domain/taxonomy.js';
import { callModel, sampledRequest } from '../../engine/sampled-call.js';
import type { ChatMessage, ChatModel } from '../../models/chat-model.js';
import type { CallFailureReason } from '../../models/model-call-error.js';
import {
  conversationJudgeReminder,
  conversationJudgeRequest,
  conversationJudgeSystemPrompt,
  type TurnProblem,
} from '../../protocol/conversation-judge-prompt.js';
import {
  conversationLabelsSchema,
  type JudgedTurnRole,
  type ParsedConversationLabels,
  parseConversationLabels,
} from '../../protocol/conversation-labels-reply.js';
import type { Sampling } from '../design-parts.js';
import type { StoredTurnLabels } from './analysis-results.js';
import type { TurnLabelsRead } from './label-turn.js';

/** One judge's reading of one whole conversation (the conversation grain): every turn's labels in one call. */
export interface ConversationTask {
  readonly judge: string;
  readonly record: ConversationRecord;
}

/**
 * What came of one turn of a conversation read whole: its labels, or (no attempt gave them) none and the
 * last problem. `attempts` counts the calls made until its labels were read (every attempt when none
 * did); `raw` is the turn's own entry in the answer that gave its labels, as JSON text (for a turn
 * without labels, its entry in the last answer, else that whole answer).
 */
type ConversationTurnOutcome = Pick<StoredTurnLabels, 'turn' | 'role'> & TurnLabelsRead;

/**
 * What asking a judge for a conversation's labels came to: every turn's outcome (usable or not), and
 * the keys of its answers that named no turn (read past); or a call that failed after its retries
 * (nothing stored: a resumed study asks the conversation again).
 */
export type ConversationLabelsOutcome =
  | {
      readonly status: 'labelled';
      readonly turns: readonly ConversationTurnOutcome[];
      /** Keys that named no turn of the conversation, once per answer that gave labels and held them. */
      readonly ignoredKeys: readonly string[];
      /** Calls made (1 + re-asks). */
      readonly calls: number;
    }
  | { readonly status: 'failed'; readonly reason: CallFailureReason; readonly detail: string };

/**
 * The seed of one conversation call, from what it is: the study's seed, the judge, the conversation and
 * the attempt, under a key of its own (a turn's seed says `analyze` and names the turn).
 */
function conversationLabelSeed(studySeed: number, task: ConversationTask, attempt: number): number {
  return deriveSeed(studySeed, ['analyze-conversation', task.judge, task.record.conversationId, attempt]);
}

/** The first request of a conversation's labels: the judge's instructions, the claim and the whole conversation. */
export function conversationJudgeMessages(taxonomy: Taxonomy, record: ConversationRecord): ChatMessage[] {
  return [
    { role: 'system', content: conversationJudgeSystemPrompt(taxonomy) },
    {
      role: 'user',
      content: conversationJudgeRequest(
        record.claim,
        record.turns.map((turn) => ({ role: turn.role, message: turn.message })),
      ),
    },
  ];
}

/** A conversation call's output limit: `--max-tokens` is a turn's answer, and a conversation's answer holds one per turn. */
function conversationOutputTokens(sampling: Pick<Sampling, 'maxOutputTokens'>, record: ConversationRecord): number {
  return sampling.maxOutputTokens * Math.max(1, record.turns.length);
}

/** What was wrong with a turn not yet read, from the last answer: its reason and its entry (absent: the whole answer is shown). */
type Unread = { readonly detail: string; readonly entry?: string };

/** Where reading a conversation's labels stands: the turns read, those not yet read (with why), keys read past, the last answer. */
interface ConversationReading {
  readonly read: Map<number, ConversationTurnOutcome>;
  readonly unread: Map<number, Unread>;
  readonly ignoredKeys: string[];
  last: { raw: string; callHash: string | null };
}

/** Marks every turn not yet read with the same problem (an answer that gave none of them). */
function markUnread(reading: ConversationReading, detail: string): void {
  for (const index of reading.unread.keys()) reading.unread.set(index, { detail });
}

/** Keeps the turns an answer gave usable labels for (those not read before); says whether it gave any. */
function keepReadTurns(
  reading: ConversationReading,
  parsed: Extract<ParsedConversationLabels, { ok: true }>,
  turns: readonly JudgedTurnRole[],
  attempt: number,
): boolean {
  let gave = false;
  for (const [index, turnReading] of parsed.turns) {
    if (!reading.unread.has(index)) continue;
    if (!turnReading.ok) {
      reading.unread.set(index, { detail: turnReading.detail, ...(turnReading.entry === undefined ? {} : { entry: turnReading.entry }) });
      continue;
    }
    gave = true;
    reading.unread.delete(index);
    const role = turns.find((turn) => turn.index === index)!.role;
    const { labels, entry: raw, ignoredKeys } = turnReading;
    reading.read.set(index, { turn: index, role, labels, problem: null, attempts: attempt, raw, callHash: reading.last.callHash, ignoredKeys });
  }
  if (gave) reading.ignoredKeys.push(...parsed.ignoredKeys);
  return gave;
}

/**
 * Asks one judge for the labels of every turn of a conversation in one call, with the JSON Schema of
 * the answer for providers with structured output, and reads each turn's entry strictly (keys not
 * asked for, in an entry or naming no turn, are read past and named). When some turns are missing
 * or malformed, the whole conversation is asked again with that answer and a reminder naming those
 * turns (a new seed), up to `maxAttempts`; turns read from an earlier answer are kept. Turns never
 * read are outcomes too, labelled null with their last problem. A provider's refusal or content filter
 * counts as an unusable answer; any other call error that survived the retry layer fails the task.
 * Aborts and a stopped run propagate.
 */
export async function labelConversation(
  model: ChatModel,
  task: ConversationTask,
  taxonomy: Taxonomy,
  sampling: Sampling,
  studySeed: number,
  abortSignal?: AbortSignal,
): Promise<ConversationLabelsOutcome> {
  const turns: JudgedTurnRole[] = task.record.turns.map((turn) => ({ index: turn.index, role: turn.role }));
  const base = conversationJudgeMessages(taxonomy, task.record);
  const responseFormat = { name: 'conversation_labels', schema: conversationLabelsSchema(turns, taxonomy) };
  const callSampling = { temperature: sampling.temperature, maxOutputTokens: conversationOutputTokens(sampling, task.record) };
  const reading: ConversationReading = {
    read: new Map(),
    unread: new Map(turns.map((turn) => [turn.index, { detail: 'no answer' }])),
    ignoredKeys: [],
    last: { raw: '', callHash: null },
  };
  let messages: ChatMessage[] = base;
  let calls = 0;
  for (let attempt = 1; attempt <= sampling.maxAttempts && reading.unread.size > 0; attempt++) {
    calls = attempt;
    const seed = conversationLabelSeed(studySeed, task, attempt);
    const answer = await callModel(model, sampledRequest(messages, callSampling, seed, { responseFormat, abortSignal }));
    if (!answer.ok) {
      if (answer.error.reason !== 'refusal') return { status: 'failed', reason: answer.error.reason, detail: answer.error.message };
      reading.last = { raw: '', callHash: null };
      markUnread(reading, 'the provider refused to answer');
      continue;
    }
    const { reply } = answer;
    reading.last = { raw: reply.text, callHash: reply.callHash ?? null };
    if (reply.finishReason === 'content-filter') {
      markUnread(reading, 'the provider filtered the answer');
      continue;
    }
    const parsed = parseConversationLabels(reply.text, turns, taxonomy);
    if (!parsed.ok) {
      markUnread(reading, parsed.detail);
      // An empty answer is asked again as it was (some providers refuse an empty assistant message).
      messages = reply.text.trim() === '' ? base : [...base, { role: 'assistant', content: reply.text }, reminderOf({ whole: parsed.detail })];
      continue;
    }
    keepReadTurns(reading, parsed, turns, attempt);
    const problems: TurnProblem[] = [...reading.unread].map(([turn, { detail }]) => ({ turn, detail }));
    messages = [...base, { role: 'assistant', content: reply.text }, reminderOf({ turns: problems })];
  }
  const outcomes = turns.map(
    (turn): ConversationTurnOutcome =>
      reading.read.get(turn.index) ?? unreadOutcome(turn, reading.unread.get(turn.index) ?? { detail: 'no answer' }, calls, reading.last),
  );
  return { status: 'labelled', turns: outcomes, ignoredKeys: reading.ignoredKeys, calls };
}

const reminderOf = (problem: Parameters<typeof conversationJudgeReminder>[0]): ChatMessage => ({ role: 'user', content: conversationJudgeReminder(problem) });

function unreadOutcome(turn: JudgedTurnRole, problem: Unread, calls: number, last: { raw: string; callHash: string | null }): ConversationTurnOutcome {
  return {
    turn: turn.index,
    role: turn.role,
    labels: null,
    problem: problem.detail,
    attempts: calls,
    raw: problem.entry ?? last.raw,
    callHash: last.callHash,
    ignoredKeys: [],
  };
}
