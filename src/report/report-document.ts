import type { AgreementScore } from '../domain/agreement-score.js';
import type { Domain } from '../domain/claim.js';
import type { Setting, TurnKind } from '../domain/conversation.js';
import type { Role } from '../domain/roles.js';
import type { ReliabilityAnalysis } from '../metrics/agreement/annotation-agreement.js';
import type { SampleKind } from '../metrics/conversation-samples.js';
import type { IntervalMethod } from '../metrics/intervals/claim-estimates.js';
import type { CappedPowerPlan } from '../metrics/intervals/power.js';
import type { SequentialSummary } from '../metrics/sequential/sequential-replay.js';
import type { TournamentAnalysis } from '../metrics/tournament-analysis.js';
import type { Sampling } from '../studies/design-parts.js';
import type { ProtocolFigures } from '../studies/protocol-outputs.js';
import type { RunConfig } from '../studies/run-config.js';
import type { AcrossProtocols } from './protocols/across-protocols-shape.js';
import type { AliasIdentity } from './run-aliases.js';
import type { DriftReport } from './sections/drift-report.js';
import type { ImportedResults } from './sections/imported-figures.js';
import type { PeopleReport } from './sections/people-report.js';
import type { AnalysisReport } from './studies/analysis-figures.js';
import type { ConsistencyStudyReport } from './studies/consistency-figures.js';
import type { JudgeStudySection } from './studies/judge-figures.js';

/** Bumped when a field of report.json changes meaning or disappears (adding fields does not). */
export const REPORT_SCHEMA_VERSION = 2;

/** One run that went into the report. */
export interface ReportRun {
  readonly name: string;
  readonly createdAt: string;
  /** The run's seed; null for an imported run (`pmiyc import official`), whose files keep none. */
  readonly seed: number | null;
  readonly packageVersion: string;
  readonly status?: string;
  readonly gitRevision?: string;
  /** The resolved configuration the run started with, as the store keeps it (never any key). */
  readonly config?: unknown;
  /**
   * The same config read by its kind's schema (studies/run-config.ts): what the report reads of it.
   * Not written: report.json keeps `config` as stored (`reportJson`).
   */
  readonly runConfig?: RunConfig;
}

/**
 * Conversations of a combined run that an earlier run of the report (in the order given) already
 * had, by conversation id: left out, so that each conversation is counted once, from the earlier run.
 */
export interface ReportDuplicates {
  /** The run whose copies were left out. */
  readonly run: string;
  /** The earlier run whose copies were counted. */
  readonly alsoIn: string;
  readonly conversations: number;
}

/** What ran and how the numbers were made. */
export interface ReportMeta {
  readonly runs: ReportRun[];
  readonly generatedAt: string;
  /** The pmiyc version that wrote the report (each run names the one that ran it). */
  readonly generatedBy: string;
  readonly conversations: number;
  /** Conversations found in more than one combined run: counted once, from the first run listed. */
  readonly duplicatesSkipped: number;
  /** The same, per run left out and run counted; empty when nothing was left out. */
  readonly duplicates: ReportDuplicates[];
  readonly models: ReadonlyArray<{ model: string; label: string; simulated: boolean; roles: Role[] }>;
  /** What each alias of the runs was: provider, model id, endpoint host, revision, temperature and output limit, as the runs recorded them. */
  readonly aliases: AliasIdentity[];
  readonly simulatedAgents: boolean;
  readonly settings: ReadonlyArray<{ domain: Domain; setting: Setting; turnsPlanned: number[] }>;
  readonly claimSets: ReadonlyArray<{ domain: Domain; origin: string; license: string; claims: number; nonCommercial: boolean }>;
  /**
   * How the intervals were made (schema 2; schema 1 had `bootstrap`, always percentile): the method,
   * the coverage, claims as the unit, the bootstrap's replicates and seed (null for t), and the
   * counts below which an estimate is marked `thin`.
   */
  readonly intervals: {
    method: IntervalMethod;
    confidence: number;
    unit: 'claim';
    replicates: number | null;
    seed: number | null;
    thinBelow: { claims: number; varyingClaims: number };
  };
  /** Things a reader must know before trusting a number (mixed turn counts, disjoint runs). */
  readonly notes: string[];
  /**
   * A run made with `pmiyc run --until settled` (absent otherwise, and for combined runs): the rule,
   * how many claims it ran of those planned, why it stopped, and each quantity's anytime-valid
   * interval, replayed from the stored conversations (docs/design/sequential.md).
   */
  readonly sequential?: SequentialSummary;
}

/** A sampled conversation as a dialogue, with its id to open it with `pmiyc show ID` (or find it in `pmiyc view`). */
export interface SampleDialogue {
  readonly kind: SampleKind;
  readonly run: string | null;
  readonly conversationId: string;
  readonly domain: Domain;
  readonly setting: Setting;
  readonly persuader: string;
  readonly persuadee: string;
  readonly claim: string;
  readonly question: string | null;
  readonly initialScore: AgreementScore | null;
  readonly finalScore: AgreementScore | null;
  readonly normalizedChange: number | null;
  readonly earlyStopped: boolean | null;
  readonly turns: ReadonlyArray<{
    index: number;
    role: Role;
    kind: TurnKind;
    message: string;
    score: AgreementScore;
    attempts: number;
    /** An imported turn pmiyc's parser reads differently: what each read (`dispute-text.ts`). */
    dispute?: string;
  }>;
}

/** Results of the validation studies (issue 7) that belong to the reported runs; a key is absent when there is none. */
export interface ReportStudies {
  /** Consistency studies (paper Table 1): a reported run that is a study, or studies that name a reported run. */
  readonly consistency?: ConsistencyStudyReport[];
  /** Self-report reliability (paper Sec. 5.2, Fig. 8): human labels of persuadee turns against the models' own scores. */
  readonly reliability?: ReliabilityAnalysis;
  /** LLM as judge (paper Sec. 4.1.2): judge accuracy on argument pairs people rated. */
  readonly judge?: JudgeStudySection;
}

/**
 * report.json: every number of the report. Field names of `pairs`, `effectiveness`,
 * `susceptibility`, `comparisons`, `claims`, `turnCurves`, `stanceGroups` and `successRates` are
 * public (other tools read them). Missing values (no data, no interval) are null. `claims.pairs`
 * (each pair on each claim) is written to claim-pairs.csv only: in JSON it would outweigh the rest.
 * The analysis fields (`techniques`, `ethics`, `refusals`, `roleBreaks`, `judgeAgreement`) are
 * absent when the reported runs have no analysis study (`AnalysisReport`).
 */
export interface ReportDocument extends Omit<TournamentAnalysis, 'models' | 'claimSets' | 'intervals' | 'conversations' | 'samples' | 'power'>, AnalysisReport {
  readonly schemaVersion: number;
  /** The analysis' power plans, read against each domain's claim set (docs/design/statistics.md). */
  readonly power: CappedPowerPlan[];
  readonly meta: ReportMeta;
  readonly samples: SampleDialogue[];
  readonly studies: ReportStudies;
  /** Imported results (`pmiyc import official`) only: where they come from, and the headline figures without disputed conversations. */
  readonly imported?: ImportedResults;
  /** Drift of persuaders (paper Sec. 5.3, `--probe-drift`): absent when no reported run has drift probes (drift-section.ts). */
  readonly drift?: DriftReport;
  /** People against models (issue 31): absent when no reported run has people (people-report.ts). */
  readonly people?: PeopleReport;
  /** The sections of the reported runs of a protocol beside PMIYC's (APE, ...): absent when there is none. */
  readonly protocols?: ReportProtocolSection[];
  /** One table across the protocols of the reported runs (the tournament's among them): absent with fewer than two protocols. */
  readonly acrossProtocols?: AcrossProtocols;
}

/**
 * One protocol run's section of a report (docs/design/protocols.md, "Report"): which run and protocol, its
 * models, and the figures the protocol made of its records. In report.json: `run`, `protocol`, `title`,
 * `models`, `conversations`, and `figures`, the protocol's own JSON.
 */
export interface ReportProtocolSection {
  readonly run: string;
  readonly protocol: string;
  /** The models the run called, each with whether it is a simulated agent (labelled so wherever it is named). */
  readonly models: ReadonlyArray<{ readonly model: string; readonly simulated: boolean }>;
  /** The finished conversations (the protocol's stored items) the figures rest on. */
  readonly conversations: number;
  readonly figures: ProtocolFigures;
  /** How the run sampled each model, by alias, where its protocol says it per role (`ProtocolOutputs.modelSampling`): for "What ran". */
  readonly modelSampling?: Readonly<Record<string, Sampling>>;
}

/**
 * The report of protocol runs alone (no tournament among the reported runs): what ran and each run's
 * section. report.json says so with `kind: 'protocols'` and has no tournament field.
 */
export interface ProtocolRunsDocument {
  readonly schemaVersion: number;
  readonly kind: 'protocols';
  readonly meta: Pick<ReportMeta, 'runs' | 'generatedAt' | 'generatedBy' | 'aliases' | 'simulatedAgents' | 'notes'> & {
    /** Conversations of every section. */
    readonly conversations: number;
    readonly models: ReadonlyArray<{ readonly model: string; readonly label: string; readonly simulated: boolean }>;
  };
  readonly protocols: ReportProtocolSection[];
  /** One table across the runs' protocols: absent with fewer than two protocols. */
  readonly acrossProtocols?: AcrossProtocols;
}

/** Whether a report's document is of protocol runs alone. */
export const isProtocolRunsDocument = (document: ReportDocument | ProtocolRunsDocument): document is ProtocolRunsDocument =>
  'kind' in document && document.kind === 'protocols';
