/**
 * pmiyc as a library: the explicit public API. Everything else is internal and may change.
 */

export type { ModelEntry, PmiycConfig } from './config/config-schema.js';
export { parseConfig } from './config/parse-config.js';
export { resolveModelSettings } from './config/resolve-model-settings.js';
// Taxonomies of persuasion techniques and unethical strategies (docs/design/techniques.md)
export { BUILT_IN_TAXONOMIES } from './config/taxonomy/built-in-taxonomies.js';
export { parseTaxonomy, type TaxonomyParse, type TaxonomyProblem, taxonomyError } from './config/taxonomy/parse-taxonomy.js';
export { parseClaimsFile } from './datasets/claims-file.js';
// Datasets
export { EXAMPLE_CLAIMS } from './datasets/example-claims.js';
// LLM as judge (paper Sec. 4.1.2)
export { buildJudgePairs, type JudgePair, type JudgePairSet, judgePairId, parseAnthropicRatings, type RatedArgument } from './datasets/judge-pairs.js';
export { parseJudgePairsFile } from './datasets/judge-pairs-file.js';
// Domain
export { AGREEMENT_LABELS, type AgreementLabel, type AgreementScore, agreementLabel } from './domain/agreement-score.js';
export type { Claim, Domain } from './domain/claim.js';
export type {
  Attempt,
  CompletedConversation,
  ConversationOutcome,
  ConversationSpec,
  FailedConversation,
  FailureReason,
  PartialConversation,
  Setting,
  Turn,
  Usage,
} from './domain/conversation.js';
export {
  type ConversationRecord,
  conversationId,
  type DisputedScore,
  type ImportedFrom,
  type ReadingDifference,
  toConversationRecord,
} from './domain/conversation-record.js';
// Errors: one family; isPmiycError tells them from defects, `kind` says which
export { ConfigError, type ConfigLocation } from './domain/errors/config-error.js';
export { type DataLocation, DatasetError } from './domain/errors/dataset-error.js';
export { InputError } from './domain/errors/input-error.js';
export { isPmiycError, PmiycError, type PmiycErrorKind } from './domain/errors/pmiyc-error.js';
export { StoreError, type StoreProblem } from './domain/errors/store-error.js';
export { StoreFullError } from './domain/errors/store-full-error.js';
export { deriveSeed } from './domain/random.js';
export type { Role } from './domain/roles.js';
export type { Taxonomy, TaxonomyItem } from './domain/taxonomy.js';
// Engine
export { DEFAULT_SAMPLING, type RunConversationInput, runConversation } from './engine/run-conversation.js';
export type { SamplingSettings } from './engine/sample-turn.js';
export { type LoadedTaxonomy, loadTaxonomy } from './io/inputs/load-taxonomy.js';
export { type ProcessWorldOptions, processSessionWorld } from './io/process/process-world.js';
// Self-report reliability
export {
  type AgreementEstimate,
  type AnnotationRow,
  analyzeReliability,
  type ConsensusComparison,
  type InterAnnotatorAgreement,
  type ReliabilityAnalysis,
} from './metrics/agreement/annotation-agreement.js';
export { type JudgeAccuracy, type JudgeAccuracySummary, type JudgedPair, judgeAccuracy } from './metrics/agreement/judge-accuracy.js';
export { type AlphaMetric, type AlphaResult, krippendorffAlpha } from './metrics/agreement/krippendorff-alpha.js';
export type { GroupCounts, ModelComparison, ModelResult, PairResult, StanceGroupResult } from './metrics/group-tally.js';
export { type BootstrapOptions, DEFAULT_BOOTSTRAP, type WithInterval } from './metrics/intervals/claim-cell-table.js';
export {
  type ClaimEstimate,
  DEFAULT_INTERVALS,
  INTERVAL_METHODS,
  type IntervalMethod,
  type IntervalOptions,
  isThin,
} from './metrics/intervals/claim-estimates.js';
export { holmAdjust } from './metrics/intervals/holm.js';
export { effectiveness, type ModelMean, type PairMean, pairMeans, type ScoredConversation, susceptibility } from './metrics/model-scores.js';
// Metrics
export { absoluteChange, normalizedChange } from './metrics/normalized-change.js';
export { type ClaimInterval, estimateWithIntervals, type ModelDifference, PairEstimator, type TournamentEstimates } from './metrics/pair-estimates.js';
export { type StanceGroup, stanceGroupOf } from './metrics/stance-groups.js';
export {
  type AnalysisOptions,
  analyzeTournament,
  type ClaimSetSeen,
  type ModelSeen,
  type RunComparison,
  type SettingComparison,
  type TournamentAnalysis,
  TournamentAnalyzer,
} from './metrics/tournament-analysis.js';
export { type GroupSummary, summarizeTournament } from './metrics/tournament-summary.js';
export { persuadeeTrajectory, type TurnCurve, type TurnPoint } from './metrics/turn-curves.js';
export { type UsageTotal, usageTotals } from './metrics/usage/usage-totals.js';
export { type CachedReply, type CallCache, MemoryCallCache } from './models/call-cache.js';
// Models
export type { ChatMessage, ChatModel, GenerateReply, GenerateRequest } from './models/chat-model.js';
export { type BuiltChatModel, type ChatModelDependencies, createChatModel } from './models/create-chat-model.js';
export { type CallFailureReason, ModelCallError } from './models/model-call-error.js';
export type { ModelSettings } from './models/model-settings.js';
export { PROVIDERS, type ProviderInfo } from './models/providers/provider-catalog.js';
export type { ReplicaEvent, ReplicaPoolView, ReplicaView } from './models/providers/replicas/replica-pool.js';
export { type Script, type ScriptedAnswer, ScriptedChatModel } from './models/scripted-model.js';
export { NAMED_SIM_PROFILES, parseSimProfile, type SimProfile } from './models/sim/sim-profile.js';
export { SimulatedAgent } from './models/sim/simulated-agent.js';
export type { SimulatedProtocol } from './models/sim/simulated-protocol.js';
export { type LimiterState, type RateLimitOptions, withRateLimit } from './models/wrappers/with-rate-limit.js';
export { type RetryEvent, type RetryOptions, withRetry } from './models/wrappers/with-retry.js';
export { type JudgeChoice, type ParsedJudgeChoice, parseJudgeChoice } from './protocol/judge-choice.js';
// Protocol
export { formatTaggedReply, type ParsedReply, parseTaggedReply } from './protocol/tagged-reply.js';
// Report
export { buildReportDocument, type ReportContext, reportJson } from './report/build-report-document.js';
export { buildReportFiles, type ReportFile } from './report/build-report-files.js';
export { REPORT_SCHEMA_VERSION, type ReportDocument, type ReportMeta, type SampleDialogue } from './report/report-document.js';
export { REPORT_FORMATS, type ReportFormat } from './report/report-formats.js';
export { type DeadModel, DeadModelsError } from './runner/models/check-models-answer.js';
export { RunInUseError } from './runner/run-in-use-error.js';
export type { RunAbout, RunInfo, RunKind, RunStatus, RunSummary } from './runner/run-records.js';
export type { SessionWorld } from './runner/run-session.js';
export { quietSignals, type RunSignals, StopRequest } from './runner/run-signals.js';
export type { SessionEnding } from './runner/session-ending.js';
export { openStore, type Store, type StoreAccess } from './store/result-store.js';
export { type AnalysisDesign, analysisDesignFromOptions, DEFAULT_TAXONOMY } from './studies/analysis/analysis-design.js';
export { ANALYSIS_GRAINS, type AnalysisGrain, DEFAULT_GRAIN } from './studies/analysis/analysis-grain.js';
export type { AnalysisResults, StoredDriftProbe, StoredTurnLabels } from './studies/analysis/analysis-results.js';
export { type AnalysisOutcome, type RunAnalysisInput, runAnalysisStudy } from './studies/analysis/analysis-study.js';
export { type ConversationLabelsOutcome, type ConversationTask, labelConversation } from './studies/analysis/label-conversation.js';
export { labelTurn, type TurnOutcome, type TurnTask } from './studies/analysis/label-turn.js';
export { type LabelsHeader, parseLabelsFile, type TurnLabel } from './studies/annotation/annotation-labels.js';
export { type AnnotationTaskFile, type AnnotationTurn, buildTaskFile, parseTaskFile } from './studies/annotation/annotation-tasks.js';
export { type PreferenceExample, type SynthesisOutcome, synthesizePreference } from './studies/judge/judge-synthesis.js';
export { type JudgeSettings, type JudgeTrialOutcome, type JudgeTrialRecord, judgePair, showsMorePersuasiveFirst } from './studies/judge/judge-trial.js';
// Runner and store
export { type PlannedConversation, planTournament, type TournamentDesign } from './studies/tournament/plan.js';
export { type ConversationsResult, type RunConversationsInput, runConversations } from './studies/tournament/run-conversations.js';
export { TOURNAMENT_DEFAULTS } from './studies/tournament/tournament-design.js';
export { type RunTournamentInput, runTournament, type SequentialOutcome, type TournamentOutcome } from './studies/tournament/tournament-study.js';
