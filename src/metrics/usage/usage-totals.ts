import { isPersonAgent } from '../../domain/person-agent.js';
import type { Role } from '../../domain/roles.js';
import { CallLedger, type CallRecord, type CallVisit } from './call-ledger.js';
import { ExactSum } from './exact-sum.js';

/** Calls, tokens and cost of one model in one role. */
export interface UsageTotal {
  readonly model: string;
  readonly role: Role;
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Of the input tokens, those a provider's prompt cache served (0 where none said so). */
  readonly cachedInputTokens: number;
  /** Calls whose provider reported no token counts: the token totals leave them out. */
  readonly callsWithoutUsage: number;
  /** Undefined when no price is configured; otherwise the sum over calls with a known cost. */
  readonly costUsd?: number;
  readonly callsWithoutCost: number;
}

type MutableTotal = { -readonly [K in keyof Omit<UsageTotal, 'costUsd'>]: UsageTotal[K] } & { cost?: ExactSum };

/**
 * Sums calls, tokens and cost per model and role, one call at a time (see `CallLedger`). Costs are
 * summed exactly, so the totals do not depend on the order the calls come in.
 */
export class UsageTally {
  private readonly totals = new Map<string, MutableTotal>();

  /** A call of the agent's; a person's turn (`person/<id>`) is no model call and is not counted. */
  add(call: CallVisit): void {
    if (isPersonAgent(call.model)) return;
    const key = `${call.role}\u0000${call.model}`;
    const total = this.totals.get(key) ?? {
      model: call.model,
      role: call.role,
      calls: 0,
      inputTokens: 0,
      outputTokens: 0,
      cachedInputTokens: 0,
      callsWithoutUsage: 0,
      callsWithoutCost: 0,
    };
    this.totals.set(key, total);
    total.calls += 1;
    const { inputTokens, outputTokens, cachedInputTokens } = call.attempt.usage ?? {};
    if (inputTokens === undefined && outputTokens === undefined) total.callsWithoutUsage += 1;
    total.inputTokens += inputTokens ?? 0;
    total.outputTokens += outputTokens ?? 0;
    total.cachedInputTokens += cachedInputTokens ?? 0;
    if (call.attempt.costUsd === undefined) total.callsWithoutCost += 1;
    else {
      total.cost ??= new ExactSum();
      total.cost.add(call.attempt.costUsd);
    }
  }

  result(): UsageTotal[] {
    return [...this.totals.values()].map(({ cost, ...total }) => (cost === undefined ? total : { ...total, costUsd: cost.value }));
  }
}

/** Totals per model and role over conversation records fed one at a time, each call counted once. */
export class RecordUsageTally {
  private readonly ledger = new CallLedger();
  private readonly tally = new UsageTally();

  add(record: CallRecord): void {
    this.ledger.visitNewCalls(record, (call) => this.tally.add(call));
  }

  result(): UsageTotal[] {
    return this.tally.result();
  }
}

/** Totals per model and role over conversation records, each call counted once. */
export function usageTotals(records: Iterable<CallRecord>): UsageTotal[] {
  const tally = new RecordUsageTally();
  for (const record of records) tally.add(record);
  return tally.result();
}
