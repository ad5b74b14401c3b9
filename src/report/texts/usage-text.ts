import { formatCount } from '../../domain/text-labels.js';
import type { UsageTotal } from '../../metrics/usage/usage-totals.js';
import { formatTextTable } from './text-table.js';

function tokens(total: UsageTotal, count: number): string {
  if (total.callsWithoutUsage === total.calls) return 'not reported';
  const partial = total.callsWithoutUsage > 0 ? ` (${total.callsWithoutUsage} calls unreported)` : '';
  return `${formatCount(count)}${partial}`;
}

function cost(total: UsageTotal): string {
  if (total.costUsd === undefined) return total.callsWithoutCost === total.calls ? 'no price set' : 'unknown';
  const partial = total.callsWithoutCost > 0 ? ` + ${total.callsWithoutCost} calls unknown` : '';
  return `$${total.costUsd.toFixed(4)}${partial}`;
}

/** Calls, tokens and cost per model and role, as a text table. */
export function formatUsageText(totals: readonly UsageTotal[], labelOf: (model: string) => string): string {
  const rows = [...totals]
    .sort((a, b) => a.model.localeCompare(b.model) || a.role.localeCompare(b.role))
    .map((total) => [
      labelOf(total.model),
      total.role,
      String(total.calls),
      `${tokens(total, total.inputTokens)}${total.cachedInputTokens > 0 ? `; ${formatCount(total.cachedInputTokens)} cached` : ''}`,
      tokens(total, total.outputTokens),
      cost(total),
    ]);
  return formatTextTable(['model', 'role', 'calls', 'input tokens', 'output tokens', 'cost'], rows);
}
