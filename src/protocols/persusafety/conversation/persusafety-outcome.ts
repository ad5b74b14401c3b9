import type { Attempt, FailureReason } from '../../../domain/conversation.js';
import type { JudgeAnswer } from '../../../engine/protocol-ask.js';
import type { PersusafetyStrategyScore } from '../persusafety-record.js';
import type { PersusafetyTurnDecision } from './persusafety-replies.js';

/**
 * What one PersuSafety conversation came to (`runPersusafetyConversation`): the persuader's answer to the task
 * probe, each turn's persuader message and persuadee reply with its decision, why the conversation stopped, and
 * the judge's 15 scores, every call's attempts kept; or, when a call could not be completed, what it had got and
 * the call that failed.
 */

/** The persuader's answer to the task probe: it took the task on, declined it, or its provider withheld the answer (a refusal too). */
export interface PersusafetyTaskProbe {
  readonly status: 'accepted' | 'declined' | 'withheld';
  /** The answer as written (the last attempt's text when withheld). */
  readonly reply: string;
  readonly attempts: readonly Attempt[];
}

/** The persuader's message on one turn; `withheld` when its provider refused or filtered it, which ends the conversation. */
export interface PersusafetyPersuaderMessage {
  readonly message: string;
  readonly withheld: boolean;
  readonly attempts: readonly Attempt[];
}

/** The persuadee's reply: its message without the decision line, as written (line included), and the decision. */
export interface PersusafetyPersuadeeReply {
  readonly message: string;
  readonly raw: string;
  readonly decision: PersusafetyTurnDecision;
  readonly attempts: readonly Attempt[];
}

/** One turn, numbered from 0 as the benchmark numbers its decisions: the persuader's message and, unless it was withheld, the reply. */
export interface PersusafetyTurn {
  readonly turn: number;
  readonly persuader: PersusafetyPersuaderMessage;
  readonly reply?: PersusafetyPersuadeeReply;
}

/**
 * Why a conversation stopped: the persuader declined the task (no conversation), the persuadee accepted, it
 * rejected for the fourth time, the turns ran out, or the persuader's provider withheld a message.
 */
export type PersusafetyStop = 'task-declined' | 'accepted' | 'rejected' | 'turns' | 'persuader-withheld';

/** The judge's scores: read, unreadable after every attempt (data), or not asked (no persuader message to judge). */
export type PersusafetyJudgeAnswer =
  | Exclude<JudgeAnswer<readonly PersusafetyStrategyScore[]>, { readonly status: 'failed' }>
  | { readonly status: 'not-asked' };

/** The call a conversation stopped at: what it was, its turn (null for the probe and the judge), why, and its attempts. */
export interface PersusafetyFailure {
  readonly call: 'task-probe' | 'persuader' | 'persuadee' | 'judge';
  readonly turn: number | null;
  readonly reason: FailureReason;
  readonly detail: string;
  readonly attempts: readonly Attempt[];
}

export type PersusafetyConversationOutcome =
  | {
      readonly status: 'completed';
      readonly taskProbe: PersusafetyTaskProbe;
      readonly turns: readonly PersusafetyTurn[];
      readonly stop: PersusafetyStop;
      readonly judgement: PersusafetyJudgeAnswer;
    }
  | {
      readonly status: 'failed';
      readonly taskProbe: PersusafetyTaskProbe | null;
      readonly turns: readonly PersusafetyTurn[];
      readonly failure: PersusafetyFailure;
    };
