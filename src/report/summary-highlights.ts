import type { ModelResult } from '../metrics/group-tally.js';
import type { ReportDocument } from './report-document.js';
import { type Condition, conditionsOf } from './tables/report-tables.js';
import type { ModelLabel } from './texts/summary-text.js';

/** The leader of a ranking, with what a careful reader needs to judge it. */
export interface Leader {
  readonly result: ModelResult;
  /** The next model in the ranking, if any. */
  readonly runnerUp?: ModelResult;
  /** The leader's interval overlaps the runner-up's: the order of the two is not established. */
  readonly overlaps: boolean;
}

/**
 * What a summary may say of one role in one condition. A leader is named only among two or more
 * models with data, and `withoutData` names the models it was not chosen among; with a single model
 * with data there is no leader, only that model (`only`).
 */
export interface RoleHighlights {
  readonly highest?: Leader;
  readonly lowest?: Leader;
  /** The one model with data, when there is exactly one: it is not "most" anything. */
  readonly only?: ModelResult;
  /** Models of the role with no value here, each with its `reason`. */
  readonly withoutData: readonly ModelResult[];
}

/** What the top of the report says about one condition. */
export interface ConditionHighlights {
  readonly condition: Condition;
  readonly conversations: number;
  readonly completed: number;
  readonly claims: number;
  /** As persuaders: `highest` is the most effective. */
  readonly persuaders: RoleHighlights;
  /** As persuadees: `highest` is the most susceptible, `lowest` the most resistant. */
  readonly persuadees: RoleHighlights;
}

function leaderOf(ranked: readonly ModelResult[]): Leader | undefined {
  const [result, runnerUp] = ranked;
  if (!result || !runnerUp) return undefined;
  const overlaps = result.ciLow <= runnerUp.ciHigh && runnerUp.ciLow <= result.ciHigh;
  return { result, runnerUp, overlaps: overlaps || !Number.isFinite(result.ciLow) || !Number.isFinite(runnerUp.ciLow) };
}

/** One role's leaders among the models with data, and the models without. */
export function roleHighlights(results: readonly ModelResult[]): RoleHighlights {
  const withData = results.filter((result) => Number.isFinite(result.value));
  const withoutData = results.filter((result) => !Number.isFinite(result.value)).sort((a, b) => a.model.localeCompare(b.model));
  const byName = (a: ModelResult, b: ModelResult) => a.model.localeCompare(b.model);
  const highest = leaderOf([...withData].sort((a, b) => b.value - a.value || byName(a, b)));
  const lowest = leaderOf([...withData].sort((a, b) => a.value - b.value || byName(a, b)));
  return {
    ...(highest ? { highest } : {}),
    ...(lowest ? { lowest } : {}),
    ...(withData.length === 1 ? { only: withData[0]! } : {}),
    withoutData,
  };
}

/** Per condition: who persuades best, who is persuaded most and least, with intervals, and who has no data. */
export function summaryHighlights(document: ReportDocument): ConditionHighlights[] {
  return conditionsOf(document).map((condition) => {
    const inCondition = (result: ModelResult) => result.domain === condition.domain && result.setting === condition.setting;
    const group = document.groups.find((entry) => entry.domain === condition.domain && entry.setting === condition.setting)!;
    return {
      condition,
      conversations: group.conversations,
      completed: group.completed,
      claims: group.claims,
      persuaders: roleHighlights(document.effectiveness.filter(inCondition)),
      persuadees: roleHighlights(document.susceptibility.filter(inCondition)),
    };
  });
}

/** What a leader is named among when some model of its role has no data. */
export const AMONG_MODELS_WITH_DATA = 'among the models with data';

/** The heading of a leader: "Most effective persuader", and "... among the models with data" when a model of the role has none. */
export function leaderTitle(title: string, role: RoleHighlights): string {
  return role.withoutData.length > 0 ? `${title} ${AMONG_MODELS_WITH_DATA}` : title;
}

/** The heading of a role's one model with data, which is not "most" anything: "Only persuader with data". */
export function onlyTitle(noun: 'persuader' | 'persuadee'): string {
  return `Only ${noun} with data`;
}

/** "no data: chatty (9 of 9 failed: format), beta (no conversation ran)": the models a summary leaves out, and why. */
export function withoutDataText(role: RoleHighlights, labelOf: ModelLabel): string {
  return `no data: ${role.withoutData.map((result) => `${labelOf(result.model)} (${result.reason ?? 'no value'})`).join(', ')}`;
}
