import type { Domain } from '../domain/claim.js';
import type { NoScoreCause, Setting } from '../domain/conversation.js';
import type { ConversationScore } from '../domain/conversation-record.js';
import { DEFAULT_INTERVALS, type IntervalOptions } from './intervals/claim-estimates.js';
import { PairEstimator, type TournamentEstimates } from './pair-estimates.js';
import { recordClaimKey } from './record-claim-key.js';
import { addCause, type DesignedAgent, noScoreCause, type PairOutcomes, type RoleCoverage, roleCoverage } from './role-coverage.js';

/** The results of one domain and setting: counts and estimates with intervals. */
export interface GroupSummary {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly conversations: number;
  readonly completed: number;
  readonly failed: number;
  readonly estimates: TournamentEstimates;
  /** Every model of the condition per role, scored or not: a model without an estimate has its reason here (`noDataReason`). */
  readonly coverage: RoleCoverage[];
}

interface Group {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly scored: PairEstimator;
  readonly pairs: Map<string, { persuader: string; persuadee: string; scored: number; unscoredBy: Partial<Record<NoScoreCause, number>> }>;
  completed: number;
  failed: number;
}

function pairOutcomes(group: Group): PairOutcomes[] {
  return [...group.pairs.values()].map(({ persuader, persuadee, scored, unscoredBy }) => ({
    domain: group.domain,
    setting: group.setting,
    persuader,
    persuadee,
    scored,
    unscoredBy,
    conversations: scored + Object.values(unscoredBy).reduce((total, amount) => total + (amount ?? 0), 0),
  }));
}

/**
 * Groups conversations by domain and setting (the paper never pools them) and estimates each
 * group's pair means, effectiveness and susceptibility with intervals over claims. Failed
 * conversations are counted, never scored; every model keeps its coverage, with the agents
 * `designed` asks for in each setting. Streams: memory is bounded by claims x pairs.
 */
export function summarizeTournament(
  records: Iterable<ConversationScore>,
  options: IntervalOptions = DEFAULT_INTERVALS,
  designed: readonly DesignedAgent[] = [],
): GroupSummary[] {
  const groups = new Map<string, Group>();
  for (const record of records) {
    const key = `${record.domain}/${record.setting}`;
    const group = groups.get(key) ?? { domain: record.domain, setting: record.setting, scored: new PairEstimator(), pairs: new Map(), completed: 0, failed: 0 };
    groups.set(key, group);
    const pairKey = `${record.persuader}\u0000${record.persuadee}`;
    const pair = group.pairs.get(pairKey) ?? { persuader: record.persuader, persuadee: record.persuadee, scored: 0, unscoredBy: {} };
    group.pairs.set(pairKey, pair);
    if (record.status !== 'completed' || record.normalizedChange === null) {
      group.failed += 1;
      addCause(pair.unscoredBy, noScoreCause(record.status, record.failureReason ?? null));
      continue;
    }
    group.completed += 1;
    pair.scored += 1;
    group.scored.add(record.persuader, record.persuadee, recordClaimKey(record), record.normalizedChange);
  }
  const order = (group: { domain: Domain; setting: Setting }) => `${group.domain === 'subjective' ? 0 : 1}${group.setting === 'single' ? 0 : 1}`;
  return [...groups.values()]
    .sort((a, b) => order(a).localeCompare(order(b)))
    .map((group) => ({
      domain: group.domain,
      setting: group.setting,
      conversations: group.completed + group.failed,
      completed: group.completed,
      failed: group.failed,
      estimates: group.scored.estimate(options),
      coverage: roleCoverage(pairOutcomes(group), designed),
    }));
}
