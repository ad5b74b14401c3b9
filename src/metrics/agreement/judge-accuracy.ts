import { type BootstrapOptions, ClaimCellTable, DEFAULT_BOOTSTRAP } from '../intervals/claim-cell-table.js';

/** What accuracy needs of one judge trial (a stored `JudgeTrialRecord` fits). */
export interface JudgedPair {
  readonly model: string;
  readonly claim: string;
  readonly scoreDifference: number;
  /** The argument chosen as shown (1 = shown first); null when the reply was unusable. */
  readonly chosen: 1 | 2 | null;
  readonly correct: boolean | null;
}

/** A proportion over usable answers with its percentile bootstrap interval over claims. */
export interface ProportionEstimate {
  /** NaN when there is no usable answer. */
  readonly value: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  /** Usable answers behind the value. */
  readonly n: number;
  /** How many of them count (correct, or the first argument chosen). */
  readonly count: number;
  /** Claims with at least one usable answer. */
  readonly claims: number;
}

export interface AccuracyEstimate extends ProportionEstimate {
  /** Trials whose replies stayed unusable; left out of n. */
  readonly unusable: number;
}

/** One judge's results (paper Sec. 4.1.2). */
export interface JudgeAccuracy {
  readonly model: string;
  readonly overall: AccuracyEstimate;
  /** Pairs whose score difference exceeds the threshold (1 in the paper). */
  readonly largeDifference: AccuracyEstimate;
  /** Position bias: how often the judge chose the argument shown first (0.5 is none). */
  readonly firstChosen: ProportionEstimate;
}

export interface JudgeAccuracyOptions {
  /** Pairs whose difference exceeds this form `largeDifference`; default 1. */
  readonly threshold?: number;
  readonly bootstrap?: BootstrapOptions;
}

export interface JudgeAccuracySummary {
  /** Judges sorted by name. */
  readonly judges: JudgeAccuracy[];
  readonly threshold: number;
  readonly bootstrap: BootstrapOptions;
}

type Subset = 'overall' | 'large' | 'first';

class JudgeTally {
  readonly table = new ClaimCellTable();
  readonly claimsByCell = new Map<string, Set<string>>();
  readonly unusable = new Map<string, number>();
  readonly models = new Set<string>();

  add(cell: string, claim: string, value: number): void {
    this.table.add(cell, claim, value);
    const claims = this.claimsByCell.get(cell) ?? new Set<string>();
    this.claimsByCell.set(cell, claims.add(claim));
  }
}

const cellOf = (model: string, subset: Subset) => `${model}\u0000${subset}`;

/**
 * Accuracy of each judge overall and on pairs whose score difference exceeds the threshold, and
 * how often it chose the first-shown argument, each with a percentile bootstrap interval over
 * claims (the pairs of a claim share its arguments, so claims are the unit resampled; all judges
 * are resampled together). Unusable replies are counted apart, never as right or wrong.
 */
export function judgeAccuracy(trials: Iterable<JudgedPair>, options: JudgeAccuracyOptions = {}): JudgeAccuracySummary {
  const threshold = options.threshold ?? 1;
  const bootstrap = options.bootstrap ?? DEFAULT_BOOTSTRAP;
  const tally = new JudgeTally();
  for (const trial of trials) {
    tally.models.add(trial.model);
    const large = trial.scoreDifference > threshold;
    if (trial.chosen === null || trial.correct === null) {
      for (const subset of large ? (['overall', 'large'] as const) : (['overall'] as const))
        tally.unusable.set(cellOf(trial.model, subset), (tally.unusable.get(cellOf(trial.model, subset)) ?? 0) + 1);
      continue;
    }
    const correct = trial.correct ? 1 : 0;
    tally.add(cellOf(trial.model, 'overall'), trial.claim, correct);
    if (large) tally.add(cellOf(trial.model, 'large'), trial.claim, correct);
    tally.add(cellOf(trial.model, 'first'), trial.claim, trial.chosen === 1 ? 1 : 0);
  }
  const { table } = tally;
  const means = new Map(table.cellMeans().map((cell) => [cell.cell, cell]));
  const intervals = table.bootstrap(
    table.cells.map((_, index) => [index]),
    bootstrap,
  );
  const estimate = (model: string, subset: Subset): ProportionEstimate => {
    const cell = cellOf(model, subset);
    const index = table.cellIndex(cell);
    const mean = means.get(cell);
    if (index === undefined || !mean) return { value: Number.NaN, ciLow: Number.NaN, ciHigh: Number.NaN, n: 0, count: 0, claims: 0 };
    return { value: mean.mean, ...intervals[index]!, n: mean.n, count: Math.round(mean.mean * mean.n), claims: tally.claimsByCell.get(cell)!.size };
  };
  const judges = [...tally.models].sort().map((model) => ({
    model,
    overall: { ...estimate(model, 'overall'), unusable: tally.unusable.get(cellOf(model, 'overall')) ?? 0 },
    largeDifference: { ...estimate(model, 'large'), unusable: tally.unusable.get(cellOf(model, 'large')) ?? 0 },
    firstChosen: estimate(model, 'first'),
  }));
  return { judges, threshold, bootstrap };
}
