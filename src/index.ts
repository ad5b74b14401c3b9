/**
 * pmiyc as a library: the explicit public API. Everything else is internal and may change.
 */

// Domain
export { AGREEMENT_LABELS, agreementLabel, type AgreementScore, type AgreementLabel } from './domain/agreement-score.js';
export type { Claim, Domain } from './domain/claim.js';
export type { Role } from './domain/roles.js';
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
export { toConversationRecord, conversationId, type ConversationRecord } from './domain/conversation-record.js';
export { InputError } from './domain/input-error.js';
export { deriveSeed } from './domain/random.js';

// Protocol
export { parseTaggedReply, formatTaggedReply, type ParsedReply } from './protocol/tagged-reply.js';

// Engine
export { runConversation, DEFAULT_SAMPLING, type RunConversationInput } from './engine/run-conversation.js';
export type { SamplingSettings } from './engine/sample-turn.js';

// Models
export type { ChatModel, ChatMessage, GenerateRequest, GenerateReply } from './models/chat-model.js';
export { ModelCallError, type CallFailureReason } from './models/model-call-error.js';
export { ScriptedChatModel, type Script, type ScriptedAnswer } from './models/scripted-model.js';
export { SimulatedAgent } from './models/sim/simulated-agent.js';
export { parseSimProfile, NAMED_SIM_PROFILES, type SimProfile } from './models/sim/sim-profile.js';
export { createChatModel, type BuiltChatModel, type ChatModelDependencies } from './models/create-chat-model.js';
export type { ModelSettings } from './models/model-settings.js';
export { withRetry, type RetryOptions, type RetryEvent } from './models/wrappers/with-retry.js';
export { withRateLimit, type RateLimitOptions, type LimiterState } from './models/wrappers/with-rate-limit.js';
export { PROVIDERS, type ProviderInfo } from './models/providers/provider-catalog.js';
export { parseConfig } from './config/parse-config.js';
export type { PmiycConfig, ModelEntry } from './config/config-schema.js';
export { resolveModelSettings } from './config/resolve-model-settings.js';

// Metrics
export { normalizedChange, absoluteChange } from './metrics/normalized-change.js';
export { pairMeans, effectiveness, susceptibility, type PairMean, type ModelMean, type ScoredConversation } from './metrics/model-scores.js';
export { estimateWithIntervals, PairEstimator, DEFAULT_BOOTSTRAP, type BootstrapOptions, type TournamentEstimates, type WithInterval } from './metrics/bootstrap.js';
export { summarizeTournament, type GroupSummary } from './metrics/tournament-summary.js';
export { usageTotals, type UsageTotal } from './metrics/usage-totals.js';
export { analyzeTournament, TournamentAnalyzer, type TournamentAnalysis, type AnalysisOptions, type ModelSeen, type ClaimSetSeen } from './metrics/tournament-analysis.js';
export type { PairResult, ModelResult, StanceGroupResult, GroupCounts } from './metrics/group-tally.js';
export { persuadeeTrajectory, type TurnCurve, type TurnPoint } from './metrics/turn-curves.js';
export { stanceGroupOf, type StanceGroup } from './metrics/stance-groups.js';

// Report
export { buildReportDocument, reportJson, type ReportContext } from './report/build-report-document.js';
export { buildReportFiles, REPORT_FORMATS, type ReportFile, type ReportFormat } from './report/build-report-files.js';
export { REPORT_SCHEMA_VERSION, type ReportDocument, type ReportMeta, type SampleDialogue } from './report/report-document.js';

// Self-report reliability
export {
  analyzeReliability,
  type AnnotationRow,
  type ReliabilityAnalysis,
  type InterAnnotatorAgreement,
  type AgreementEstimate,
  type ConsensusComparison,
} from './metrics/annotation-agreement.js';
export { krippendorffAlpha, type AlphaMetric, type AlphaResult } from './metrics/krippendorff-alpha.js';
export { buildTaskFile, parseTaskFile, type AnnotationTaskFile, type AnnotationTurn } from './annotation/annotation-tasks.js';
export { parseLabelsFile, type LabelsHeader, type TurnLabel } from './annotation/annotation-labels.js';

// Datasets
export { EXAMPLE_CLAIMS } from './datasets/example-claims.js';
export { parseClaimsFile } from './datasets/claims-file.js';

// Runner and store
export { planTournament, type TournamentDesign, type PlannedConversation } from './runner/plan.js';
export { runTournament, type RunTournamentInput } from './runner/run-tournament.js';
export { ResultStore, type RunInfo } from './store/result-store.js';

// LLM as judge (paper Sec. 4.1.2)
export { buildJudgePairs, parseAnthropicRatings, judgePairId, type JudgePair, type JudgePairSet, type RatedArgument } from './datasets/judge-pairs.js';
export { parseJudgePairsFile } from './datasets/judge-pairs-file.js';
export { parseJudgeChoice, type JudgeChoice, type ParsedJudgeChoice } from './protocol/judge-choice.js';
export { judgePair, showsMorePersuasiveFirst, type JudgeSettings, type JudgeTrialRecord, type JudgeTrialOutcome } from './studies/judge-trial.js';
export { synthesizePreference, type PreferenceExample, type SynthesisOutcome } from './studies/judge-synthesis.js';
export { judgeAccuracy, type JudgeAccuracy, type JudgeAccuracySummary, type JudgedPair } from './metrics/judge-accuracy.js';
