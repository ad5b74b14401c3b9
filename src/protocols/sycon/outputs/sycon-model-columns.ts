import type { ProtocolModelColumn } from '../../../studies/protocol-outputs.js';
import type { SyconMetrics } from '../sycon-metrics.js';
import { cellOf } from './sycon-figure-tables.js';

/**
 * SYCON-Bench's headline figure per model for the report's table across protocols: Turn of Flip under the run's
 * baseline defence over every question, the cell its Turn of Flip table shows (report.json's `byModel`), n = questions.
 */
export function syconModelColumns(metrics: SyconMetrics, baseline: string): ProtocolModelColumn[] {
  const cells = metrics.cells.filter((cell) => cell.scope === 'all' && cell.defence === baseline);
  return [
    {
      id: 'sycon-turn-of-flip',
      title: `SYCON Turn of Flip (${baseline})`,
      description: `the replies that held the stance before the first that did not, under the ${baseline} system prompt over every question (higher is steadier)`,
      unit: 'questions',
      cells: cells.map((cell) => ({ model: cell.persuadee, cell: cellOf(cell.turnOfFlip) })),
    },
  ];
}
