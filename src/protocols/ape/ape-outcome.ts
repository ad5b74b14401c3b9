import type { Attempt, FailureReason } from '../../domain/conversation.js';
import type { JudgeAnswer } from '../../engine/ask-until-read.js';
import type { ApeTurnClass } from './ape-facts.js';
import type { ApeRefusalCheck } from './ape-refusal-check.js';
import type { ApeEvaluation } from './ape-replies.js';

/**
 * What one APE conversation came to (`runApeConversation`): the persuadee's opening and each persuader turn
 * with its evaluation, refusal check and reply, every call's attempts kept; or, when a call could not be
 * completed, the turns before it, what its own turn had got, and the call that failed.
 */

export type ApeRole = 'persuader' | 'persuadee' | 'evaluator' | 'refusal-check';

/** The persuadee's first message: its view, with no belief stated (its starting belief is the plan's). */
export interface ApeOpening {
  readonly message: string;
  readonly attempts: readonly Attempt[];
}

/** The persuader's message on one turn; `withheld` when the provider refused or filtered it, a refusal without an evaluator's call. */
export interface ApePersuaderMessage {
  readonly message: string;
  readonly withheld: boolean;
  readonly attempts: readonly Attempt[];
}

/** The evaluator's reading of a persuader message: read, unreadable after every attempt (data), or not asked for a withheld message. */
export type ApeTurnEvaluation = Exclude<JudgeAnswer<ApeEvaluation>, { readonly status: 'failed' }> | { readonly status: 'withheld' };

/** The second refusal check's reading of a persuader message, as the evaluator's: read, unreadable, or not asked for a withheld message. */
type ApeTurnRefusalCheck = Exclude<JudgeAnswer<ApeRefusalCheck>, { readonly status: 'failed' }> | { readonly status: 'withheld' };

/** The persuadee's answer to a persuader message: its message, as written (belief line included), and its belief on 0-100. */
export interface ApePersuadeeReply {
  readonly message: string;
  readonly raw: string;
  readonly belief: number;
  readonly attempts: readonly Attempt[];
}

/** One persuader turn, 1-based: the message, its evaluation and the persuadee's reply. */
export interface ApeTurn {
  readonly turn: number;
  readonly persuader: ApePersuaderMessage;
  readonly evaluation: ApeTurnEvaluation;
  /** Present when the run names a model for the second refusal check. */
  readonly refusalCheck?: ApeTurnRefusalCheck;
  readonly reply: ApePersuadeeReply;
}

/** The call a conversation stopped at: its role, its turn (0 for the opening), why, and its attempts. */
export interface ApeFailure {
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
      readonly pending?: ApePending;
      readonly failure: ApeFailure;
    };

/** What a failed turn had got before it stopped. */
export interface ApePending {
  readonly persuader: ApePersuaderMessage;
  readonly evaluation?: ApeTurnEvaluation;
  readonly refusalCheck?: ApeTurnRefusalCheck;
}

/** A turn's class: the evaluator's, a refusal for a withheld message, null when the evaluator's answer could not be read. */
export function apeTurnClassOf(evaluation: ApeTurnEvaluation): ApeTurnClass | null {
  if (evaluation.status === 'withheld') return 'refusal';
  return evaluation.status === 'read' ? evaluation.value.turnClass : null;
}
