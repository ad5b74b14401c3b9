import type { Domain } from '../domain/claim.js';
import type { NoScoreCause, Setting } from '../domain/conversation.js';
import type { ConversationRecord } from '../domain/conversation-record.js';
import type { Role } from '../domain/roles.js';
import { ClaimCellTable } from './intervals/claim-cell-table.js';
import { estimateOverClaims, type IntervalOptions, isThin } from './intervals/claim-estimates.js';
import { type ModelDifference, PairEstimator, type TournamentEstimates } from './pair-estimates.js';
import { recordClaimKey } from './record-claim-key.js';
import { addCause, type DesignedAgent, NO_DATA, noDataReason, noScoreCause, type PairOutcomes, type RoleCoverage, roleCoverage } from './role-coverage.js';
import { STANCE_GROUPS, type StanceGroup, stanceGroupOf } from './stance-groups.js';

/** One cell of the persuader x persuadee matrix (Figures 2, 4, 5). */
export interface PairResult {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly persuader: string;
  readonly persuadee: string;
  /** Completed conversations behind the mean. */
  readonly n: number;
  readonly meanNC: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  /** Claims behind the mean. */
  readonly claims: number;
  /** Too few claims, or too few with a different NC, to trust the interval (docs/design/statistics.md). */
  readonly thin: boolean;
  readonly meanAbsoluteChange: number;
  readonly absoluteCiLow: number;
  readonly absoluteCiHigh: number;
  /** Conversations of the pair that failed (not scored). */
  readonly failed: number;
  /** Why the pair has no value ("3 of 3 failed: format", `noDataReason`); null when it has one. */
  readonly reason: string | null;
}

/** Effectiveness or susceptibility of one model in one domain and setting (Figure 3). */
export interface ModelResult {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly model: string;
  readonly value: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  /** Completed conversations behind the value. */
  readonly n: number;
  /** Pairs averaged (unweighted) into the value. */
  readonly pairs: number;
  /** Claims behind the value. */
  readonly claims: number;
  /** Too few claims, or too few that differ, to trust the interval. */
  readonly thin: boolean;
  /** Conversations of the model in this role and condition that failed (not scored). */
  readonly failed: number;
  /**
   * Why the model has no value here ("12 of 12 failed: format", `noDataReason`); null when it has one.
   * A model the design asks for keeps its row without data: value, interval and n are then NaN, NaN and 0.
   */
  readonly reason: string | null;
}

/** Two models compared in one domain and setting (report.json `comparisons.models`). */
export interface ModelComparison extends ModelDifference {
  readonly domain: Domain;
  readonly setting: Setting;
}

/** Figure 7: mean NC by the persuader's own stance on the claim. */
export interface StanceGroupResult {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly group: StanceGroup;
  readonly n: number;
  readonly meanNC: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  readonly thin: boolean;
}

/** What happened in one domain and setting. */
export interface GroupCounts {
  readonly domain: Domain;
  readonly setting: Setting;
  /** The planned turns t seen (more than one only when runs with different t were combined). */
  readonly turnsPlanned: number[];
  readonly conversations: number;
  readonly completed: number;
  readonly failed: number;
  readonly earlyStopped: number;
  /** Claims with at least one completed conversation: the units the intervals resample. */
  readonly claims: number;
  /** Completed conversations left out of the stance groups: the persuader's stance is unknown. */
  readonly withoutStance: number;
}

/** Everything estimated for one domain and setting. */
export interface GroupResult {
  readonly counts: GroupCounts;
  readonly pairs: PairResult[];
  readonly effectiveness: ModelResult[];
  readonly susceptibility: ModelResult[];
  readonly absoluteEffectiveness: ModelResult[];
  readonly absoluteSusceptibility: ModelResult[];
  readonly stanceGroups: StanceGroupResult[];
  readonly comparisons: ModelComparison[];
}

/** A pair as the tally saw it: its scored conversations, and the others by cause. */
interface PairSeen {
  readonly persuader: string;
  readonly persuadee: string;
  scored: number;
  failed: number;
  readonly unscoredBy: Partial<Record<NoScoreCause, number>>;
}

/** Accumulates one domain and setting while records stream by; memory bounded by claims x pairs. */
export class GroupTally {
  private readonly normalized = new PairEstimator();
  private readonly absolute = new PairEstimator(4);
  private readonly stances = new ClaimCellTable();
  private readonly pairsSeen = new Map<string, PairSeen>();
  private readonly turnsPlanned = new Set<number>();
  private conversations = 0;
  private completed = 0;
  private earlyStopped = 0;
  private withoutStance = 0;

  constructor(
    readonly domain: Domain,
    readonly setting: Setting,
  ) {}

  add(record: ConversationRecord): void {
    const pairKey = `${record.persuader}\u0000${record.persuadee}`;
    const pair = this.pairsSeen.get(pairKey) ?? { persuader: record.persuader, persuadee: record.persuadee, scored: 0, failed: 0, unscoredBy: {} };
    this.pairsSeen.set(pairKey, pair);
    this.turnsPlanned.add(record.turnsPlanned);
    this.conversations += 1;
    if (record.status !== 'completed' || record.normalizedChange === null || record.absoluteChange === null) {
      pair.failed += 1;
      addCause(pair.unscoredBy, noScoreCause(record.status, record.failureReason));
      return;
    }
    this.completed += 1;
    pair.scored += 1;
    if (record.earlyStopped) this.earlyStopped += 1;
    const claim = recordClaimKey(record);
    this.normalized.add(record.persuader, record.persuadee, claim, record.normalizedChange);
    this.absolute.add(record.persuader, record.persuadee, claim, record.absoluteChange);
    if (record.persuaderStance === null) this.withoutStance += 1;
    else this.stances.add(stanceGroupOf(record.persuaderStance), claim, record.normalizedChange);
  }

  /** The NC cells by claim (per-claim results read them). */
  get claimTable(): ClaimCellTable {
    return this.normalized.claimTable;
  }

  /** Every pair's conversations, scored and not (role coverage reads them). */
  pairOutcomes(): PairOutcomes[] {
    return [...this.pairsSeen.values()].map(({ persuader, persuadee, scored, failed, unscoredBy }) => ({
      domain: this.domain,
      setting: this.setting,
      persuader,
      persuadee,
      conversations: scored + failed,
      scored,
      unscoredBy: { ...unscoredBy },
    }));
  }

  /**
   * Estimates with intervals. Every model of the condition keeps a row in each role it had a
   * conversation in, or that `designed` asks for: without a scored conversation, with no value and
   * why (`noDataReason`).
   */
  result(options: IntervalOptions, designed: readonly DesignedAgent[] = []): GroupResult {
    const normalized = this.normalized.estimate(options);
    const absolute = this.absolute.estimate(options);
    const coverage = roleCoverage(this.pairOutcomes(), designed);
    const where = { domain: this.domain, setting: this.setting };
    const models = (list: TournamentEstimates['effectiveness'], role: Role): ModelResult[] =>
      modelResults(
        where,
        list,
        coverage.filter((entry) => entry.role === role),
      );
    return {
      counts: {
        ...where,
        turnsPlanned: [...this.turnsPlanned].sort((a, b) => a - b),
        conversations: this.conversations,
        completed: this.completed,
        failed: this.conversations - this.completed,
        earlyStopped: this.earlyStopped,
        claims: normalized.claims,
        withoutStance: this.withoutStance,
      },
      pairs: this.pairResults(normalized, absolute),
      effectiveness: models(normalized.effectiveness, 'persuader'),
      susceptibility: models(normalized.susceptibility, 'persuadee'),
      absoluteEffectiveness: models(absolute.effectiveness, 'persuader'),
      absoluteSusceptibility: models(absolute.susceptibility, 'persuadee'),
      stanceGroups: this.stanceResults(options),
      comparisons: normalized.comparisons.map((comparison) => ({ ...where, ...comparison })),
    };
  }

  private pairResults(normalized: TournamentEstimates, absolute: TournamentEstimates): PairResult[] {
    const byPair = (estimates: TournamentEstimates) => new Map(estimates.pairs.map((pair) => [`${pair.persuader}\u0000${pair.persuadee}`, pair]));
    const normalizedByPair = byPair(normalized);
    const absoluteByPair = byPair(absolute);
    return [...this.pairsSeen].map(([key, { persuader, persuadee, scored, failed, unscoredBy }]) => {
      const nc = normalizedByPair.get(key);
      const change = absoluteByPair.get(key);
      return {
        domain: this.domain,
        setting: this.setting,
        persuader,
        persuadee,
        n: nc?.n ?? 0,
        meanNC: nc?.mean ?? Number.NaN,
        ciLow: nc?.ciLow ?? Number.NaN,
        ciHigh: nc?.ciHigh ?? Number.NaN,
        claims: nc?.claims ?? 0,
        thin: nc?.thin ?? true,
        meanAbsoluteChange: change?.mean ?? Number.NaN,
        absoluteCiLow: change?.ciLow ?? Number.NaN,
        absoluteCiHigh: change?.ciHigh ?? Number.NaN,
        failed,
        reason: noDataReason({ conversations: scored + failed, scored, unscoredBy }),
      };
    });
  }

  private stanceResults(options: IntervalOptions): StanceGroupResult[] {
    const means = this.stances.cellMeans();
    const present = STANCE_GROUPS.filter((group) => this.stances.cellIndex(group) !== undefined);
    const intervals = estimateOverClaims(
      this.stances.slices(),
      present.map((group) => [{ cells: [this.stances.cellIndex(group)!], weight: 1 }]),
      options,
    );
    return STANCE_GROUPS.map((group) => {
      const position = present.indexOf(group);
      const mean = means.find((cell) => cell.cell === group);
      return {
        domain: this.domain,
        setting: this.setting,
        group,
        n: mean?.n ?? 0,
        meanNC: mean?.mean ?? Number.NaN,
        ciLow: position === -1 ? Number.NaN : Math.max(-1, intervals[position]!.ciLow),
        ciHigh: position === -1 ? Number.NaN : Math.min(1, intervals[position]!.ciHigh),
        thin: position === -1 || isThin(intervals[position]!),
      };
    });
  }
}

/** The fields of a model result without data: no value, no interval, nothing behind it. */
const NO_VALUE = { value: Number.NaN, ciLow: Number.NaN, ciHigh: Number.NaN, n: 0, pairs: 0, claims: 0, thin: true } as const;

/**
 * One role's model results: the estimated models, then each model of `coverage` without an
 * estimate as a row without data (NaN value and interval, n 0) that says why.
 */
function modelResults(
  where: Pick<ModelResult, 'domain' | 'setting'>,
  estimated: TournamentEstimates['effectiveness'],
  coverage: readonly RoleCoverage[],
): ModelResult[] {
  const outcomes = new Map(coverage.map((entry) => [entry.model, entry]));
  const failedOf = (model: string) => (outcomes.get(model)?.conversations ?? 0) - (outcomes.get(model)?.scored ?? 0);
  const withData = estimated.map(({ model, value, ciLow, ciHigh, n, pairs, claims, thin }) => {
    return { ...where, model, value, ciLow, ciHigh, n, pairs, claims, thin, failed: failedOf(model), reason: null };
  });
  const named = new Set(estimated.map((entry) => entry.model));
  const withoutData = coverage
    .filter((entry) => !named.has(entry.model))
    .map((entry) => ({ ...where, model: entry.model, ...NO_VALUE, failed: failedOf(entry.model), reason: noDataReason(entry) ?? NO_DATA }));
  return [...withData, ...withoutData];
}
