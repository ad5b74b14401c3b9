import { formatCount } from '../domain/text-labels.js';
import { INTERVAL_METHOD_WORDS } from '../metrics/intervals/interval-words.js';
import type { ReportMeta } from './report-document.js';

const METHOD_NAMES = {
  t: `${INTERVAL_METHOD_WORDS.t} over claims with cluster-robust standard errors`,
  percentile: `${INTERVAL_METHOD_WORDS.percentile} over claims`,
  bca: `${INTERVAL_METHOD_WORDS.bca} over claims`,
  'bootstrap-t': `${INTERVAL_METHOD_WORDS['bootstrap-t']} over claims`,
} as const;

/** One sentence on how every interval of the report was made, and what a thin mark means. */
export function intervalsSentence(intervals: ReportMeta['intervals']): string {
  const resampling = intervals.replicates === null ? '' : ` (${formatCount(intervals.replicates)} replicates, seed ${intervals.seed})`;
  return (
    `Intervals: ${Math.round(intervals.confidence * 100)}% ${METHOD_NAMES[intervals.method]}${resampling}; ` +
    `differences are paired over the claims both sides share, with Holm-adjusted p-values. ` +
    `An estimate marked ~ rests on fewer than ${intervals.thinBelow.claims} claims, or fewer than ${intervals.thinBelow.varyingClaims} claims that differ: ` +
    'no interval method holds its coverage there (docs/design/statistics.md).'
  );
}
