import type { Domain } from '../domain/claim.js';
import type { FailureReason, NoScoreCause, Setting } from '../domain/conversation.js';
import { ROLES, type Role } from '../domain/roles.js';
import { formatCount } from '../domain/text-labels.js';

/** Conversations of some model, pair or role: how many there were, how many were scored, and why the others were not. */
export interface ConversationOutcomes {
  readonly conversations: number;
  readonly scored: number;
  /** The conversations without a score, by cause. */
  readonly unscoredBy: Readonly<Partial<Record<NoScoreCause, number>>>;
}

/** One ordered pair's conversations in one condition. */
export interface PairOutcomes extends ConversationOutcomes {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly persuader: string;
  readonly persuadee: string;
}

/** One model's conversations in one role and condition. */
export interface RoleCoverage extends ConversationOutcomes {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly role: Role;
  readonly model: string;
}

/** An agent that a run's design asks for in a role and setting (`designedAgentsOf` reads them from runs). */
export interface DesignedAgent {
  readonly setting: Setting;
  readonly role: Role;
  readonly agent: string;
}

/** What a table shows where a model has no value; the reason follows it in parentheses. */
export const NO_DATA = 'no data';

/** The cause of one conversation that gave no score (its status, its failure reason). */
export function noScoreCause(status: string, failureReason: FailureReason | null): NoScoreCause {
  if (status === 'completed') return 'unscored';
  return failureReason ?? 'unknown';
}

/** Adds `amount` conversations of a cause to a tally of causes. */
export function addCause(tally: Partial<Record<NoScoreCause, number>>, cause: NoScoreCause, amount = 1): void {
  tally[cause] = (tally[cause] ?? 0) + amount;
}

const keyOf = (...parts: readonly string[]) => parts.join('\u0000');

/**
 * Every model of every condition, per role: the conversations it had there, how many were scored,
 * and why the others were not, summed over its pairs. A condition is one the pairs have; an agent a
 * design asks for in that setting and role that has no conversation there yet is listed with none.
 * In the pairs' order of first appearance, then the designed agents in design order.
 */
export function roleCoverage(pairs: Iterable<PairOutcomes>, designed: readonly DesignedAgent[] = []): RoleCoverage[] {
  const coverage = new Map<
    string,
    { domain: Domain; setting: Setting; role: Role; model: string; conversations: number; scored: number; unscoredBy: Partial<Record<NoScoreCause, number>> }
  >();
  const conditions = new Map<string, { domain: Domain; setting: Setting }>();
  const entryOf = (domain: Domain, setting: Setting, role: Role, model: string) => {
    const key = keyOf(domain, setting, role, model);
    const entry = coverage.get(key) ?? { domain, setting, role, model, conversations: 0, scored: 0, unscoredBy: {} };
    coverage.set(key, entry);
    return entry;
  };
  for (const pair of pairs) {
    conditions.set(keyOf(pair.domain, pair.setting), { domain: pair.domain, setting: pair.setting });
    for (const role of ROLES) {
      const entry = entryOf(pair.domain, pair.setting, role, role === 'persuader' ? pair.persuader : pair.persuadee);
      entry.conversations += pair.conversations;
      entry.scored += pair.scored;
      for (const [cause, amount] of Object.entries(pair.unscoredBy) as [NoScoreCause, number][]) addCause(entry.unscoredBy, cause, amount);
    }
  }
  for (const { domain, setting } of conditions.values()) {
    for (const wanted of designed) if (wanted.setting === setting) entryOf(domain, setting, wanted.role, wanted.agent);
  }
  return [...coverage.values()];
}

/** "format", or "format 8, api 4": the causes, most frequent first. */
function causesText(unscoredBy: ConversationOutcomes['unscoredBy']): string {
  const causes = (Object.entries(unscoredBy) as [NoScoreCause, number][])
    .filter(([, amount]) => amount > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const name = (cause: NoScoreCause) => (cause === 'unscored' ? 'no score' : cause);
  if (causes.length === 1) return name(causes[0]![0]);
  return causes.map(([cause, amount]) => `${name(cause)} ${formatCount(amount)}`).join(', ');
}

/**
 * Why there is no value: "12 of 12 failed: format", "6 of 6 failed: format 4, api 2", or "no
 * conversation ran" (asked for by the design, none ran yet); null when some conversation was scored.
 * The one wording of every table, chart, summary and file that shows a model without data.
 */
export function noDataReason(outcomes: ConversationOutcomes): string | null {
  if (outcomes.scored > 0) return null;
  if (outcomes.conversations === 0) return 'no conversation ran';
  const unscored = Object.values(outcomes.unscoredBy).reduce((total, amount) => total + (amount ?? 0), 0);
  const of = `${formatCount(unscored)} of ${formatCount(outcomes.conversations)}`;
  if (outcomes.unscoredBy.unscored === unscored) return `${of} completed without a score`;
  return `${of} failed: ${causesText(outcomes.unscoredBy)}`;
}

/** "no data (12 of 12 failed: format)": a cell without a value, with why. */
export function noDataText(reason: string): string {
  return `${NO_DATA} (${reason})`;
}
