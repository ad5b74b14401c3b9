import { formatCounted, labelModel } from '../../domain/text-labels.js';
import { DEFAULT_INTERVALS } from '../../metrics/intervals/claim-estimates.js';
import type { RoleCoverage } from '../../metrics/role-coverage.js';
import { summarizeTournament } from '../../metrics/tournament-summary.js';
import { describeReplicaUse } from '../../runner/progress/replica-lines.js';
import { describeRunState } from '../../runner/run-lease.js';
import { describeFailures, describeLeftForResume, describeStop } from '../../runner/session-ending.js';
import type { StudyRunRecords } from '../../studies/run-config.js';
import type { TournamentResults } from '../../studies/tournament/tournament-results.js';
import type { TournamentOutcome } from '../../studies/tournament/tournament-study.js';
import { designedAgentsOf } from '../designed-agents.js';
import { type FailedConversation, type FailureCommands, failingModelsLines, type ModelFailures, tallyModelFailures } from './failing-models-text.js';
import { type ClosingText, describeNothingAsked, formatCallsMadeText, formatRunTotals, type RunTotalsView } from './run-totals-text.js';
import { formatSummaryText } from './summary-text.js';

/** What the closing lines read of the store the run is kept in. */
export type OutcomeRecords = Pick<StudyRunRecords, 'listRuns' | 'callTotals' | 'findRun'> & Pick<TournamentResults, 'conversations' | 'conversationScores'>;

/** What `pmiyc run` and `pmiyc demo` end with, next to the report: how to look inside the run. */
export function viewCommandLine(storePath: string): string {
  return `pmiyc view --store ${storePath}`;
}

/** A run's failed conversations, read once: their reasons as stored, and the models at whose turn they failed. */
function runFailures(records: OutcomeRecords, runId: number, coverage: readonly RoleCoverage[]): { reasons: Map<string, number>; models: ModelFailures[] } {
  const reasons = new Map<string, number>();
  const failed: FailedConversation[] = [];
  for (const record of records.conversations(runId, 'failed')) {
    reasons.set(record.failureReason ?? 'unknown', (reasons.get(record.failureReason ?? 'unknown') ?? 0) + 1);
    const { persuader, persuadee, failedRole, failureReason, failureDetail, claim, question } = record;
    failed.push({ persuader, persuadee, failedRole, failureReason, failureDetail, claim, question });
  }
  return { reasons, models: tallyModelFailures(failed, coverage) };
}

/**
 * A model identity (what served it) named by the run's aliases for it, as the run recorded them
 * (`servedBy`); simulated agents labelled. Identities the run does not name are shown as they are.
 */
function identityLabels(servedBy: Readonly<Record<string, string>> | undefined): (identity: string) => string {
  const aliases = new Map<string, string[]>();
  if (servedBy !== undefined) {
    for (const [alias, identity] of Object.entries(servedBy)) aliases.set(identity, [...(aliases.get(identity) ?? []), alias]);
  }
  return (identity) => {
    const label = (aliases.get(identity) ?? [identity]).map(labelModel).join(', ');
    return identity.startsWith('sim/') && !label.includes('[simulated]') ? `${label} [simulated]` : label;
  };
}

/** What the closing lines total: this session's figures from the store's rows since the session began, the whole run's as `pmiyc runs` lists them. */
function totalsOf(outcome: TournamentOutcome, records: OutcomeRecords): RunTotalsView & { failedWholeRun: number } {
  const { run, result, meter } = outcome;
  const listed = records.listRuns().find((candidate) => candidate.id === run.id);
  const completed = listed?.completed ?? 0;
  const failed = listed?.failed ?? 0;
  return {
    finished: { thisSession: result.finished, thisSessionFailed: result.failed, wholeRun: completed + failed, wholeRunFailed: failed },
    ...(listed?.plannedConversations === undefined ? {} : { planned: listed.plannedConversations }),
    calls: records.callTotals(run.id, outcome.callsMark),
    replayedThisSession: meter.replayedFrom,
    replayedWholeRun: listed?.replayed ?? [],
    reusedThisSession: meter.callsShared,
    failedCallsThisSession: meter.callsFailed,
    modelsWithoutPrice: outcome.modelsWithoutPrice,
    failedWholeRun: failed,
  };
}

/** Where a completed run's results are, and its failed conversations: the models they failed at, why, and what can help. */
function completedText(outcome: TournamentOutcome, storePath: string, reportFollows: boolean, failures: RunFailures | undefined): ClosingText {
  const { run } = outcome;
  const lines = [`Export: pmiyc export --store ${storePath} --run ${run.name} --format jsonl`];
  // The demo writes the report next and prints its path with the view command.
  if (!reportFollows) lines.push(`Report: pmiyc report --store ${storePath} --run ${run.name}`, `View:   ${viewCommandLine(storePath)}`);
  if (!failures) return { lines };
  const seeWhy = `${describeFailures(failures.reasons, 'conversations')}: see why with pmiyc view --store ${storePath} (or pmiyc export --store ${storePath} --run ${run.name})`;
  const perModel = failingModelsLines(failures.models, failures.commands);
  // Without a model to name (records that say no failing role), asking again is all there is to suggest.
  if (perModel.length === 0) return { lines, warning: `${seeWhy}; run them again with: pmiyc run --store ${storePath} --run ${run.name} --retry-failed` };
  return { lines, warning: [seeWhy, ...perModel.map((line) => `  ${line}`)].join('\n') };
}

/** The run's failed conversations, by reason and by the model they failed at, with where the commands that may help are. */
interface RunFailures {
  readonly reasons: Map<string, number>;
  readonly models: ModelFailures[];
  readonly commands: FailureCommands;
}

/** Why a session stopped early, what it leaves for the resume, and the command that resumes it. */
function stoppedText(outcome: TournamentOutcome, storePath: string): string {
  const { run, result, ending, meter } = outcome;
  const stop = describeStop(ending, {
    resume: `pmiyc run --store ${storePath} --run ${run.name} --resume`,
    items: 'conversations',
    blockedModels: outcome.blockedModels,
    budgetRefusal: outcome.budgetRefusal,
    ...(outcome.settings.maxCost === undefined ? {} : { maxCost: outcome.settings.maxCost }),
  });
  return `${stop}${describeLeftForResume(result.abandoned, { one: 'conversation', many: 'conversations' }, meter.pendingBatches())}`;
}

/**
 * The end of a run: its scores, the calls the whole run made per model, its status, this session's
 * totals beside the whole run's (what `pmiyc runs` lists), and where the results are or how to go on.
 * `reportFollows`: the caller writes the report and says where (the demo); `askAfresh`: the caller's
 * flags that ask other requests of the models (default: those of pmiyc run).
 */
export function runOutcomeText(
  outcome: TournamentOutcome,
  records: OutcomeRecords,
  storePath: string,
  { reportFollows, askAfresh }: { readonly reportFollows: boolean; readonly askAfresh?: readonly string[] },
): ClosingText {
  const { run, result, ending } = outcome;
  const { config } = records.findRun(run.name);
  const configPath = config.kind === 'unreadable' ? undefined : config.configPath;
  const summary = summarizeTournament(records.conversationScores(run.id), { ...DEFAULT_INTERVALS, seed: run.seed }, designedAgentsOf([config]));
  const totals = totalsOf(outcome, records);
  const status = describeRunState({ status: ending.status, ...(ending.stopReason ? { why: ending.stopReason } : {}) }, totals.failedWholeRun);
  const nothingAsked = describeNothingAsked(totals, askAfresh);
  const lines = [
    formatSummaryText(summary, labelModel),
    '',
    formatCallsMadeText(totals.calls, identityLabels(config.servedBy)),
    '',
    `Run ${run.name} in ${storePath}: ${status}${result.skipped > 0 ? `; ${formatCounted(result.skipped, 'conversation was', 'conversations were')} already done` : ''}.`,
    formatRunTotals(totals),
    ...(outcome.settings.cache ? [] : ['--no-cache: this run reuses nothing from earlier runs.']),
    ...(nothingAsked ? [nothingAsked] : []),
    ...outcome.replicaUse.map(({ model, replicas }) => `${describeReplicaUse(model, replicas)}.`),
  ];
  const failures =
    totals.failedWholeRun === 0
      ? undefined
      : {
          ...runFailures(
            records,
            run.id,
            summary.flatMap((group) => group.coverage),
          ),
          commands: { storePath, runName: run.name, ...(configPath === undefined ? {} : { configPath }) },
        };
  if (ending.status !== 'completed') {
    const perModel = failures ? failingModelsLines(failures.models, failures.commands) : [];
    return { lines, warning: [stoppedText(outcome, storePath), ...perModel.map((line) => `  ${line}`)].join('\n') };
  }
  const completed = completedText(outcome, storePath, reportFollows, failures);
  return { lines: [...lines, ...completed.lines], ...(completed.warning ? { warning: completed.warning } : {}) };
}
