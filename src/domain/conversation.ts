import type { AgreementScore } from './agreement-score.js';
import type { Claim } from './claim.js';
import type { Role } from './roles.js';

/** Single-turn is t = 3; multi-turn is any longer odd t (the paper's is 9). */
export type Setting = 'single' | 'multi';
export const SETTINGS: readonly Setting[] = ['single', 'multi'];

export const SINGLE_TURN_TURNS = 3;
export const MULTI_TURN_TURNS = 9;

export function settingOfTurns(turns: number): Setting {
  return turns === SINGLE_TURN_TURNS ? 'single' : 'multi';
}

/** Why a conversation could not be completed (SPEC 1.2). */
export type FailureReason = 'format' | 'refusal' | 'api' | 'context';

/**
 * Why a conversation gave no score: the reason it failed for, `unscored` (completed without a
 * score, as some imported records are) or `unknown` (a failed record that names no reason).
 */
export type NoScoreCause = FailureReason | 'unscored' | 'unknown';

/** Every cause, in the order a store's counts list them. */
export const NO_SCORE_CAUSES: readonly NoScoreCause[] = ['format', 'refusal', 'api', 'context', 'unknown', 'unscored'];

/** How a provider said a reply ended. */
export type FinishReason = 'stop' | 'length' | 'content-filter' | 'error' | 'other';

/** Tokens of one call; providers may omit either count. */
export interface Usage {
  /** Every input token of the call, those read from or written to a prompt cache included. */
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  /** Of the input tokens, those the provider read from its prompt cache (priced at `cachedInputUsdPerMillion`). */
  readonly cachedInputTokens?: number;
  /** Of the input tokens, those the provider wrote to its prompt cache (Anthropic; priced at `cacheWriteUsdPerMillion`). */
  readonly cacheWriteTokens?: number;
}

/** One call made for a turn. A turn has one attempt per sample, the accepted one last. */
export interface Attempt {
  readonly number: number;
  /** The call's seed; null on an imported turn, whose file keeps no seed. */
  readonly seed: number | null;
  /** The reply text exactly as the model wrote it ('' when the call itself failed). */
  readonly raw: string;
  readonly outcome: 'accepted' | FailureReason;
  /** Why the attempt was not accepted. */
  readonly detail?: string;
  readonly finishReason?: FinishReason;
  readonly usage?: Usage;
  /** From the configured prices, when they and the token counts are known. */
  readonly costUsd?: number;
  /**
   * The stored call behind this attempt (its request hash). Whether this run made the call or
   * replayed it is an execution detail kept in the store's calls table, not in the conversation:
   * a resumed run equals an uninterrupted one.
   */
  readonly callHash?: string;
}

export type TurnKind = 'opening' | 'argument' | 'reply' | 'final';

/**
 * One accepted turn. `score` is the persuadee's agreement, or, on a persuader turn, the
 * persuader's own rating (never shown to the persuadee, and never the other way round).
 */
export interface Turn {
  /** 1-based position in the conversation. After an early stop the final decision follows directly. */
  readonly index: number;
  readonly role: Role;
  readonly kind: TurnKind;
  readonly message: string;
  readonly score: AgreementScore;
  readonly raw: string;
  readonly attempts: readonly Attempt[];
}

/** Everything that identifies one conversation; its calls' seeds derive from it. */
export interface ConversationSpec {
  readonly claim: Claim;
  readonly persuaderModel: string;
  readonly persuadeeModel: string;
  /** Planned number of turns t: odd, at least 3. */
  readonly turns: number;
  /** 0-based repetition of the same (persuader, persuadee, claim, t). */
  readonly repetition: number;
  readonly runSeed: number;
}

export interface CompletedConversation {
  readonly status: 'completed';
  readonly turns: readonly Turn[];
  readonly initialScore: AgreementScore;
  readonly finalScore: AgreementScore;
  readonly earlyStopped: boolean;
  readonly normalizedChange: number;
  readonly absoluteChange: number;
}

export interface FailedConversation {
  readonly status: 'failed';
  /** The turns accepted before the failure. */
  readonly turns: readonly Turn[];
  readonly reason: FailureReason;
  readonly detail: string;
  readonly failedTurn: number;
  readonly failedRole: Role;
  /** Every attempt of the turn that failed. */
  readonly failedAttempts: readonly Attempt[];
}

/** A conversation stopped on purpose after a prefix, to be continued by others (SPEC 1.4). */
export interface PartialConversation {
  readonly status: 'partial';
  readonly turns: readonly Turn[];
}

export type ConversationOutcome = CompletedConversation | FailedConversation | PartialConversation;
