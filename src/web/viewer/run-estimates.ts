import type { Domain } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import { pooledAgent } from '../../domain/person-agent.js';
import { DEFAULT_INTERVALS, type IntervalOptions } from '../../metrics/intervals/claim-estimates.js';
import { PairEstimator } from '../../metrics/pair-estimates.js';
import type { PairClaimTotal } from '../../studies/tournament/tournament-browse.js';

/** Where an estimate is: one domain and setting, as the run page's matrices. */
interface Condition {
  readonly domain: Domain;
  readonly setting: Setting;
}

/** An interval over claims, as report.json writes it: null where there is no data. */
interface Interval {
  readonly ciLow: number | null;
  readonly ciHigh: number | null;
  /** Claims the estimate rests on. */
  readonly claims: number;
  /** Too few claims, or too few that differ, to trust the interval (docs/design/statistics.md). */
  readonly thin: boolean;
}

/** A pair's mean NC with its interval: report.json `pairs` (`meanNC`, `ciLow`, `ciHigh`, `claims`, `thin`, `n`). */
interface PairEstimate extends Condition, Interval {
  readonly persuader: string;
  readonly persuadee: string;
  readonly mean: number;
  readonly n: number;
}

/** A model's effectiveness or susceptibility with its interval: report.json `effectiveness` / `susceptibility`. */
interface ModelEstimate extends Condition, Interval {
  readonly measure: 'effectiveness' | 'susceptibility';
  readonly model: string;
  readonly value: number;
  readonly n: number;
  readonly pairs: number;
}

/** Two models compared: report.json `comparisons.models`, the p-values Holm-adjusted per measure and condition. */
interface ModelComparisonEstimate extends Condition, Interval {
  readonly measure: 'effectiveness' | 'susceptibility';
  readonly first: string;
  readonly second: string;
  /** first - second, paired over the claims both have. */
  readonly difference: number;
  readonly p: number | null;
  readonly pHolm: number | null;
  readonly claimsLeftOut: { readonly first: number; readonly second: number };
}

/** `GET /api/runs/:run/estimates`: the report's 95% intervals of the run page's means, and its comparisons between models. */
export interface RunEstimates {
  readonly intervals: { readonly method: 't'; readonly confidence: number; readonly unit: 'claim' };
  readonly pairs: PairEstimate[];
  readonly models: ModelEstimate[];
  readonly comparisons: ModelComparisonEstimate[];
}

/** The report's default: Student t over claims, 95%. The viewer never resamples. */
const RUN_INTERVALS: IntervalOptions = { ...DEFAULT_INTERVALS, method: 't', replicates: 0 };

const finite = (value: number): number | null => (Number.isFinite(value) ? value : null);
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** The run page's order: subjective before misinformation, single-turn before multi-turn. */
const byCondition = (a: Condition, b: Condition) => byName(b.domain, a.domain) || byName(b.setting, a.setting);

/**
 * The intervals and comparisons of `pmiyc report` (its default t intervals) for a run, from the
 * store's per-(pair, claim) sums: one `PairEstimator` per condition, the very estimator the report
 * feeds conversation by conversation (`GroupTally`), fed the same cells as totals. So each value,
 * interval and Holm-adjusted p equals report.json's. A comparison is written with its two models in
 * name order (the report writes them in the order it first read them; swapping negates the difference).
 */
export function runEstimates(totals: Iterable<PairClaimTotal>): RunEstimates {
  const conditions = new Map<string, { where: Condition; estimator: PairEstimator }>();
  for (const total of totals) {
    const key = `${total.domain}/${total.setting}`;
    let entry = conditions.get(key);
    if (!entry) {
      entry = { where: { domain: total.domain, setting: total.setting }, estimator: new PairEstimator() };
      conditions.set(key, entry);
    }
    // People are one group, as in the report and the run page's means (`pooledAgent`).
    entry.estimator.addTotal(pooledAgent(total.persuader), pooledAgent(total.persuadee), total.claimKey, total.ncSum, total.completed);
  }
  const pairs: PairEstimate[] = [];
  const models: ModelEstimate[] = [];
  const comparisons: ModelComparisonEstimate[] = [];
  const interval = (entry: { ciLow: number; ciHigh: number; claims: number; thin: boolean }): Interval => ({
    ciLow: finite(entry.ciLow),
    ciHigh: finite(entry.ciHigh),
    claims: entry.claims,
    thin: entry.thin,
  });
  for (const { where, estimator } of conditions.values()) {
    const estimates = estimator.estimate(RUN_INTERVALS);
    for (const pair of estimates.pairs) {
      pairs.push({ ...where, persuader: pair.persuader, persuadee: pair.persuadee, mean: pair.mean, n: pair.n, ...interval(pair) });
    }
    for (const measure of ['effectiveness', 'susceptibility'] as const) {
      for (const entry of estimates[measure]) {
        models.push({ ...where, measure, model: entry.model, value: entry.value, n: entry.n, pairs: entry.pairs, ...interval(entry) });
      }
    }
    for (const comparison of estimates.comparisons) {
      const swap = byName(comparison.first, comparison.second) > 0;
      const base = {
        ...where,
        measure: comparison.measure,
        p: finite(comparison.p),
        pHolm: finite(comparison.pHolm),
        claims: comparison.claims,
        thin: comparison.thin,
      };
      comparisons.push(
        swap
          ? {
              ...base,
              first: comparison.second,
              second: comparison.first,
              difference: -comparison.difference,
              ciLow: finite(-comparison.ciHigh),
              ciHigh: finite(-comparison.ciLow),
              claimsLeftOut: { first: comparison.claimsLeftOut.second, second: comparison.claimsLeftOut.first },
            }
          : {
              ...base,
              first: comparison.first,
              second: comparison.second,
              difference: comparison.difference,
              ciLow: finite(comparison.ciLow),
              ciHigh: finite(comparison.ciHigh),
              claimsLeftOut: comparison.claimsLeftOut,
            },
      );
    }
  }
  return {
    intervals: { method: 't', confidence: RUN_INTERVALS.confidence, unit: 'claim' },
    pairs: pairs.sort((a, b) => byCondition(a, b) || byName(a.persuader, b.persuader) || byName(a.persuadee, b.persuadee)),
    models: models.sort((a, b) => byCondition(a, b) || byName(a.measure, b.measure) || byName(a.model, b.model)),
    comparisons: comparisons.sort((a, b) => byCondition(a, b) || byName(a.measure, b.measure) || byName(a.first, b.first) || byName(a.second, b.second)),
  };
}
