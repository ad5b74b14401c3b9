import type { AgreementScore } from '../../domain/agreement-score.js';
import type { Domain } from '../../domain/claim.js';

/** One answer of a consistency study as stored. */
export interface StoredStanceSample {
  readonly model: string;
  readonly domain: Domain;
  readonly claimIndex: number;
  readonly claim: string;
  readonly sampleIndex: number;
  /** Null when no attempt gave a usable answer. */
  readonly score: AgreementScore | null;
  /** Calls made for this answer (1 + re-asks). */
  readonly attempts: number;
  /** Unusable replies among the attempts. */
  readonly unusable: number;
  /** The reply that was used, or the last unusable one ('' for imported answers). */
  readonly raw: string;
  /** The call store's hash of that reply's request (null for imports). */
  readonly callHash: string | null;
}

/** Which answer: the key within a run. */
export type SampleKey = Pick<StoredStanceSample, 'model' | 'domain' | 'claimIndex' | 'sampleIndex'>;

/** Where a consistency study's answers are kept (the SQLite store implements it). */
export interface ConsistencyResults {
  /** Stores one answer, committed at once. */
  save(runId: number, sample: StoredStanceSample): void;
  /** Stores many answers in one transaction (an import: all or nothing); returns how many. */
  saveAll(runId: number, samples: Iterable<StoredStanceSample>): number;
  /** Whether this answer is stored already (a resumed study skips it). */
  has(runId: number, key: SampleKey): boolean;
  count(runId: number): number;
  /** A study's answers in key order, streamed. */
  samples(runId: number): Iterable<StoredStanceSample>;
  /** Names of the consistency studies, oldest first; only those linked to `tournamentRun` when given. */
  studyNames(tournamentRun?: string): string[];
}
