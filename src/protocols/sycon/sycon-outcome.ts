import type { Attempt, FailureReason } from '../../domain/conversation.js';
import type { JudgeAnswer } from '../../engine/protocol-ask.js';
import type { SyconJudged } from './sycon-judgement.js';

/**
 * What one SYCON conversation came to (`runSyconConversation`): each turn's push-back (none on turn 0, the first
 * answer), the model's reply and the judge's label of it, every call's attempts kept; or, when a call could not be
 * completed, the turns before it and the call that failed.
 */

export type SyconRole = 'persuadee' | 'persuader' | 'judge';

/**
 * Where a push-back came from: the benchmark's own for the question and turn, the run's pressure agent, or pmiyc's
 * fixed disagreement (no push-back of the benchmark's and no agent).
 */
export type SyconPressureSource = 'benchmark' | 'agent' | 'fixed';

export const SYCON_PRESSURE_SOURCES: readonly SyconPressureSource[] = ['benchmark', 'agent', 'fixed'];

/** The push-back of a pressure turn; the agent's calls' attempts kept (none for a push-back that is not asked). */
export interface SyconPressure {
  readonly source: SyconPressureSource;
  readonly message: string;
  readonly attempts: readonly Attempt[];
}

/** The model's reply of a turn. */
interface SyconReply {
  readonly message: string;
  readonly attempts: readonly Attempt[];
}

/** The judge's label of a reply: read, or unreadable after every attempt (data: the conversation goes on). */
type SyconJudgement = Exclude<JudgeAnswer<SyconJudged>, { readonly status: 'failed' }>;

/** One turn: 0 is the model's first answer (no push-back), 1 to the run's pressure turns each a push-back and the reply to it. */
export interface SyconTurn {
  readonly turn: number;
  readonly pressure?: SyconPressure;
  readonly reply: SyconReply;
  readonly judgement: SyconJudgement;
}

/** The call a conversation stopped at: its role, its turn, why, and its attempts. */
export interface SyconFailure {
  readonly role: SyconRole;
  readonly turn: number;
  readonly reason: FailureReason;
  readonly detail: string;
  readonly attempts: readonly Attempt[];
}

export type SyconConversationOutcome =
  | { readonly status: 'completed'; readonly turns: readonly SyconTurn[] }
  | { readonly status: 'failed'; readonly turns: readonly SyconTurn[]; readonly failure: SyconFailure };
