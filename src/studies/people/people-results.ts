import type { AgreementScore } from '../../domain/agreement-score.js';

/** The side of the protocol a person plays in a people study. */
export type PersonRole = 'persuadee' | 'persuader';

/**
 * Where a participant of a people study is on their path (issue 31, docs/design/people.md):
 * `invited` (a link exists, not opened or not agreed to), `consented`, `conversing` (their
 * conversation has begun), `finished` (the conversation is stored as completed), `withdrawn` (they
 * left, or their time ran out, before it finished: a dropout).
 */
export type ParticipantStatus = 'invited' | 'consented' | 'conversing' | 'finished' | 'withdrawn';

/**
 * One participant of a people study as the report reads it. The participant is the agent
 * `person/<id>` of the run's conversations; `id` is pseudonymous (never a name, an address or the
 * link's token).
 */
export interface ParticipantOutcome {
  readonly id: string;
  readonly role: PersonRole;
  readonly status: ParticipantStatus;
  /** Their conversation's id in the run (null before it was assigned). */
  readonly conversationId: string | null;
  /** The agreement given on the follow-up visit after the study's delay, and when (null: none given). */
  readonly followUp: { readonly score: AgreementScore; readonly at: string } | null;
}

/** What the store keeps of a people study's participants, beyond their conversations (the SQLite store implements it). */
export interface PeopleResults {
  /** A run's participants, in the order they were invited; empty for a run without people. */
  participants(runId: number): ParticipantOutcome[];
}

/** A participant as the study server keeps them: their outcome, their link's hash, their claim and times. */
export interface ParticipantRow extends ParticipantOutcome {
  /** The SHA-256 of their link's token (hex): the token itself is never stored. */
  readonly tokenHash: string;
  /** The position of their claim in the study's claims. */
  readonly claimIndex: number;
  /** From 0, in the order they were invited (the design assigns claims by it). */
  readonly order: number;
  readonly invitedAt: string;
  readonly consentedAt: string | null;
  readonly finishedAt: string | null;
  /** Why a withdrawn participant's path ended: `left`, `time limit`, `model failed`. */
  readonly endedBecause: string | null;
}

/** What the study server writes of its participants, besides their conversations (calls and records). */
export interface PeopleRecords extends PeopleResults {
  /** Every participant of the run as stored (link hashes included), in the order they were invited. */
  participantRows(runId: number): ParticipantRow[];
  invite(runId: number, row: ParticipantRow): void;
  /** Moves a participant along their path; fields not given stay as they are. */
  update(
    runId: number,
    participantId: string,
    change: {
      readonly status: ParticipantStatus;
      readonly conversationId?: string;
      readonly consentedAt?: string;
      readonly finishedAt?: string;
      readonly endedBecause?: string;
    },
  ): void;
  recordFollowUp(runId: number, participantId: string, followUp: NonNullable<ParticipantOutcome['followUp']>): void;
}
