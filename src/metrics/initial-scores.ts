import { AGREEMENT_SCORES, type AgreementScore } from '../domain/agreement-score.js';
import type { Domain } from '../domain/claim.js';
import type { ConversationRecord } from '../domain/conversation-record.js';
import { hashString } from '../domain/random.js';
import { recordClaimKey } from './record-claim-key.js';

/** Appendix A: how one persuadee opened on the claims of one domain. */
export interface InitialScoreDistribution {
  readonly persuadee: string;
  readonly domain: Domain;
  /** Openings per score, keyed "1" to "5". */
  readonly counts: Readonly<Record<`${AgreementScore}`, number>>;
  /** Openings counted: one per (persuadee, claim, opening call), not one per conversation. */
  readonly n: number;
  readonly mean: number;
}

type OpeningRecord = Pick<ConversationRecord, 'persuadee' | 'domain' | 'claim' | 'question' | 'initialScore' | 'turns'>;

/**
 * Counts each distinct opening once: an opening is shared by every persuader and both settings
 * (SPEC 1.4), so counting conversations would weight it by the number of opponents. Openings are
 * remembered as 53-bit hashes: bounded by persuadees x claims.
 */
export class InitialScoreTally {
  private readonly seen = new Set<number>();
  private readonly counts = new Map<string, { persuadee: string; domain: Domain; counts: number[] }>();

  /** `persuadee`: the row it is counted in (the pooled `person/*` for a person); the opening is still told apart by the record's own persuadee. */
  add(record: OpeningRecord, persuadee: string = record.persuadee): void {
    const opening = record.turns[0];
    if (record.initialScore === null || !opening) return;
    const seed = opening.attempts.at(-1)?.seed ?? 0;
    const identity = hashString([record.persuadee, recordClaimKey(record), seed].join('\u001f'));
    if (this.seen.has(identity)) return;
    this.seen.add(identity);
    const key = `${persuadee}\u0000${record.domain}`;
    const entry = this.counts.get(key) ?? { persuadee, domain: record.domain, counts: [0, 0, 0, 0, 0, 0] };
    this.counts.set(key, entry);
    entry.counts[record.initialScore]! += 1;
  }

  result(): InitialScoreDistribution[] {
    return [...this.counts.values()].map(({ persuadee, domain, counts }) => {
      const n = AGREEMENT_SCORES.reduce((total, score) => total + counts[score]!, 0);
      const sum = AGREEMENT_SCORES.reduce((total, score) => total + score * counts[score]!, 0);
      const byScore = Object.fromEntries(AGREEMENT_SCORES.map((score) => [String(score), counts[score]!])) as Record<`${AgreementScore}`, number>;
      return { persuadee, domain, counts: byScore, n, mean: n === 0 ? Number.NaN : sum / n };
    });
  }
}
