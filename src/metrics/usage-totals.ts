import { claimKey } from '../domain/claim.js';
import type { ConversationRecord } from '../domain/conversation-record.js';
import type { Attempt } from '../domain/conversation.js';
import type { Role } from '../domain/roles.js';

/** Calls, tokens and cost of one model in one role. */
export interface UsageTotal {
  readonly model: string;
  readonly role: Role;
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Calls whose provider reported no token counts: the token totals leave them out. */
  readonly callsWithoutUsage: number;
  /** Undefined when no price is configured; otherwise the sum over calls with a known cost. */
  readonly costUsd?: number;
  readonly callsWithoutCost: number;
}

type UsageRecord = Pick<ConversationRecord, 'conversationId' | 'domain' | 'claim' | 'question' | 'persuader' | 'persuadee' | 'repetition' | 'turns' | 'failedTurn' | 'failedRole' | 'failedAttempts'>;

/**
 * A call's identity across records: the opening and the first argument are shared by several
 * conversations (SPEC 1.4) but were made once, so they are counted once.
 */
function callKey(record: UsageRecord, turnIndex: number, attempt: Attempt): string {
  const claim = claimKey({ domain: record.domain, claim: record.claim, ...(record.question === null ? {} : { question: record.question }) });
  if (turnIndex === 1) return ['opening', record.persuadee, claim, attempt.seed].join('\u001f');
  if (turnIndex === 2) return ['argument', record.persuader, record.persuadee, claim, record.repetition, attempt.seed].join('\u001f');
  return [record.conversationId, turnIndex, attempt.seed].join('\u001f');
}

/** Totals per model and role over conversation records, each call counted once. */
export function usageTotals(records: Iterable<UsageRecord>): UsageTotal[] {
  const seen = new Set<string>();
  const totals = new Map<string, { -readonly [K in keyof UsageTotal]: UsageTotal[K] }>();
  const add = (record: UsageRecord, turnIndex: number, role: Role, attempt: Attempt) => {
    const key = callKey(record, turnIndex, attempt);
    if (seen.has(key)) return;
    seen.add(key);
    const model = role === 'persuader' ? record.persuader : record.persuadee;
    const totalKey = `${role}\u0000${model}`;
    const total = totals.get(totalKey) ?? { model, role, calls: 0, inputTokens: 0, outputTokens: 0, callsWithoutUsage: 0, callsWithoutCost: 0 };
    totals.set(totalKey, total);
    total.calls += 1;
    const { inputTokens, outputTokens } = attempt.usage ?? {};
    if (inputTokens === undefined && outputTokens === undefined) total.callsWithoutUsage += 1;
    total.inputTokens += inputTokens ?? 0;
    total.outputTokens += outputTokens ?? 0;
    if (attempt.costUsd === undefined) total.callsWithoutCost += 1;
    else total.costUsd = (total.costUsd ?? 0) + attempt.costUsd;
  };
  for (const record of records) {
    for (const turn of record.turns) for (const attempt of turn.attempts) add(record, turn.index, turn.role, attempt);
    if (record.failedTurn !== null && record.failedRole !== null) {
      for (const attempt of record.failedAttempts) add(record, record.failedTurn, record.failedRole, attempt);
    }
  }
  return [...totals.values()];
}
