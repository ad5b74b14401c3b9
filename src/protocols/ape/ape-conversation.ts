import { type AgentAnswer, askAgent, askJudge, type JudgeAnswer, type ReplyReader } from '../../engine/ask-until-read.js';
import type { SamplingSettings } from '../../engine/sample-turn.js';
import type { ChatModel } from '../../models/chat-model.js';
import { EVALUATOR_ASK } from './ape-ask.js';
import { type ApeExchange, apeEvaluatorMessages, apePersuadeeMessages, apePersuaderMessages, apeRefusalCheckMessages } from './ape-messages.js';
import type { ApeConversationOutcome, ApeFailure, ApeOpening, ApePending, ApePersuadeeReply, ApePersuaderMessage, ApeRole, ApeTurn } from './ape-outcome.js';
import { type ApeCallPlace, type ApeConversationPlan, apeCallSeed } from './ape-plan.js';
import { REFUSAL_CHECK_ASK } from './ape-refusal-check.js';
import { parseApeBelief } from './ape-replies.js';

/**
 * One APE conversation on one topic (the benchmark's loop, docs/design/protocols.md): the persuadee opens with
 * its view, then on each persuader turn the persuader writes, the evaluator classifies that message, and the
 * persuadee answers it with its belief. Pure orchestration over three `ChatModel`s: the caller routes every
 * call through the call cache, replay and budget by the models it passes, as the engine's loop does.
 */

export interface ApeConversationInput {
  readonly plan: ApeConversationPlan;
  /** The three models, and the second refusal check's when the run names one (asked after the evaluator on each persuader turn). */
  readonly models: { readonly persuader: ChatModel; readonly persuadee: ChatModel; readonly evaluator: ChatModel; readonly refusalCheck?: ChatModel };
  /** The persuader's and persuadee's sampling; `maxAttempts` bounds the re-asks of an unusable reply. */
  readonly sampling: SamplingSettings;
  /** The evaluator's and the refusal check's sampling; the agents' unless given. */
  readonly evaluatorSampling?: SamplingSettings;
  readonly abortSignal?: AbortSignal;
  /** Called with each turn as it completes. */
  readonly onTurn?: (turn: ApeTurn) => void;
}

const readText: ReplyReader<string> = (raw) => (raw.trim() === '' ? { ok: false, detail: 'the reply is empty' } : { ok: true, value: raw.trim() });

const readBelief: ReplyReader<{ message: string; belief: number }> = (raw) => {
  const parsed = parseApeBelief(raw);
  return parsed.ok ? { ok: true, value: { message: parsed.message, belief: parsed.belief } } : { ok: false, detail: parsed.detail };
};

const failureOf = (
  role: ApeRole,
  turn: number,
  answer: Extract<AgentAnswer<unknown>, { ok: false }> | Extract<JudgeAnswer<unknown>, { status: 'failed' }>,
): ApeFailure => ({
  role,
  turn,
  reason: answer.reason,
  detail: answer.detail,
  attempts: answer.attempts,
});

/** A persuader message as the others are shown it: none when withheld (a filtered reply may hold part of what was filtered), so the stand-in shows. */
const shownText = (persuader: ApePersuaderMessage): string => (persuader.withheld ? '' : persuader.message);

/** What every step of one conversation shares: its input, the judges' sampling, the seed of each call, and the persuadee's opening. */
interface Conversation {
  readonly input: ApeConversationInput;
  readonly judgeSampling: SamplingSettings;
  readonly seedOf: (place: ApeCallPlace) => (attempt: number) => number;
  readonly opening: string;
}

type Step<Value> = { readonly ok: true; readonly value: Value } | { readonly ok: false; readonly failure: ApeFailure; readonly pending?: ApePending };

const agentAsk = (input: ApeConversationInput) => ({ sampling: input.sampling, abortSignal: input.abortSignal, onContentFilter: 'resample' as const });

/** The persuader's message of `turn`: a refusal or filter by its provider is kept as a withheld message (a refusal), never re-sampled. */
async function writePersuaderMessage(conversation: Conversation, turn: number, exchanges: readonly ApeExchange[]): Promise<Step<ApePersuaderMessage>> {
  const { input, seedOf } = conversation;
  const messages = apePersuaderMessages(input.plan, conversation.opening, exchanges);
  const asked = { ...agentAsk(input), onContentFilter: 'stop' as const, model: input.models.persuader, messages, seedOf: seedOf({ call: 'persuader', turn }) };
  const written = await askAgent({ ...asked, read: readText });
  if (written.ok) return { ok: true, value: { message: written.value, withheld: false, attempts: written.attempts } };
  if (written.reason !== 'refusal') return { ok: false, failure: failureOf('persuader', turn, written) };
  return { ok: true, value: { message: written.attempts.at(-1)?.raw ?? '', withheld: true, attempts: written.attempts } };
}

/** The judges' readings of a persuader message: the evaluator's, and the refusal check's when the run names a model for it. */
async function judgeMessage(
  conversation: Conversation,
  turn: number,
  exchanges: readonly ApeExchange[],
  persuader: ApePersuaderMessage,
): Promise<Step<Pick<ApeTurn, 'evaluation' | 'refusalCheck'>>> {
  const { input, seedOf, opening, judgeSampling } = conversation;
  const { evaluator, refusalCheck: checker } = input.models;
  if (persuader.withheld) return { ok: true, value: { evaluation: { status: 'withheld' }, ...(checker ? { refusalCheck: { status: 'withheld' } } : {}) } };
  const evaluatorMessages = apeEvaluatorMessages(input.plan, opening, exchanges, persuader.message);
  const evaluation = await askJudge(evaluator, evaluatorMessages, judgeSampling, seedOf({ call: 'evaluator', turn }), EVALUATOR_ASK, input.abortSignal);
  if (evaluation.status === 'failed') return { ok: false, failure: failureOf('evaluator', turn, evaluation), pending: { persuader } };
  if (checker === undefined) return { ok: true, value: { evaluation } };
  const checkMessages = apeRefusalCheckMessages(input.plan, opening, exchanges, persuader.message);
  const refusalCheck = await askJudge(checker, checkMessages, judgeSampling, seedOf({ call: 'refusal-check', turn }), REFUSAL_CHECK_ASK, input.abortSignal);
  if (refusalCheck.status === 'failed') return { ok: false, failure: failureOf('refusal-check', turn, refusalCheck), pending: { persuader, evaluation } };
  return { ok: true, value: { evaluation, refusalCheck } };
}

/** The persuadee's reply to the persuader's message of `turn`, with its belief. */
async function replyWithBelief(conversation: Conversation, turn: number, exchanges: readonly ApeExchange[], latest: string): Promise<Step<ApePersuadeeReply>> {
  const { input, seedOf, opening } = conversation;
  const messages = apePersuadeeMessages(input.plan, { opening, exchanges, latest });
  const replied = await askAgent({
    ...agentAsk(input),
    model: input.models.persuadee,
    messages,
    seedOf: seedOf({ call: 'persuadee', turn }),
    read: readBelief,
  });
  if (!replied.ok) return { ok: false, failure: failureOf('persuadee', turn, replied) };
  return { ok: true, value: { ...replied.value, raw: replied.raw, attempts: replied.attempts } };
}

/** One persuader turn: the message, the judges' readings, the persuadee's reply; or the call it stopped at, with what it had got. */
async function runTurn(conversation: Conversation, turn: number, exchanges: readonly ApeExchange[]): Promise<Step<ApeTurn>> {
  const persuader = await writePersuaderMessage(conversation, turn, exchanges);
  if (!persuader.ok) return persuader;
  const judged = await judgeMessage(conversation, turn, exchanges, persuader.value);
  if (!judged.ok) return judged;
  const reply = await replyWithBelief(conversation, turn, exchanges, shownText(persuader.value));
  if (!reply.ok) return { ...reply, pending: { persuader: persuader.value, ...judged.value } };
  return { ok: true, value: { turn, persuader: persuader.value, ...judged.value, reply: reply.value } };
}

/** Runs one conversation to its last persuader turn, or to the first call that could not be completed. */
export async function runApeConversation(input: ApeConversationInput): Promise<ApeConversationOutcome> {
  const { plan, models } = input;
  const names = {
    persuader: plan.persuaderVariant?.agent ?? models.persuader.name,
    persuadee: models.persuadee.name,
    evaluator: models.evaluator.name,
    ...(models.refusalCheck ? { refusalCheck: models.refusalCheck.name } : {}),
  };
  const seedOf = (place: ApeCallPlace) => (attempt: number) => apeCallSeed(plan, names, place, attempt);
  const openingMessages = apePersuadeeMessages(plan);
  const opened = await askAgent({
    ...agentAsk(input),
    model: models.persuadee,
    messages: openingMessages,
    seedOf: seedOf({ call: 'opening' }),
    read: readText,
  });
  if (!opened.ok) return { status: 'failed', opening: null, turns: [], failure: failureOf('persuadee', 0, opened) };
  const opening: ApeOpening = { message: opened.value, attempts: opened.attempts };
  const conversation: Conversation = { input, judgeSampling: input.evaluatorSampling ?? input.sampling, seedOf, opening: opening.message };
  const turns: ApeTurn[] = [];
  for (let turn = 1; turn <= plan.turns; turn++) {
    const exchanges = turns.map((done) => ({ persuader: shownText(done.persuader), persuadee: done.reply.raw }));
    const step = await runTurn(conversation, turn, exchanges);
    if (!step.ok) return { status: 'failed', opening, turns, ...(step.pending ? { pending: step.pending } : {}), failure: step.failure };
    turns.push(step.value);
    input.onTurn?.(step.value);
  }
  return { status: 'completed', opening, turns };
}
