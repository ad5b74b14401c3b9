import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import type { ParticipantOutcome, ParticipantRow, PeopleRecords, PeopleResults } from '../../studies/people/people-results.js';

const score = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]);
const participantRow = z.object({
  id: z.string(),
  role: z.enum(['persuadee', 'persuader']),
  token_hash: z.string(),
  claim_index: z.number().int(),
  invite_order: z.number().int(),
  status: z.enum(['invited', 'consented', 'conversing', 'finished', 'withdrawn']),
  conversation_id: z.string().nullable(),
  invited_at: z.string(),
  consented_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  ended_because: z.string().nullable(),
  follow_up_score: score.nullable(),
  follow_up_at: z.string().nullable(),
});

function toRow(value: unknown): ParticipantRow {
  const row = participantRow.parse(value);
  return {
    id: row.id,
    role: row.role,
    status: row.status,
    conversationId: row.conversation_id,
    followUp: row.follow_up_score === null || row.follow_up_at === null ? null : { score: row.follow_up_score, at: row.follow_up_at },
    tokenHash: row.token_hash,
    claimIndex: row.claim_index,
    order: row.invite_order,
    invitedAt: row.invited_at,
    consentedAt: row.consented_at,
    finishedAt: row.finished_at,
    endedBecause: row.ended_because,
  };
}

/** The `participants` table (issue 31): a people study's participants, their path and follow-up (`store.people`). */
export class PeopleTable implements PeopleRecords, PeopleResults {
  constructor(private readonly database: Database) {}

  participants(runId: number): ParticipantOutcome[] {
    return this.participantRows(runId).map(({ id, role, status, conversationId, followUp }) => ({ id, role, status, conversationId, followUp }));
  }

  participantRows(runId: number): ParticipantRow[] {
    return this.database.prepare('SELECT * FROM participants WHERE run_id = ? ORDER BY invite_order').all(runId).map(toRow);
  }

  invite(runId: number, row: ParticipantRow): void {
    this.database
      .prepare(
        `INSERT INTO participants (run_id, id, role, token_hash, claim_index, invite_order, status, conversation_id, invited_at, consented_at, finished_at, ended_because)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        runId,
        row.id,
        row.role,
        row.tokenHash,
        row.claimIndex,
        row.order,
        row.status,
        row.conversationId,
        row.invitedAt,
        row.consentedAt,
        row.finishedAt,
        row.endedBecause,
      );
  }

  update(
    runId: number,
    participantId: string,
    change: { status: string; conversationId?: string; consentedAt?: string; finishedAt?: string; endedBecause?: string },
  ): void {
    this.database
      .prepare(
        `UPDATE participants SET status = ?, conversation_id = coalesce(?, conversation_id), consented_at = coalesce(?, consented_at),
           finished_at = coalesce(?, finished_at), ended_because = coalesce(?, ended_because) WHERE run_id = ? AND id = ?`,
      )
      .run(
        change.status,
        change.conversationId ?? null,
        change.consentedAt ?? null,
        change.finishedAt ?? null,
        change.endedBecause ?? null,
        runId,
        participantId,
      );
  }

  recordFollowUp(runId: number, participantId: string, followUp: { score: number; at: string }): void {
    this.database
      .prepare('UPDATE participants SET follow_up_score = ?, follow_up_at = ? WHERE run_id = ? AND id = ? AND follow_up_score IS NULL')
      .run(followUp.score, followUp.at, runId, participantId);
  }
}
