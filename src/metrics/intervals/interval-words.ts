import { formatCount } from '../../domain/text-labels.js';
import type { IntervalMethod } from './claim-estimates.js';

/** Each interval method in words, as every report, section and closing text names it. */
export const INTERVAL_METHOD_WORDS: Readonly<Record<IntervalMethod, string>> = {
  t: 'Student t',
  percentile: 'percentile bootstrap',
  bca: 'bias-corrected and accelerated (BCa) bootstrap',
  'bootstrap-t': 'studentized bootstrap',
};

/** "95% Student t intervals over topics", with a bootstrap's replicates and seed: how a section's intervals were made, over its unit. */
export function intervalsPhrase(
  options: { readonly confidence: number; readonly method: IntervalMethod; readonly replicates: number; readonly seed: number },
  unit: string,
): string {
  const resampling = options.method === 't' ? '' : ` (${formatCount(options.replicates)} replicates, seed ${options.seed})`;
  return `${Math.round(options.confidence * 100)}% ${INTERVAL_METHOD_WORDS[options.method]} intervals over ${unit}${resampling}`;
}
