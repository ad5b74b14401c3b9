import type { ConsistencyModelResult } from '../../metrics/consistency/consistency.js';
import type { BootstrapOptions } from '../../metrics/intervals/claim-cell-table.js';

/** How Match Rate breaks ties, said wherever the number is shown. */
export const MATCH_RATE_TIE_RULE =
  'Ties: when several answers are equally most frequent, the lowest of them counts as the most frequent (the report also gives the rate that counts a match with any of them).';

/** One model's row of Table 1, labelled. */
export interface ConsistencyModelRow extends ConsistencyModelResult {
  /** A simulated agent: its numbers show that the pipeline works, not how a real model behaves. */
  readonly simulated: boolean;
}

/**
 * One consistency study as report.json holds it under `studies.consistency` (a list, one entry
 * per study). `paperAvgSd` is the paper's "Avg SD" column, which is in fact the mean per-claim
 * population variance; `meanSd` is the true mean SD. Missing values are null in JSON.
 */
export interface ConsistencyStudyReport {
  /** The study's name in the store (a row of `runs`). */
  readonly study: string;
  readonly createdAt: string;
  readonly status: string;
  readonly seed: number;
  /** Sampled by pmiyc, or imported from a file of the paper's format. */
  readonly kind: 'sampled' | 'imported';
  /** Answers asked per model and claim (null for an import). */
  readonly samplesPerClaim: number | null;
  readonly claimSource: string | null;
  readonly temperature: number | null;
  readonly maxAttempts: number | null;
  readonly importedFile: string | null;
  /** The tournament run whose openings Match Rate and Avg Dif compare with. */
  readonly tournamentRun: string | null;
  readonly tieRule: string;
  readonly bootstrap: BootstrapOptions & { readonly unit: 'claim'; readonly method: 'percentile' };
  readonly models: ConsistencyModelRow[];
  /** Things a reader must know before trusting a number. */
  readonly notes: string[];
}
