import type { Attempt, FailureReason } from '../../../domain/conversation.js';
import { askAgent, askJudge, type ReplyReader } from '../../../engine/protocol-ask.js';
import type { SamplingSettings } from '../../../engine/sample-turn.js';
import type { ChatModel } from '../../../models/chat-model.js';
import { PERSUSAFETY_RUN_DEFAULTS } from '../persusafety-facts.js';
import { PERSUSAFETY_JUDGE_ASK } from './persusafety-judge.js';
import {
  persusafetyExchangesOf,
  persusafetyJudgeMessages,
  persusafetyPersuadeeMessages,
  persusafetyPersuaderMessages,
  persusafetyTaskProbeMessages,
} from './persusafety-messages.js';
import type {
  PersusafetyConversationOutcome,
  PersusafetyFailure,
  PersusafetyJudgeAnswer,
  PersusafetyPersuadeeReply,
  PersusafetyPersuaderMessage,
  PersusafetyStop,
  PersusafetyTaskProbe,
  PersusafetyTurn,
} from './persusafety-outcome.js';
import { type PersusafetyCallPlace, type PersusafetyConversationPlan, persusafetyCallSeed } from './persusafety-plan.js';
import { type PersusafetyTurnDecision, readPersusafetyDecision, readPersusafetyTaskChoice } from './persusafety-replies.js';

/**
 * One PersuSafety conversation on one scene (the benchmark's loop, docs/design/protocols.md, "PersuSafety"): the
 * persuader is first asked whether it takes the task on (a refusal ends it there); then on each turn the
 * persuader writes and the persuadee replies with its decision, until it accepts, rejects for the fourth time, or
 * the turns run out; then the judge scores the whole conversation once. Pure orchestration over three
 * `ChatModel`s: the caller routes every call through the call cache, replay and budget by the models it passes.
 */

export interface PersusafetyConversationInput {
  readonly plan: PersusafetyConversationPlan;
  readonly models: { readonly persuader: ChatModel; readonly persuadee: ChatModel; readonly judge: ChatModel };
  /** The persuader's and persuadee's sampling; `maxAttempts` bounds the re-asks of an unusable reply. */
  readonly sampling: SamplingSettings;
  /** The judge's sampling (the benchmark's judge: temperature 0, 1,000 tokens). */
  readonly judgeSampling: SamplingSettings;
  readonly abortSignal?: AbortSignal;
  /** Called with each turn as it completes (a dry run counts how far the stored calls take a conversation). */
  readonly onTurn?: (turn: PersusafetyTurn) => void;
}

type Step<Value> = { readonly ok: true; readonly value: Value } | { readonly ok: false; readonly failure: PersusafetyFailure };

const readText: ReplyReader<string> = (raw) => (raw.trim() === '' ? { ok: false, detail: 'the reply is empty' } : { ok: true, value: raw.trim() });

const failed = (
  call: PersusafetyFailure['call'],
  turn: number | null,
  answer: { readonly reason: FailureReason; readonly detail: string; readonly attempts: readonly Attempt[] },
) => ({ ok: false as const, failure: { call, turn, reason: answer.reason, detail: answer.detail, attempts: answer.attempts } });

/** The turns of a conversation and why they stopped, or the turns before the call that failed. */
type Talk =
  | { readonly ok: true; readonly turns: readonly PersusafetyTurn[]; readonly stop: PersusafetyStop }
  | { readonly ok: false; readonly turns: readonly PersusafetyTurn[]; readonly failure: PersusafetyFailure };

/** What every step of one conversation shares: its input and the seed of each call. */
interface Conversation {
  readonly input: PersusafetyConversationInput;
  readonly seedOf: (place: PersusafetyCallPlace) => (attempt: number) => number;
}

/** The task probe: a provider's refusal or filter is a refusal of the task (withheld), never re-sampled. */
async function probeTask({ input, seedOf }: Conversation): Promise<Step<PersusafetyTaskProbe>> {
  const answer = await askAgent({
    model: input.models.persuader,
    messages: persusafetyTaskProbeMessages(input.plan),
    sampling: input.sampling,
    seedOf: seedOf({ call: 'task-probe' }),
    read: readPersusafetyTaskChoice,
    onContentFilter: 'stop',
    abortSignal: input.abortSignal,
  });
  if (answer.ok) return { ok: true, value: { status: answer.value === 'accept' ? 'accepted' : 'declined', reply: answer.raw, attempts: answer.attempts } };
  if (answer.reason === 'refusal') return { ok: true, value: { status: 'withheld', reply: answer.attempts.at(-1)?.raw ?? '', attempts: answer.attempts } };
  return failed('task-probe', null, answer);
}

/** The persuader's message of `turn`: a refusal or filter by its provider is kept as a withheld message, never re-sampled. */
async function writePersuaderMessage(
  { input, seedOf }: Conversation,
  turn: number,
  turns: readonly PersusafetyTurn[],
): Promise<Step<PersusafetyPersuaderMessage>> {
  const written = await askAgent({
    model: input.models.persuader,
    messages: persusafetyPersuaderMessages(input.plan, persusafetyExchangesOf(turns)),
    sampling: input.sampling,
    seedOf: seedOf({ call: 'persuader', turn }),
    read: readText,
    onContentFilter: 'stop',
    abortSignal: input.abortSignal,
  });
  if (written.ok) return { ok: true, value: { message: written.value, withheld: false, attempts: written.attempts } };
  if (written.reason !== 'refusal') return failed('persuader', turn, written);
  return { ok: true, value: { message: written.attempts.at(-1)?.raw ?? '', withheld: true, attempts: written.attempts } };
}

/** The persuadee's reply to the persuader's message of `turn`, with its decision. */
async function replyWithDecision(
  { input, seedOf }: Conversation,
  turn: number,
  turns: readonly PersusafetyTurn[],
  latest: string,
): Promise<Step<PersusafetyPersuadeeReply>> {
  const replied = await askAgent({
    model: input.models.persuadee,
    messages: persusafetyPersuadeeMessages(input.plan, persusafetyExchangesOf(turns), latest),
    sampling: input.sampling,
    seedOf: seedOf({ call: 'persuadee', turn }),
    read: readPersusafetyDecision,
    onContentFilter: 'resample',
    abortSignal: input.abortSignal,
  });
  if (!replied.ok) return failed('persuadee', turn, replied);
  return { ok: true, value: { ...replied.value, raw: replied.raw, attempts: replied.attempts } };
}

/** Why the conversation stops after a reply with `decision`, having had `rejections` so far; undefined: it goes on. */
function stopAfter(decision: PersusafetyTurnDecision, rejections: number): PersusafetyStop | undefined {
  if (decision === 'accept') return 'accepted';
  if (decision === 'reject' && rejections >= PERSUSAFETY_RUN_DEFAULTS.rejectionsToEnd) return 'rejected';
  return undefined;
}

/** The turns, until the persuadee accepts, rejects for the fourth time, the persuader's message is withheld, or the turns run out. */
async function converse(conversation: Conversation): Promise<Talk> {
  const turns: PersusafetyTurn[] = [];
  let rejections = 0;
  for (let turn = 0; turn < conversation.input.plan.turns; turn++) {
    const persuader = await writePersuaderMessage(conversation, turn, turns);
    if (!persuader.ok) return { ...persuader, turns };
    if (persuader.value.withheld) {
      turns.push({ turn, persuader: persuader.value });
      conversation.input.onTurn?.(turns.at(-1)!);
      return { ok: true, turns, stop: 'persuader-withheld' };
    }
    const reply = await replyWithDecision(conversation, turn, turns, persuader.value.message);
    if (!reply.ok) return { ...reply, turns };
    turns.push({ turn, persuader: persuader.value, reply: reply.value });
    conversation.input.onTurn?.(turns.at(-1)!);
    if (reply.value.decision === 'reject') rejections += 1;
    const stop = stopAfter(reply.value.decision, rejections);
    if (stop !== undefined) return { ok: true, turns, stop };
  }
  return { ok: true, turns, stop: 'turns' };
}

/** The judge's scores of the conversation; not asked when the persuader said nothing the judge could read. */
async function judge({ input, seedOf }: Conversation, turns: readonly PersusafetyTurn[]): Promise<Step<PersusafetyJudgeAnswer>> {
  if (!turns.some((turn) => !turn.persuader.withheld)) return { ok: true, value: { status: 'not-asked' } };
  const messages = persusafetyJudgeMessages(input.plan, turns);
  const answer = await askJudge(input.models.judge, messages, input.judgeSampling, seedOf({ call: 'judge' }), PERSUSAFETY_JUDGE_ASK, input.abortSignal);
  if (answer.status === 'failed') return failed('judge', null, answer);
  return { ok: true, value: answer };
}

/** Runs one conversation to its stop and its judgement, or to the first call that could not be completed. */
export async function runPersusafetyConversation(input: PersusafetyConversationInput): Promise<PersusafetyConversationOutcome> {
  const { plan, models } = input;
  const names = { persuader: models.persuader.name, persuadee: models.persuadee.name, judge: models.judge.name };
  const conversation: Conversation = { input, seedOf: (place) => (attempt) => persusafetyCallSeed(plan, names, place, attempt) };
  const probe = await probeTask(conversation);
  if (!probe.ok) return { status: 'failed', taskProbe: null, turns: [], failure: probe.failure };
  const taskProbe = probe.value;
  if (taskProbe.status !== 'accepted') return { status: 'completed', taskProbe, turns: [], stop: 'task-declined', judgement: { status: 'not-asked' } };
  const talked = await converse(conversation);
  if (!talked.ok) return { status: 'failed', taskProbe, turns: talked.turns, failure: talked.failure };
  const { turns, stop } = talked;
  const judged = await judge(conversation, turns);
  if (!judged.ok) return { status: 'failed', taskProbe, turns, failure: judged.failure };
  return { status: 'completed', taskProbe, turns, stop, judgement: judged.value };
}
