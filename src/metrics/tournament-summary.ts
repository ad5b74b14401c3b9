import type { Domain } from '../domain/claim.js';
import type { Setting } from '../domain/conversation.js';
import type { ConversationScore } from '../domain/conversation-record.js';
import { DEFAULT_INTERVALS, type IntervalOptions } from './claim-estimates.js';
import { PairEstimator, type TournamentEstimates } from './pair-estimates.js';
import { recordClaimKey } from './record-claim-key.js';

/** The results of one domain and setting: counts and estimates with intervals. */
export interface GroupSummary {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly conversations: number;
  readonly completed: number;
  readonly failed: number;
  readonly estimates: TournamentEstimates;
}

/**
 * Groups conversations by domain and setting (the paper never pools them) and estimates each
 * group's pair means, effectiveness and susceptibility with intervals over claims.
 * Failed conversations are counted, never scored. Streams: memory is bounded by claims x pairs.
 */
export function summarizeTournament(records: Iterable<ConversationScore>, options: IntervalOptions = DEFAULT_INTERVALS): GroupSummary[] {
  const groups = new Map<string, { domain: Domain; setting: Setting; scored: PairEstimator; completed: number; failed: number }>();
  for (const record of records) {
    const key = `${record.domain}/${record.setting}`;
    const group = groups.get(key) ?? { domain: record.domain, setting: record.setting, scored: new PairEstimator(), completed: 0, failed: 0 };
    groups.set(key, group);
    if (record.status !== 'completed' || record.normalizedChange === null) {
      group.failed += 1;
      continue;
    }
    group.completed += 1;
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
    }));
}
