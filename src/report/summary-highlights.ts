import type { ModelResult } from '../metrics/group-tally.js';
import type { ReportDocument } from './report-document.js';
import { type Condition, conditionsOf } from './report-tables.js';

/** The leader of a ranking, with what a careful reader needs to judge it. */
export interface Leader {
  readonly result: ModelResult;
  /** The next model in the ranking, if any. */
  readonly runnerUp?: ModelResult;
  /** The leader's interval overlaps the runner-up's: the order of the two is not established. */
  readonly overlaps: boolean;
}

/** What the top of the report says about one condition. */
export interface ConditionHighlights {
  readonly condition: Condition;
  readonly conversations: number;
  readonly completed: number;
  readonly claims: number;
  readonly bestPersuader?: Leader;
  readonly mostSusceptible?: Leader;
  readonly mostResistant?: Leader;
}

function leaderOf(results: readonly ModelResult[], direction: 'highest' | 'lowest'): Leader | undefined {
  const ranked = results
    .filter((result) => Number.isFinite(result.value))
    .sort((a, b) => (direction === 'highest' ? b.value - a.value : a.value - b.value) || a.model.localeCompare(b.model));
  const [result, runnerUp] = ranked;
  if (!result) return undefined;
  if (!runnerUp) return { result, overlaps: false };
  const overlaps = result.ciLow <= runnerUp.ciHigh && runnerUp.ciLow <= result.ciHigh;
  return { result, runnerUp, overlaps: overlaps || !Number.isFinite(result.ciLow) || !Number.isFinite(runnerUp.ciLow) };
}

/** Per condition: who persuades best, who is persuaded most and least, with intervals. */
export function summaryHighlights(document: ReportDocument): ConditionHighlights[] {
  return conditionsOf(document).map((condition) => {
    const inCondition = (result: ModelResult) => result.domain === condition.domain && result.setting === condition.setting;
    const group = document.groups.find((entry) => entry.domain === condition.domain && entry.setting === condition.setting)!;
    const susceptibility = document.susceptibility.filter(inCondition);
    const highlights: ConditionHighlights = {
      condition,
      conversations: group.conversations,
      completed: group.completed,
      claims: group.claims,
    };
    const best = leaderOf(document.effectiveness.filter(inCondition), 'highest');
    const most = leaderOf(susceptibility, 'highest');
    const least = leaderOf(susceptibility, 'lowest');
    return { ...highlights, ...(best ? { bestPersuader: best } : {}), ...(most ? { mostSusceptible: most } : {}), ...(least ? { mostResistant: least } : {}) };
  });
}
