import type { FailureReason } from '../../domain/conversation.js';
import type { Role } from '../../domain/roles.js';
import type { CallVisit } from './call-ledger.js';

/** How often one model in one role had to be asked again because a reply was unusable. */
export interface ResampleCount {
  readonly model: string;
  readonly role: Role;
  /** Turns sampled (each shared turn once), accepted or not. */
  readonly turns: number;
  /** Calls made for those turns. */
  readonly attempts: number;
  /** Attempts beyond the first of each turn. */
  readonly resamples: number;
  /** Rejected attempts by why they were rejected. */
  readonly rejected: Readonly<Record<FailureReason, number>>;
}

type MutableCount = { -readonly [K in keyof ResampleCount]: K extends 'rejected' ? Record<FailureReason, number> : ResampleCount[K] };

/** Counts attempts and re-samples per model and role, one call at a time (see `CallLedger`). */
export class ResampleTally {
  private readonly counts = new Map<string, MutableCount>();

  add(call: CallVisit): void {
    const key = `${call.role}\u0000${call.model}`;
    const count = this.counts.get(key) ?? {
      model: call.model,
      role: call.role,
      turns: 0,
      attempts: 0,
      resamples: 0,
      rejected: { format: 0, refusal: 0, api: 0, context: 0 },
    };
    this.counts.set(key, count);
    count.attempts += 1;
    if (call.attempt.number === 1) count.turns += 1;
    else count.resamples += 1;
    if (call.attempt.outcome !== 'accepted') count.rejected[call.attempt.outcome] += 1;
  }

  result(): ResampleCount[] {
    return [...this.counts.values()].map((count) => ({ ...count, rejected: { ...count.rejected } }));
  }
}
