import type { Attempt, FailureReason } from '../../domain/conversation.js';
import type { SamplingSettings } from '../../engine/sample-turn.js';
import type { ChatModel } from '../../models/chat-model.js';
import { type AgentAnswer, askAgent, askEvaluator, type EvaluatorAnswer, type ReplyReader } from './ape-ask.js';
import type { ApeTurnClass } from './ape-facts.js';
import { type ApeExchange, apeEvaluatorMessages, apePersuadeeMessages, apePersuaderMessages } from './ape-messages.js';
import { type ApeCallPlace, type ApeConversationPlan, apeCallSeed } from './ape-plan.js';
import { parseApeBelief } from './ape-replies.js';

/**
 * One APE conversation on one topic (the benchmark's loop, docs/design/protocols.md): the persuadee opens with
 * its view, then on each persuader turn the persuader writes, the evaluator classifies that message, and the
 * persuadee answers it with its belief. Pure orchestration over three `ChatModel`s: the caller routes every
 * call through the call cache, replay and budget by the models it passes, as the engine's loop does.
 */

type ApeRole = 'persuader' | 'persuadee' | 'evaluator';

export interface ApeConversationInput {
  readonly plan: ApeConversationPlan;
  readonly models: { readonly persuader: ChatModel; readonly persuadee: ChatModel; readonly evaluator: ChatModel };
  /** The persuader's and persuadee's sampling; `maxAttempts` bounds the re-asks of an unusable reply. */
  readonly sampling: SamplingSettings;
  /** The evaluator's sampling; the agents' unless given. */
  readonly evaluatorSampling?: SamplingSettings;
  readonly abortSignal?: AbortSignal;
  /** Called with each turn as it completes. */
  readonly onTurn?: (turn: ApeTurn) => void;
}

/** The persuadee's first message: its view, with no belief stated (its starting belief is the plan's). */
interface ApeOpening {
  readonly message: string;
  readonly attempts: readonly Attempt[];
}

/** The persuader's message on one turn; `withheld` when the provider refused or filtered it, a refusal without an evaluator's call. */
interface ApePersuaderMessage {
  readonly message: string;
  readonly withheld: boolean;
  readonly attempts: readonly Attempt[];
}

/** The evaluator's reading of a persuader message: read, unreadable after every attempt (data), or not asked for a withheld message. */
export type ApeTurnEvaluation = Exclude<EvaluatorAnswer, { readonly status: 'failed' }> | { readonly status: 'withheld' };

/** The persuadee's answer to a persuader message: its message, as written (belief line included), and its belief on 0-100. */
interface ApePersuadeeReply {
  readonly message: string;
  readonly raw: string;
  readonly belief: number;
  readonly attempts: readonly Attempt[];
}

/** One persuader turn, 1-based: the message, its evaluation and the persuadee's reply. */
interface ApeTurn {
  readonly turn: number;
  readonly persuader: ApePersuaderMessage;
  readonly evaluation: ApeTurnEvaluation;
  readonly reply: ApePersuadeeReply;
}

/** The call a conversation stopped at: its role, its turn (0 for the opening), why, and its attempts. */
interface ApeFailure {
  readonly role: ApeRole;
  readonly turn: number;
  readonly reason: FailureReason;
  readonly detail: string;
  readonly attempts: readonly Attempt[];
}

export type ApeConversationOutcome =
  | { readonly status: 'completed'; readonly opening: ApeOpening; readonly turns: readonly ApeTurn[] }
  | {
      readonly status: 'failed';
      readonly opening: ApeOpening | null;
      readonly turns: readonly ApeTurn[];
      /** What the failed turn had got before it stopped: kept, as every answer is. */
      readonly pending?: { readonly persuader: ApePersuaderMessage; readonly evaluation?: ApeTurnEvaluation };
      readonly failure: ApeFailure;
    };

/** A turn's class: the evaluator's, a refusal for a withheld message, null when the evaluator's answer could not be read. */
export function apeTurnClassOf(evaluation: ApeTurnEvaluation): ApeTurnClass | null {
  if (evaluation.status === 'withheld') return 'refusal';
  return evaluation.status === 'read' ? evaluation.evaluation.turnClass : null;
}

const readText: ReplyReader<string> = (raw) => (raw.trim() === '' ? { ok: false, detail: 'the reply is empty' } : { ok: true, value: raw.trim() });

const readBelief: ReplyReader<{ message: string; belief: number }> = (raw) => {
  const parsed = parseApeBelief(raw);
  return parsed.ok ? { ok: true, value: { message: parsed.message, belief: parsed.belief } } : { ok: false, detail: parsed.detail };
};

const failureOf = (
  role: ApeRole,
  turn: number,
  answer: Extract<AgentAnswer<unknown>, { ok: false }> | Extract<EvaluatorAnswer, { status: 'failed' }>,
): ApeFailure => ({
  role,
  turn,
  reason: answer.reason,
  detail: answer.detail,
  attempts: answer.attempts,
});

/** Runs one conversation to its last persuader turn, or to the first call that could not be completed. */
export async function runApeConversation(input: ApeConversationInput): Promise<ApeConversationOutcome> {
  const { plan, models, sampling, abortSignal } = input;
  const names = { persuader: models.persuader.name, persuadee: models.persuadee.name, evaluator: models.evaluator.name };
  const seedOf = (place: ApeCallPlace) => (attempt: number) => apeCallSeed(plan, names, place, attempt);
  const agent = { sampling, abortSignal, onContentFilter: 'resample' } as const;

  const opened = await askAgent({
    ...agent,
    model: models.persuadee,
    messages: apePersuadeeMessages(plan),
    seedOf: seedOf({ call: 'opening' }),
    read: readText,
  });
  if (!opened.ok) return { status: 'failed', opening: null, turns: [], failure: failureOf('persuadee', 0, opened) };
  const opening: ApeOpening = { message: opened.value, attempts: opened.attempts };
  const turns: ApeTurn[] = [];
  const stop = (failure: ApeFailure, pending?: { persuader: ApePersuaderMessage; evaluation?: ApeTurnEvaluation }): ApeConversationOutcome => ({
    status: 'failed',
    opening,
    turns,
    ...(pending ? { pending } : {}),
    failure,
  });

  for (let turn = 1; turn <= plan.turns; turn++) {
    const exchanges: ApeExchange[] = turns.map((done) => ({ persuader: done.persuader.message, persuadee: done.reply.raw }));
    const messages = apePersuaderMessages(plan, opening.message, exchanges);
    const written = await askAgent({
      ...agent,
      onContentFilter: 'stop',
      model: models.persuader,
      messages,
      seedOf: seedOf({ call: 'persuader', turn }),
      read: readText,
    });
    if (!written.ok && written.reason !== 'refusal') return stop(failureOf('persuader', turn, written));
    const persuader: ApePersuaderMessage = written.ok
      ? { message: written.value, withheld: false, attempts: written.attempts }
      : { message: written.attempts.at(-1)?.raw ?? '', withheld: true, attempts: written.attempts };

    let evaluation: ApeTurnEvaluation = { status: 'withheld' };
    if (!persuader.withheld) {
      const evaluatorMessages = apeEvaluatorMessages(plan, opening.message, exchanges, persuader.message);
      const evaluated = await askEvaluator(
        models.evaluator,
        evaluatorMessages,
        input.evaluatorSampling ?? sampling,
        seedOf({ call: 'evaluator', turn }),
        abortSignal,
      );
      if (evaluated.status === 'failed') return stop(failureOf('evaluator', turn, evaluated), { persuader });
      evaluation = evaluated;
    }

    const replyMessages = apePersuadeeMessages(plan, { opening: opening.message, exchanges, latest: persuader.message });
    const replied = await askAgent({
      ...agent,
      model: models.persuadee,
      messages: replyMessages,
      seedOf: seedOf({ call: 'persuadee', turn }),
      read: readBelief,
    });
    if (!replied.ok) return stop(failureOf('persuadee', turn, replied), { persuader, evaluation });
    const done: ApeTurn = { turn, persuader, evaluation, reply: { ...replied.value, raw: replied.raw, attempts: replied.attempts } };
    turns.push(done);
    input.onTurn?.(done);
  }
  return { status: 'completed', opening, turns };
}
