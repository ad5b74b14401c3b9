import type { Domain } from '../domain/claim.js';
import type { Setting } from '../domain/conversation.js';
import type { ConversationRecord } from '../domain/conversation-record.js';
import { isPersonAgent, pooledAgent } from '../domain/person-agent.js';
import { hashString } from '../domain/random.js';
import type { Role } from '../domain/roles.js';
import type { ArmComparison, UncomparedModel } from './arms/arm-comparisons.js';
import { ArmContrast } from './arms/arm-contrast.js';
import { NO_VARIANTS, type VariantContrast, type VariantOf, variantContrasts } from './arms/variant-contrast.js';
import { analyzeClaims, type ClaimLabel, ClaimPairRows, type ClaimResult, type ClaimSpread } from './claim-results.js';
import { type ConversationSample, SampleTally } from './conversation-samples.js';
import { type GroupCounts, GroupTally, type ModelComparison, type ModelResult, type PairResult, type StanceGroupResult } from './group-tally.js';
import { type InitialScoreDistribution, InitialScoreTally } from './initial-scores.js';
import { DEFAULT_INTERVALS, type IntervalOptions } from './intervals/claim-estimates.js';
import { type PowerPlan, powerPlans } from './intervals/power.js';
import { recordClaimKey } from './record-claim-key.js';
import type { DesignedAgent } from './role-coverage.js';
import { type SuccessRate, SuccessRateTally } from './success-rates.js';
import { type TurnCurve, TurnCurveTally } from './turn-curves.js';
import { CallLedger } from './usage/call-ledger.js';
import { type ResampleCount, ResampleTally } from './usage/resample-counts.js';
import { UsageTally, type UsageTotal } from './usage/usage-totals.js';

/** A model that took part, and whether it is a simulated agent. */
export interface ModelSeen {
  readonly model: string;
  readonly simulated: boolean;
  readonly roles: Role[];
}

/** Claims of one origin and licence that conversations were about. */
export interface ClaimSetSeen {
  readonly domain: Domain;
  readonly origin: string;
  readonly license: string;
  readonly claims: number;
}

type Difference = Omit<ArmComparison, 'group' | 'first' | 'second'>;

/**
 * A model's multi-turn value minus its single-turn value in one domain, over the (opponent, claim)
 * cells both settings hold; `leftOut` names the opponents and counts the claims and cells that are not.
 */
export interface SettingComparison extends Difference {
  readonly domain: Domain;
  readonly single: number;
  readonly multi: number;
}

/**
 * A model's value in the reported run minus its value in the baseline run (`report --compare`), per
 * condition, over the (opponent, claim) cells both runs hold: `baseline` and `value` are over those
 * cells too, and `leftOut` names the opponents (`onlyIn`: "baseline" or "reported") and counts the
 * claims and cells that one run only has.
 */
export interface RunComparison extends Difference {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly baseline: number;
  readonly value: number;
}

/** What `report --compare` leaves out: per condition, and the models it could not compare at all. */
export interface RunsLeftOut {
  /** Per condition: the claims paired, and the claims and (pair, claim) cells that one run only holds. */
  readonly conditions: ReadonlyArray<{
    readonly domain: Domain;
    readonly setting: Setting;
    readonly claims: number;
    readonly claimsLeftOut: number;
    readonly cellsLeftOut: number;
  }>;
  /** Models with data in a condition that share no cell with the other run there (`onlyIn`: "baseline", "reported", or null: both, on no common cell). */
  readonly models: ReadonlyArray<Omit<UncomparedModel, 'group'> & { readonly domain: Domain; readonly setting: Setting }>;
}

/** Every analysis of SPEC 1.6 that a tournament's records support, ready to report. */
export interface TournamentAnalysis {
  readonly conversations: number;
  readonly groups: GroupCounts[];
  readonly pairs: PairResult[];
  readonly effectiveness: ModelResult[];
  readonly susceptibility: ModelResult[];
  /** The same estimates on absolute change (st - s0) instead of NC. */
  readonly absoluteChange: { readonly effectiveness: ModelResult[]; readonly susceptibility: ModelResult[] };
  readonly turnCurves: TurnCurve[];
  readonly stanceGroups: StanceGroupResult[];
  readonly initialScores: InitialScoreDistribution[];
  readonly successRates: SuccessRate[];
  readonly resampling: ResampleCount[];
  readonly usage: UsageTotal[];
  readonly samples: ConversationSample[];
  readonly models: ModelSeen[];
  readonly claimSets: ClaimSetSeen[];
  readonly intervals: IntervalOptions;
  /** Paired differences with intervals and Holm-adjusted p-values: between models, and between settings. */
  readonly comparisons: {
    readonly models: ModelComparison[];
    readonly settings: SettingComparison[];
    /** With a baseline run only (`report --compare`). */
    readonly runs?: RunComparison[];
    /** With a baseline run only: what the comparison between runs leaves out. */
    readonly runsLeftOut?: RunsLeftOut;
  };
  /** Per-claim results: how much claims matter per condition, each claim per model, and each claim per pair. */
  readonly claims: { readonly spread: ClaimSpread[]; readonly perClaim: ClaimResult[]; readonly pairs: ClaimPairRows };
  /** Read as a pilot: the claims a full run needs to tell two models apart (docs/design/statistics.md). */
  readonly power: PowerPlan[];
  /** Each prompt variant against the default prompts, per role and condition (empty without variants). */
  readonly variants: VariantContrast[];
}

export interface AnalysisOptions {
  readonly intervals: IntervalOptions;
  /** Conversations of each sample kind kept per domain and setting. */
  readonly samplesPerKind: number;
  /** Which agents are prompt variants of which model (the runs' variants); none when absent. */
  readonly variantOf?: VariantOf;
  /** The agents the runs' designs ask for per setting and role: each keeps its rows, with why it has no data where it has none. */
  readonly designed?: readonly DesignedAgent[];
}

const GROUP_ORDER = (domain: Domain, setting: Setting) => (domain === 'subjective' ? 0 : 2) + (setting === 'single' ? 0 : 1);

/**
 * The report's single pass over a run: feed records one at a time (streamed from the store),
 * then `finish`. Every accumulator keeps bounded state (claims x pairs, models x claims, a few
 * sampled conversations), never the records themselves, so memory stays flat on huge runs.
 */
export class TournamentAnalyzer {
  private readonly groups = new Map<string, GroupTally>();
  private readonly calls = new CallLedger();
  private readonly usage = new UsageTally();
  private readonly resamples = new ResampleTally();
  private readonly curves = new TurnCurveTally();
  private readonly openings = new InitialScoreTally();
  private readonly success = new SuccessRateTally();
  private readonly samples: SampleTally;
  private readonly models = new Map<string, { simulated: boolean; roles: Set<Role> }>();
  private readonly claimSets = new Map<string, { domain: Domain; origin: string; license: string; claims: Set<number> }>();
  private readonly settingContrast = new ArmContrast(['single', 'multi']);
  private readonly runContrast = new ArmContrast(['baseline', 'reported']);
  private baselineSeen = false;
  private readonly claimLabels = new Map<string, ClaimLabel>();
  private conversations = 0;

  constructor(private readonly options: AnalysisOptions = { intervals: DEFAULT_INTERVALS, samplesPerKind: 1 }) {
    this.samples = new SampleTally(options.samplesPerKind);
  }

  /**
   * Adds one conversation. Every person of a people study (`person/<id>`) is counted as the one
   * agent `person/*` (`pooledAgent`): a study's 80 participants are one row "people" of the model
   * tables, not 80 models. A person makes no model call, so their turns add nothing to usage or
   * re-samples; each person's opening is still counted once, as theirs. Samples keep the person.
   */
  add(original: ConversationRecord): void {
    const record = pooledRecord(original);
    this.conversations += 1;
    const groupKey = `${record.domain}/${record.setting}`;
    const group = this.groups.get(groupKey) ?? new GroupTally(record.domain, record.setting);
    this.groups.set(groupKey, group);
    group.add(record);
    this.calls.visitNewCalls(original, (call) => {
      if (isPersonAgent(call.model)) return;
      this.usage.add(call);
      this.resamples.add(call);
    });
    this.curves.add(record);
    this.openings.add(original, record.persuadee);
    this.success.add(record);
    this.samples.add(original);
    this.noteModel(record.persuader, record.simulated.persuader, 'persuader');
    this.noteModel(record.persuadee, record.simulated.persuadee, 'persuadee');
    const setKey = [record.domain, record.origin, record.license].join('\u0000');
    const set = this.claimSets.get(setKey) ?? { domain: record.domain, origin: record.origin, license: record.license, claims: new Set<number>() };
    this.claimSets.set(setKey, set);
    const claimKey = recordClaimKey(record);
    set.claims.add(hashString(claimKey));
    if (!this.claimLabels.has(claimKey)) this.claimLabels.set(claimKey, { claimIndex: record.claimIndex, claim: record.claim, question: record.question });
    if (record.status === 'completed' && record.normalizedChange !== null) {
      this.settingContrast.add(record.domain, record.setting === 'single' ? 0 : 1, record.persuader, record.persuadee, claimKey, record.normalizedChange);
      if (this.baselineSeen)
        this.runContrast.add(`${record.domain}/${record.setting}`, 1, record.persuader, record.persuadee, claimKey, record.normalizedChange);
    }
  }

  /**
   * A conversation of the baseline run that the reported runs are compared with (`report
   * --compare`): it enters only the comparison between runs, none of the other analyses. Feed
   * the baseline first: only records added after it are compared.
   */
  addBaseline(record: ConversationRecord): void {
    this.baselineSeen = true;
    if (record.status !== 'completed' || record.normalizedChange === null) return;
    this.runContrast.add(
      `${record.domain}/${record.setting}`,
      0,
      pooledAgent(record.persuader),
      pooledAgent(record.persuadee),
      recordClaimKey(record),
      record.normalizedChange,
    );
  }

  private noteModel(model: string, simulated: boolean, role: Role): void {
    const entry = this.models.get(model) ?? { simulated, roles: new Set<Role>() };
    this.models.set(model, entry);
    entry.roles.add(role);
  }

  private runComparisons(): { runs: RunComparison[]; runsLeftOut: RunsLeftOut } {
    const { comparisons, uncompared, designs } = this.runContrast.result(this.options.intervals);
    const where = (group: string) => {
      const [domain, setting] = group.split('/') as [Domain, Setting];
      return { domain, setting };
    };
    return {
      runs: comparisons.map(({ group, first, second, ...rest }) => ({ ...where(group), baseline: first, value: second, ...rest })),
      runsLeftOut: {
        conditions: designs.map(({ group, ...rest }) => ({ ...where(group), ...rest })),
        models: uncompared.map(({ group, ...rest }) => ({ ...where(group), ...rest })),
      },
    };
  }

  /** Estimates with intervals and every tally; call once, after the last record. */
  finish(): TournamentAnalysis {
    const tallies = [...this.groups.values()].sort((a, b) => GROUP_ORDER(a.domain, a.setting) - GROUP_ORDER(b.domain, b.setting));
    const groups = tallies.map((group) => group.result(this.options.intervals, this.options.designed));
    const claims = tallies.map((group) =>
      analyzeClaims(
        { domain: group.domain, setting: group.setting },
        group.claimTable,
        (cell) => {
          const [persuader = '', persuadee = ''] = cell.split('\u0000');
          return { persuader, persuadee };
        },
        (claimKey) => this.claimLabels.get(claimKey)!,
      ),
    );
    return {
      conversations: this.conversations,
      groups: groups.map((group) => group.counts),
      pairs: groups.flatMap((group) => group.pairs),
      effectiveness: groups.flatMap((group) => group.effectiveness),
      susceptibility: groups.flatMap((group) => group.susceptibility),
      absoluteChange: {
        effectiveness: groups.flatMap((group) => group.absoluteEffectiveness),
        susceptibility: groups.flatMap((group) => group.absoluteSusceptibility),
      },
      turnCurves: this.curves.result().sort((a, b) => GROUP_ORDER(a.domain, a.setting) - GROUP_ORDER(b.domain, b.setting)),
      stanceGroups: groups.flatMap((group) => group.stanceGroups),
      initialScores: this.openings.result(),
      successRates: this.success.result(),
      resampling: this.resamples.result(),
      usage: this.usage.result(),
      samples: this.samples.result(),
      models: [...this.models].map(([model, { simulated, roles }]) => ({ model, simulated, roles: [...roles].sort() })),
      claimSets: [...this.claimSets.values()].map(({ claims, ...set }) => ({ ...set, claims: claims.size })),
      intervals: this.options.intervals,
      comparisons: {
        models: groups.flatMap((group) => group.comparisons),
        settings: this.settingContrast.result(this.options.intervals).comparisons.map(({ group, first, second, ...rest }) => ({
          domain: group as Domain,
          single: first,
          multi: second,
          ...rest,
        })),
        ...(this.baselineSeen ? this.runComparisons() : {}),
      },
      power: powerPlans(groups.flatMap((group) => group.comparisons)),
      variants: tallies.flatMap((group) =>
        variantContrasts({ domain: group.domain, setting: group.setting }, group.claimTable, this.options.variantOf ?? NO_VARIANTS, this.options.intervals),
      ),
      claims: {
        spread: claims.map((claim) => claim.spread),
        perClaim: claims.flatMap((claim) => claim.claims),
        pairs: new ClaimPairRows(claims.map((claim) => claim.claimPairs)),
      },
    };
  }
}

/** The record as the model tables count it: each person as the group `person/*`, never simulated. */
function pooledRecord(record: ConversationRecord): ConversationRecord {
  if (!isPersonAgent(record.persuader) && !isPersonAgent(record.persuadee)) return record;
  return { ...record, persuader: pooledAgent(record.persuader), persuadee: pooledAgent(record.persuadee) };
}

/** Analyses a whole iterable of records in one pass (see `TournamentAnalyzer`). */
export function analyzeTournament(records: Iterable<ConversationRecord>, options?: AnalysisOptions): TournamentAnalysis {
  const analyzer = new TournamentAnalyzer(options);
  for (const record of records) analyzer.add(record);
  return analyzer.finish();
}
