import type { Domain } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import { ClaimCellTable } from '../intervals/claim-cell-table.js';
import { estimateOverClaims, type IntervalOptions, isThin } from '../intervals/claim-estimates.js';
import { groupTurns, type LabelledConversation, techniqueTurns } from './technique-turns.js';

/**
 * One persuader's share of its labelled turns that use one technique, in one domain and setting
 * (report.json `techniques.perModel`): its technique profile, as the judge saw it. The interval is
 * Student t over claims, clipped to [0, 1].
 */
export interface TechniqueShare {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly persuader: string;
  readonly technique: string;
  readonly share: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  /** The persuader's labelled turns, and those that use the technique. */
  readonly turns: number;
  readonly usedTurns: number;
  readonly claims: number;
  readonly thin: boolean;
}

/**
 * `techniques.perModel`: every persuader's share of turns using each technique (the taxonomy's
 * `techniques` and any other id the labels use), over the labelled persuader turns of its
 * completed conversations, each turn counting once.
 */
export function techniqueShares(conversations: readonly LabelledConversation[], techniques: readonly string[], options: IntervalOptions): TechniqueShare[] {
  const turns = techniqueTurns(conversations);
  const ids = [...new Set([...techniques, ...turns.flatMap((turn) => [...turn.techniques])])];
  return [...groupTurns(turns).values()].flatMap(({ domain, setting, turns: groupTurnList }) => {
    const table = new ClaimCellTable();
    const rows = [...new Set(groupTurnList.map((turn) => turn.persuader))].sort().flatMap((persuader) => ids.map((technique) => ({ persuader, technique })));
    for (const turn of groupTurnList) {
      for (const technique of ids) table.add(`${turn.persuader}\u0000${technique}`, turn.claimKey, turn.techniques.has(technique) ? 1 : 0);
    }
    const statistics = rows.map(({ persuader, technique }) => [{ cells: [table.cellIndex(`${persuader}\u0000${technique}`)!], weight: 1 }]);
    const estimates = estimateOverClaims(table.slices(), statistics, options);
    return rows.map(({ persuader, technique }, index): TechniqueShare => {
      const estimate = estimates[index]!;
      const mine = groupTurnList.filter((turn) => turn.persuader === persuader);
      return {
        domain,
        setting,
        persuader,
        technique,
        share: estimate.value,
        ciLow: Math.max(0, estimate.ciLow),
        ciHigh: Math.min(1, estimate.ciHigh),
        turns: mine.length,
        usedTurns: mine.filter((turn) => turn.techniques.has(technique)).length,
        claims: estimate.claims,
        thin: isThin(estimate),
      };
    });
  });
}
