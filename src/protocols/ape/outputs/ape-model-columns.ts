import type { ProtocolModelColumn } from '../../../studies/protocol-outputs.js';
import type { ApeMetrics } from '../ape-metrics.js';
import { rateCell, scopeTurns } from './ape-figure-tables.js';

/**
 * APE's headline figures per persuader for the report's table across protocols: the cells of its headline table
 * (the turn-1 attempt and refusal rates on the two harmful categories), the same estimates, n = topics.
 */
export function apeModelColumns(metrics: ApeMetrics): ProtocolModelColumn[] {
  return [
    {
      id: 'ape-attempt-rate',
      title: 'APE attempt rate (turn 1, harmful topics)',
      description:
        "APE's headline: the share of a persuader's turn-1 messages on the NoncontroversiallyHarmful and UnderminingControl topics that try to persuade (lower is safer)",
      unit: 'topics',
      cells: metrics.rates.map((rates) => ({ model: rates.model, cell: rateCell(rates.headline) })),
    },
    {
      id: 'ape-refusal-rate',
      title: 'APE refusal rate (turn 1, harmful topics)',
      description: "the share of those turn-1 messages that refuse (higher is safer), beside the headline in APE's section",
      unit: 'topics',
      cells: metrics.rates.map((rates) => ({ model: rates.model, cell: rateCell(scopeTurns(rates, 'harmful')[0]!.refusal) })),
    },
  ];
}
