import type { Domain } from '../../domain/claim.js';
import type { FailureReason, NoScoreCause, Setting } from '../../domain/conversation.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import type { Role } from '../../domain/roles.js';
import type { SearchQuery, Snippet } from '../../domain/search-words.js';
import type { NoteFilter } from '../notes/research-notes.js';

/** The orders a conversation list can take: by pair (the default), by claim, by NC up or down. */
export const CONVERSATION_SORTS = ['pair', 'claim', 'nc', '-nc'] as const;
export type ConversationSort = (typeof CONVERSATION_SORTS)[number];

/** The most conversations one page may hold. */
export const MAX_PAGE_SIZE = 500;

/** What a conversation list is filtered by; an absent field does not filter. */
export interface ConversationFilter {
  readonly persuader?: string;
  readonly persuadee?: string;
  readonly setting?: Setting;
  readonly domain?: Domain;
  readonly claimIndex?: number;
  readonly status?: 'completed' | 'failed';
  readonly failureReason?: FailureReason;
  readonly earlyStopped?: boolean;
  /** Inclusive NC bounds; a failed conversation (no NC) never matches a bound. */
  readonly ncMin?: number;
  readonly ncMax?: number;
  /** Words in a message or in the claim with its question (`field` says which), through the store's full-text index (issue 32). */
  readonly search?: SearchQuery;
  /** Conversations with at least one turn that an analysis study's judge gave each of these tags (issue 29). */
  readonly labels?: LabelFilter;
  /** Conversations with research notes of this tag, this grade, or any (issue 32); each given field on some note. */
  readonly notes?: NoteFilter;
}

/**
 * Tags of an analysis study's labels (`technique:ID`, `unethical:ID`, `refused`, `left-role`, as
 * domain/turn-labels.ts `turnLabelTags` makes them), as one judge gave them: a conversation matches
 * when each tag is on one of its turns (not necessarily the same turn).
 */
export interface LabelFilter {
  /** The analysis study's run id. */
  readonly study: number;
  readonly judge: string;
  readonly tags: readonly string[];
}

/** One persuader's labelled turns in one condition, and how many of them use each technique (one judge's labels). */
export interface TechniqueCounts {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly persuader: string;
  /** Its persuader turns of completed conversations that the judge labelled. */
  readonly turns: number;
  /** Technique ids (those used at least once), each with the turns using it. */
  readonly techniques: ReadonlyArray<{ readonly id: string; readonly usedTurns: number }>;
}

export interface ConversationQuery extends ConversationFilter {
  readonly sort: ConversationSort;
  /** 1..MAX_PAGE_SIZE. */
  readonly limit: number;
  readonly offset: number;
}

/** A conversation in a list: the export record without its turns. */
export type ConversationSummary = Omit<ConversationRecord, 'turns'>;

export interface ConversationPage {
  /** How many conversations match the filter, over all pages; with `totalIsLowerBound`, at least that many (a search stopped counting). */
  readonly total: number;
  /** A search of many matches stops counting (`SEARCH_LIMITS` in the store): more than `total` may match. Absent when `total` is exact. */
  readonly totalIsLowerBound?: true;
  readonly items: ConversationSummary[];
  /** With a search: where each item (same order) matched. */
  readonly hits?: SearchHit[];
  /** With a search: conversations stored before the store had its search index, whose messages `pmiyc upgrade` has not indexed yet (absent when none). */
  readonly unindexed?: number;
  /**
   * Conversations of this page whose records do not decode (a damaged store): left out of `items`, each
   * with what is wrong, so that the page shows the others. Absent when none.
   */
  readonly damaged?: DamagedConversation[];
}

/** A conversation of a page whose stored record cannot be read. */
export interface DamagedConversation {
  readonly conversationId: string;
  /** The damaged store's message, naming the run and the conversation and what to do. */
  readonly problem: string;
}

/**
 * Where a search found a conversation: its first matching turn (the turns are 1-based, as the record's)
 * with a piece of that message around the words, or its claim or question when no message of the
 * searched roles has them. The snippet's marks are offsets, for the page to mark as text.
 */
export interface SearchHit {
  readonly conversationId: string;
  readonly in: 'message' | 'claim' | 'question';
  /** The first matching turn; null for a claim or question. */
  readonly turn: number | null;
  readonly role: Role | null;
  /** Every turn whose message matches, in order. */
  readonly turns: readonly number[];
  readonly snippet: Snippet;
}

/** One cell of a run's matrix: an ordered pair in one condition. */
export interface PairCell {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly persuader: string;
  readonly persuadee: string;
  readonly completed: number;
  readonly failed: number;
  readonly earlyStopped: number;
  /** Mean NC over the completed conversations (SPEC 1.5); null when none completed. */
  readonly meanNc: number | null;
  /** The conversations without an NC, by cause (failure reasons; `unscored`: completed without one); causes with none are absent. */
  readonly unscoredBy: Readonly<Partial<Record<NoScoreCause, number>>>;
}

/** One claim in one condition, over every pair. */
export interface ClaimCell {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly claimIndex: number;
  readonly claim: string;
  readonly question: string | null;
  readonly completed: number;
  readonly failed: number;
  readonly meanNc: number | null;
}

/** One ordered pair on one claim in one condition: what comparisons on the shared design are computed from. */
export interface PairClaimTotal {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly persuader: string;
  readonly persuadee: string;
  /** The claim by its content (`claimKey` of domain/claim.ts): the same in every run that argued it, whatever its index. */
  readonly claimKey: string;
  /** Completed conversations with an NC, and the sum of their NC. */
  readonly completed: number;
  readonly ncSum: number;
}

/** A stored call behind one attempt: which run made it, what it took, and who else used it. */
export interface CallDetail {
  readonly callHash: string;
  readonly model: string;
  /** The run whose call this is; another run's name when this run replayed it. */
  readonly madeByRun: string;
  readonly latencyMs: number;
  readonly retries: number;
  readonly createdAt: string;
  /** Other conversations of the same run whose turns used this very call (SPEC 1.3 sharing). */
  readonly sharedWith: ReadonlyArray<{ readonly conversationId: string; readonly turnIndex: number }>;
}

/**
 * Reading a tournament run a piece at a time, as `pmiyc view` does: filtered, sorted pages of
 * conversations and per-pair and per-claim aggregates, all computed by the store (never the whole
 * run in memory), and the stored calls behind a conversation's turns.
 */
export interface TournamentBrowse {
  queryConversations(runId: number, query: ConversationQuery): ConversationPage;
  pairCells(runId: number): PairCell[];
  claimCells(runId: number): ClaimCell[];
  /** Per condition, ordered pair and claim, the completed conversations' NC, streamed (claims x pairs rows). */
  pairClaimTotals(runId: number): Iterable<PairClaimTotal>;
  /** Every conversation of a run in a list's order (`pair` or `claim`), streamed: a record at a time (a static bundle writes them). */
  conversationsInOrder(runId: number, sort: 'pair' | 'claim'): Iterable<ConversationRecord>;
  /** The models (agents) of a run's conversations, as persuader or persuadee. */
  modelsOf(runId: number): string[];
  /** The reasons a run's failed conversations failed for, for a filter's choices. */
  failureReasons(runId: number): FailureReason[];
  callDetails(runId: number, record: ConversationRecord): CallDetail[];
  /** Per condition and persuader, one judge's labelled persuader turns of the run's completed conversations and the techniques they use. */
  techniqueCounts(runId: number, studyRunId: number, judge: string): TechniqueCounts[];
  /** The distinct tags a judge of an analysis study gave any turn, sorted. */
  labelTags(studyRunId: number, judge: string): string[];
  /** A number that changes whenever any analysis study stores labels: what label aggregates are kept until. */
  labelsVersion(): number;
}
