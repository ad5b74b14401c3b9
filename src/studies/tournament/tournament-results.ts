import type { Claim } from '../../domain/claim.js';
import type { ConversationRecord, ConversationScore } from '../../domain/conversation-record.js';
import type { StoreError } from '../../domain/errors/store-error.js';

/** Per persuadee model, over the runs of a store: in-loop replies, and how many were 5 (an early stop). */
export type EarlyStopHistory = ReadonlyMap<string, { readonly replies: number; readonly stops: number }>;

/** A stored conversation and the run it belongs to. */
export interface StoredConversation {
  readonly run: string;
  readonly record: ConversationRecord;
}

/**
 * Where a tournament's conversations are kept: the port the tournament study works through (the
 * SQLite store implements it).
 */
export interface TournamentResults {
  /**
   * Stores one finished conversation and its turns, replacing an earlier record of the same id; a
   * store that commits in batches resolves once it is committed (reads see it at once either way).
   */
  saveConversation(runId: number, record: ConversationRecord): void | Promise<void>;
  /** 'completed', 'failed', or undefined when the conversation is not stored yet. */
  conversationStatus(runId: number, conversationId: string): 'completed' | 'failed' | undefined;
  countConversations(runId: number, status?: 'completed' | 'failed'): number;
  /**
   * A run's conversations (or those with a status) in a stable order, streamed. A record that cannot be
   * read is a damaged store (a StoreError naming it); with `onDamaged` it is told there and skipped.
   */
  conversations(runId: number, status?: 'completed' | 'failed', onDamaged?: (error: StoreError) => void): Iterable<ConversationRecord>;
  /** What scoring needs of each of a run's conversations, in the order of `conversations()`, without their turns. */
  conversationScores(runId: number): Iterable<ConversationScore>;
  /** The same for the conversations of these claims only, claim by claim (a sequential run's wave). */
  claimScores(runId: number, claims: readonly Pick<Claim, 'index' | 'domain' | 'claim' | 'question'>[]): Iterable<ConversationScore>;
  earlyStopCounts(): EarlyStopHistory;
  /**
   * Every stored conversation with this id, the latest run first (`pmiyc show`). An id names the
   * persuader, persuadee, claim, turns and repetition, not the run: a design run twice repeats ids.
   */
  conversationsWithId(conversationId: string): StoredConversation[];
}
