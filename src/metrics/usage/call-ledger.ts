import type { Attempt } from '../../domain/conversation.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { hashString } from '../../domain/random.js';
import type { Role } from '../../domain/roles.js';
import { recordClaimKey } from '../record-claim-key.js';

/** One model call (one attempt) as found in a conversation record. */
export interface CallVisit {
  readonly model: string;
  readonly role: Role;
  readonly turnIndex: number;
  readonly attempt: Attempt;
}

/** What the ledger needs of a record. */
export type CallRecord = Pick<
  ConversationRecord,
  'domain' | 'claim' | 'question' | 'persuader' | 'persuadee' | 'repetition' | 'turns' | 'failedTurn' | 'failedRole' | 'failedAttempts'
>;

/**
 * Visits every call of a stream of records once. The opening and the first argument are shared
 * by several conversations (SPEC 1.4) but were made once: the ledger remembers those (as 53-bit
 * hashes, so memory stays small on huge runs). Later turns are shared only when two conversations
 * are the same requests from turn 3 on (an agent under a variant that leaves its role's prompts
 * alone plays exactly its model's conversations, see docs/design/variants.md): the first request of
 * turn 3 decides all that follow (its seed names both roles' prompts, the claim, the repetition and
 * the length), so the ledger remembers one hash per conversation for it, not one per call.
 * Feed each conversation once.
 */
export class CallLedger {
  private readonly sharedSeen = new Set<number>();
  private readonly continuationsSeen = new Set<number>();

  /** Calls `visit` for each call of `record` that no earlier record already had. */
  visitNewCalls(record: CallRecord, visit: (call: CallVisit) => void): void {
    let claim: string | undefined;
    const isNew = (turnIndex: number, attempt: Attempt): boolean => {
      if (turnIndex > 2) return true;
      claim ??= recordClaimKey(record);
      const identity =
        turnIndex === 1
          ? ['opening', record.persuadee, claim, attempt.seed]
          : ['argument', record.persuader, record.persuadee, claim, record.repetition, attempt.seed];
      // A stored call's request hash is its exact identity; older records fall back to what the call is.
      const key = hashString(attempt.callHash ?? identity.join('\u001f'));
      if (this.sharedSeen.has(key)) return false;
      this.sharedSeen.add(key);
      return true;
    };
    const laterTurnsAreNew = this.isNewContinuation(record);
    const visitTurn = (turnIndex: number, role: Role, attempts: readonly Attempt[]) => {
      if (turnIndex > 2 && !laterTurnsAreNew) return;
      const model = role === 'persuader' ? record.persuader : record.persuadee;
      for (const attempt of attempts) if (isNew(turnIndex, attempt)) visit({ model, role, turnIndex, attempt });
    };
    for (const turn of record.turns) visitTurn(turn.index, turn.role, turn.attempts);
    if (record.failedTurn !== null && record.failedRole !== null) visitTurn(record.failedTurn, record.failedRole, record.failedAttempts);
  }

  /**
   * Whether the record's turns after the first argument were not already visited with another
   * record: keyed by the request hash of turn 3's first attempt. Records without request hashes
   * (older stores, whose seeds named the agents) never share later turns.
   */
  private isNewContinuation(record: CallRecord): boolean {
    const third = record.turns.find((turn) => turn.index === 3)?.attempts ?? (record.failedTurn === 3 ? record.failedAttempts : []);
    const callHash = third[0]?.callHash;
    if (callHash === undefined) return true;
    const key = hashString(callHash);
    if (this.continuationsSeen.has(key)) return false;
    this.continuationsSeen.add(key);
    return true;
  }
}
