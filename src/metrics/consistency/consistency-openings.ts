import type { ConversationRecord } from '../../domain/conversation-record.js';
import { hashString } from '../../domain/random.js';
import { recordClaimKey } from '../record-claim-key.js';
import type { OpeningScore } from './consistency.js';

type OpeningRecord = Pick<ConversationRecord, 'persuadee' | 'domain' | 'claimIndex' | 'claim' | 'question' | 'initialScore' | 'turns'>;

/**
 * The openings of a tournament run for Match Rate and Avg Dif, each counted once: an opening is
 * shared by every persuader and both settings (SPEC 1.4; each repetition draws its own), so counting
 * conversations would weight a claim by the number of opponents. An opening is identified by
 * (persuadee, claim, seed of its accepted attempt) and remembered as a 53-bit hash, so memory is
 * bounded by persuadees x claims x repetitions. Conversations whose opening failed have no initial score and
 * are skipped.
 */
export function* openingScores(records: Iterable<OpeningRecord>): Generator<OpeningScore> {
  const seen = new Set<number>();
  for (const record of records) {
    const opening = record.turns[0];
    if (record.initialScore === null || !opening) continue;
    const seed = opening.attempts.at(-1)?.seed ?? 0;
    const identity = hashString([record.persuadee, recordClaimKey(record), seed].join('\u001f'));
    if (seen.has(identity)) continue;
    seen.add(identity);
    yield { model: record.persuadee, domain: record.domain, claimIndex: record.claimIndex, claim: record.claim, score: record.initialScore };
  }
}
