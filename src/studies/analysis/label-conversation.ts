import type { FinishReason } from '../../domain/conversation.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { deriveSeed } from '../../domain/random.js';
import type { Role } from '../../domain/roles.js';
import type { Taxonomy } from '../../domain/taxonomy.js';
import type { TurnLabels } from '../../domain/turn-labels.js';
import type { ChatMessage, ChatModel, GenerateRequest } from '../../models/chat-model.js';
import { type CallFailureReason, isModelCallError } from '../../models/model-call-error.js';
import {
  conversationJudgeReminder,
  conversationJudgeRequest,
  conversationJudgeSystemPrompt,
  type TurnProblem,
} from '../../protocol/conversation-judge-prompt.js';
import { conversationLabelsSchema, type JudgedTurnRole, parseConversationLabels } from '../../protocol/conversation-labels-reply.js';
import type { Sampling } from '../design-parts.js';

/** One judge's reading of one whole conversation (the conversation grain): every turn's labels in one call. */
export interface ConversationTask {
  readonly judge: string;
  readonly record: ConversationRecord;
}

/** What came of one turn of a conversation read whole: its labels, or (no attempt gave them) none and the last problem. */
interface ConversationTurnOutcome {
  readonly turn: number;
  readonly role: Role;
  readonly labels: TurnLabels | null;
  readonly problem: string | null;
  /** Calls made until this turn's labels were read (the attempt that gave them), or every attempt when none did. */
  readonly attempts: number;
  /** The turn's own entry in the answer that gave its labels, as JSON text; for a turn without labels, its entry in the last answer, else that whole answer. */
  readonly raw: string;
  readonly callHash: string | null;
  /** Keys of the turn's entry that were not asked for, read past. */
  readonly ignoredKeys: readonly string[];
}

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
  const read = new Map<number, ConversationTurnOutcome>();
  const unread = new Map<number, Unread>(turns.map((turn) => [turn.index, { detail: 'no answer' }]));
  const ignoredKeys: string[] = [];
  let messages: ChatMessage[] = base;
  let last: { raw: string; callHash: string | null } = { raw: '', callHash: null };
  let calls = 0;
  const markAll = (detail: string) => {
    for (const index of unread.keys()) unread.set(index, { detail });
  };
  for (let attempt = 1; attempt <= sampling.maxAttempts && unread.size > 0; attempt++) {
    const request: GenerateRequest = {
      messages,
      temperature: sampling.temperature,
      maxOutputTokens: conversationOutputTokens(sampling, task.record),
      seed: conversationLabelSeed(studySeed, task, attempt),
      responseFormat,
      ...(abortSignal ? { abortSignal } : {}),
    };
    let reply: { text: string; callHash?: string; finishReason: FinishReason };
    calls = attempt;
    try {
      reply = await model.generate(request);
    } catch (error) {
      if (abortSignal?.aborted || !isModelCallError(error)) throw error;
      if (error.reason !== 'refusal') return { status: 'failed', reason: error.reason, detail: error.message };
      last = { raw: '', callHash: null };
      markAll('the provider refused to answer');
      continue;
    }
    last = { raw: reply.text, callHash: reply.callHash ?? null };
    if (reply.finishReason === 'content-filter') {
      markAll('the provider filtered the answer');
      continue;
    }
    const parsed = parseConversationLabels(reply.text, turns, taxonomy);
    if (!parsed.ok) {
      markAll(parsed.detail);
      // An empty answer is asked again as it was (some providers refuse an empty assistant message).
      messages = reply.text.trim() === '' ? base : [...base, { role: 'assistant', content: reply.text }, reminderOf({ whole: parsed.detail })];
      continue;
    }
    let gave = false;
    for (const [index, reading] of parsed.turns) {
      if (!unread.has(index)) continue;
      if (!reading.ok) {
        unread.set(index, { detail: reading.detail, ...(reading.entry === undefined ? {} : { entry: reading.entry }) });
        continue;
      }
      gave = true;
      unread.delete(index);
      const role = turns.find((turn) => turn.index === index)!.role;
      read.set(index, {
        turn: index,
        role,
        labels: reading.labels,
        problem: null,
        attempts: attempt,
        raw: reading.entry,
        callHash: last.callHash,
        ignoredKeys: reading.ignoredKeys,
      });
    }
    if (gave) ignoredKeys.push(...parsed.ignoredKeys);
    const problems: TurnProblem[] = [...unread].map(([turn, { detail }]) => ({ turn, detail }));
    messages = [...base, { role: 'assistant', content: reply.text }, reminderOf({ turns: problems })];
  }
  const outcomes = turns.map(
    (turn): ConversationTurnOutcome => read.get(turn.index) ?? unreadOutcome(turn, unread.get(turn.index) ?? { detail: 'no answer' }, calls, last),
  );
  return { status: 'labelled', turns: outcomes, ignoredKeys, calls };
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
