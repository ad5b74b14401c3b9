import type { FailureReason } from '../domain/conversation.js';
import type { ConversationRecord } from '../domain/conversation-record.js';
import { ROLES, type Role } from '../domain/roles.js';

/** Appendix B.0.1: how often conversations with a model in a role could be generated. */
export interface SuccessRate {
  readonly model: string;
  readonly role: Role;
  /** Conversations the model took part in, in this role. */
  readonly attempted: number;
  readonly completed: number;
  /** completed / attempted. */
  readonly rate: number;
  /** Failures caused by this model in this role, by reason. */
  readonly reasons: Readonly<Record<FailureReason, number>>;
  /** Failures caused by the other agent (attempted = completed + own failures + these). */
  readonly failedByPartner: number;
}

type Tally = { model: string; role: Role; attempted: number; completed: number; reasons: Record<FailureReason, number>; failedByPartner: number };

/** Counts conversations per model and role, and who failed and why. */
export class SuccessRateTally {
  private readonly tallies = new Map<string, Tally>();

  add(record: Pick<ConversationRecord, 'persuader' | 'persuadee' | 'status' | 'failureReason' | 'failedRole'>): void {
    for (const role of ROLES) {
      const model = role === 'persuader' ? record.persuader : record.persuadee;
      const key = `${role}\u0000${model}`;
      const tally = this.tallies.get(key) ?? {
        model,
        role,
        attempted: 0,
        completed: 0,
        reasons: { format: 0, refusal: 0, api: 0, context: 0 },
        failedByPartner: 0,
      };
      this.tallies.set(key, tally);
      tally.attempted += 1;
      if (record.status === 'completed') tally.completed += 1;
      else if (record.failedRole === role && record.failureReason !== null) tally.reasons[record.failureReason] += 1;
      else tally.failedByPartner += 1;
    }
  }

  result(): SuccessRate[] {
    return [...this.tallies.values()].map((tally) => ({ ...tally, reasons: { ...tally.reasons }, rate: tally.completed / tally.attempted }));
  }
}
