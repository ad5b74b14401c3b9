import type { Domain } from '../domain/claim.js';
import type { Setting } from '../domain/conversation.js';
import type { ConversationRecord } from '../domain/conversation-record.js';
import { ClaimCellTable } from './claim-cell-table.js';
import { estimateOverClaims, type IntervalOptions, isThin } from './claim-estimates.js';
import { type ModelDifference, PairEstimator, type TournamentEstimates } from './pair-estimates.js';
import { recordClaimKey } from './record-claim-key.js';
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

/** Accumulates one domain and setting while records stream by; memory bounded by claims x pairs. */
export class GroupTally {
  private readonly normalized = new PairEstimator();
  private readonly absolute = new PairEstimator(4);
  private readonly stances = new ClaimCellTable();
  private readonly pairsSeen = new Map<string, { persuader: string; persuadee: string; failed: number }>();
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
    const pair = this.pairsSeen.get(pairKey) ?? { persuader: record.persuader, persuadee: record.persuadee, failed: 0 };
    this.pairsSeen.set(pairKey, pair);
    this.turnsPlanned.add(record.turnsPlanned);
    this.conversations += 1;
    if (record.status !== 'completed' || record.normalizedChange === null || record.absoluteChange === null) {
      pair.failed += 1;
      return;
    }
    this.completed += 1;
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

  result(options: IntervalOptions): GroupResult {
    const normalized = this.normalized.estimate(options);
    const absolute = this.absolute.estimate(options);
    const where = { domain: this.domain, setting: this.setting };
    const models = (list: TournamentEstimates['effectiveness']): ModelResult[] =>
      list.map(({ model, value, ciLow, ciHigh, n, pairs, claims, thin }) => ({ ...where, model, value, ciLow, ciHigh, n, pairs, claims, thin }));
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
      effectiveness: models(normalized.effectiveness),
      susceptibility: models(normalized.susceptibility),
      absoluteEffectiveness: models(absolute.effectiveness),
      absoluteSusceptibility: models(absolute.susceptibility),
      stanceGroups: this.stanceResults(options),
      comparisons: normalized.comparisons.map((comparison) => ({ ...where, ...comparison })),
    };
  }

  private pairResults(normalized: TournamentEstimates, absolute: TournamentEstimates): PairResult[] {
    const byPair = (estimates: TournamentEstimates) => new Map(estimates.pairs.map((pair) => [`${pair.persuader}\u0000${pair.persuadee}`, pair]));
    const normalizedByPair = byPair(normalized);
    const absoluteByPair = byPair(absolute);
    return [...this.pairsSeen].map(([key, { persuader, persuadee, failed }]) => {
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
