import { claimKey } from '../domain/claim.js';
import type { ConversationRecord } from '../domain/conversation-record.js';

/** The claim a record is about, by content: the unit of resampling and of shared openings. */
export function recordClaimKey(record: Pick<ConversationRecord, 'domain' | 'claim' | 'question'>): string {
  return claimKey({ domain: record.domain, claim: record.claim, ...(record.question === null ? {} : { question: record.question }) });
}
