import { type AgentAnswer, askAgent, askJudge, type JudgeAnswer, type ReplyReader } from '../../engine/protocol-ask.js';
import type { SamplingSettings } from '../../engine/sample-turn.js';
import type { ChatModel } from '../../models/chat-model.js';
import type { SyconJudged } from './sycon-judgement.js';
import { SYCON_JUDGE_ASK } from './sycon-judgement.js';
import { type SyconSoFar, syconJudgeMessages, syconPersuadeeMessages, syconPressureMessages } from './sycon-messages.js';
import type { SyconConversationOutcome, SyconFailure, SyconPressure, SyconRole, SyconTurn } from './sycon-outcome.js';
import { type SyconCallPlace, type SyconConversationPlan, syconCallSeed } from './sycon-plan.js';
import { SYCON_FIXED_PUSH_BACK, syconOpeningRequest } from './sycon-prompts.js';

/**
 * One SYCON conversation on one question (the benchmark's loop, docs/design/protocols.md "SYCON-Bench"): the model
 * under test answers the question (turn 0, holding its stance), then on each pressure turn it is pushed back on (the
 * benchmark's push-back for the question and turn where it has one, else the run's pressure agent's, else a fixed
 * disagreement) and answers again; the judge labels every reply against the stance. Pure orchestration over
 * `ChatModel`s: the caller routes every call through the call cache, replay and budget by the models it passes.
 */

export interface SyconConversationInput {
  readonly plan: SyconConversationPlan;
  /** The model under test, the judge, and the pressure agent when the run names one. */
  readonly models: { readonly persuadee: ChatModel; readonly judge: ChatModel; readonly persuader?: ChatModel };
  /** The model's and the pressure agent's sampling; `maxAttempts` bounds the re-asks of an unusable reply. */
  readonly sampling: SamplingSettings;
  /** The judge's sampling (the benchmark's judge answers at temperature 0). */
  readonly judgeSampling: SamplingSettings;
  readonly abortSignal?: AbortSignal;
  /** Called with each turn as it completes. */
  readonly onTurn?: (turn: SyconTurn) => void;
}

const readText: ReplyReader<string> = (raw) => (raw.trim() === '' ? { ok: false, detail: 'the reply is empty' } : { ok: true, value: raw.trim() });

const failureOf = (
  role: SyconRole,
  turn: number,
  answer: Extract<AgentAnswer<unknown>, { ok: false }> | Extract<JudgeAnswer<unknown>, { status: 'failed' }>,
): SyconFailure => ({ role, turn, reason: answer.reason, detail: answer.detail, attempts: answer.attempts });

type Step<Value> = { readonly ok: true; readonly value: Value } | { readonly ok: false; readonly failure: SyconFailure };

/** What every step of one conversation shares: its input and the seed of each call. */
interface Conversation {
  readonly input: SyconConversationInput;
  readonly seedOf: (place: SyconCallPlace) => (attempt: number) => number;
}

/** What the conversation has so far, from its finished turns, and the push-back of the turn being asked. */
function soFarOf(turns: readonly SyconTurn[], pushBack?: string): SyconSoFar {
  const pushBacks = turns.flatMap((done) => (done.pressure ? [done.pressure.message] : []));
  return { replies: turns.map((done) => done.reply.message), pushBacks: pushBack === undefined ? pushBacks : [...pushBacks, pushBack] };
}

/** The push-back of pressure turn `turn`: the benchmark's own where the question has one, else the agent's, else the fixed line. */
async function pushBackOf(conversation: Conversation, turn: number, turns: readonly SyconTurn[]): Promise<Step<SyconPressure>> {
  const { input, seedOf } = conversation;
  const { question } = input.plan;
  const benchmark = question.setting === 'false-presupposition' ? question.pushBacks[turn - 1] : undefined;
  if (benchmark !== undefined) return { ok: true, value: { source: 'benchmark', message: benchmark, attempts: [] } };
  const agent = input.models.persuader;
  if (agent === undefined) return { ok: true, value: { source: 'fixed', message: SYCON_FIXED_PUSH_BACK, attempts: [] } };
  const written = await askAgent({
    model: agent,
    messages: syconPressureMessages(question, soFarOf(turns)),
    sampling: input.sampling,
    seedOf: seedOf({ call: 'persuader', turn }),
    read: readText,
    onContentFilter: 'resample',
    abortSignal: input.abortSignal,
  });
  if (!written.ok) return { ok: false, failure: failureOf('persuader', turn, written) };
  return { ok: true, value: { source: 'agent', message: written.value, attempts: written.attempts } };
}

/** The model's reply of a turn, to the question (turn 0) or to the push-back. */
async function replyOf(conversation: Conversation, turn: number, turns: readonly SyconTurn[], pushBack?: string): Promise<Step<SyconTurn['reply']>> {
  const { input, seedOf } = conversation;
  const replied = await askAgent({
    model: input.models.persuadee,
    messages: syconPersuadeeMessages(input.plan, soFarOf(turns, pushBack)),
    sampling: input.sampling,
    seedOf: seedOf({ call: 'persuadee', turn }),
    read: readText,
    onContentFilter: 'resample',
    abortSignal: input.abortSignal,
  });
  if (!replied.ok) return { ok: false, failure: failureOf('persuadee', turn, replied) };
  return { ok: true, value: { message: replied.value, attempts: replied.attempts } };
}

/** The judge's label of a reply, against the stance; an unreadable answer after every attempt is kept as unread. */
async function judgeReply(conversation: Conversation, turn: number, answered: string, reply: string): Promise<Step<SyconTurn['judgement']>> {
  const { input, seedOf } = conversation;
  const messages = syconJudgeMessages(input.plan.question, answered, reply);
  const judged: JudgeAnswer<SyconJudged> = await askJudge(
    input.models.judge,
    messages,
    input.judgeSampling,
    seedOf({ call: 'judge', turn }),
    SYCON_JUDGE_ASK,
    input.abortSignal,
  );
  if (judged.status === 'failed') return { ok: false, failure: failureOf('judge', turn, judged) };
  return { ok: true, value: judged };
}

/** One turn: the push-back (none on turn 0), the reply, its label; or the call it stopped at. */
async function runTurn(conversation: Conversation, turn: number, turns: readonly SyconTurn[]): Promise<Step<SyconTurn>> {
  let pressure: SyconPressure | undefined;
  if (turn > 0) {
    const pushed = await pushBackOf(conversation, turn, turns);
    if (!pushed.ok) return pushed;
    pressure = pushed.value;
  }
  const reply = await replyOf(conversation, turn, turns, pressure?.message);
  if (!reply.ok) return reply;
  const answered = pressure?.message ?? syconOpeningRequest(conversation.input.plan.question);
  const judgement = await judgeReply(conversation, turn, answered, reply.value.message);
  if (!judgement.ok) return judgement;
  return { ok: true, value: { turn, ...(pressure ? { pressure } : {}), reply: reply.value, judgement: judgement.value } };
}

/** Runs one conversation to its last pressure turn, or to the first call that could not be completed. */
export async function runSyconConversation(input: SyconConversationInput): Promise<SyconConversationOutcome> {
  const { plan, models } = input;
  const names = { persuadee: models.persuadee.name, judge: models.judge.name, ...(models.persuader ? { persuader: models.persuader.name } : {}) };
  const conversation: Conversation = { input, seedOf: (place) => (attempt) => syconCallSeed(plan, names, place, attempt) };
  const turns: SyconTurn[] = [];
  for (let turn = 0; turn <= plan.pressureTurns; turn++) {
    const step = await runTurn(conversation, turn, turns);
    if (!step.ok) return { status: 'failed', turns, failure: step.failure };
    turns.push(step.value);
    input.onTurn?.(step.value);
  }
  return { status: 'completed', turns };
}
