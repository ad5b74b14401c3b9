import { formatCount as count } from '../domain/text-labels.js';
import { DEFAULT_INTERVALS } from '../metrics/claim-estimates.js';
import { summarizeTournament } from '../metrics/tournament-summary.js';
import { describeNothingAsked, formatCallsMadeText, formatRunTotals, type RunTotalsView } from '../report/run-totals-text.js';
import { formatSummaryText } from '../report/summary-text.js';
import { describeReplicaUse } from '../runner/replica-lines.js';
import { describeRunState } from '../runner/run-lease.js';
import { describeFailures, describePendingBatches, describeStop } from '../runner/session-ending.js';
import type { Store } from '../store/result-store.js';
import type { TournamentOutcome } from '../studies/tournament/tournament-study.js';
import { viewCommandLine } from './options.js';
import { type CliContext, labelModel } from './terminal.js';

/** Failure reasons of a run's failed conversations, as stored. */
function failureReasons(store: Store, runId: number): Map<string, number> {
  const reasons = new Map<string, number>();
  for (const record of store.conversations(runId, 'failed'))
    reasons.set(record.failureReason ?? 'unknown', (reasons.get(record.failureReason ?? 'unknown') ?? 0) + 1);
  return reasons;
}

/**
 * A model identity (what served it) named by the run's aliases for it, as the run recorded them
 * (`servedBy`); simulated agents labelled. Identities the run does not name are shown as they are.
 */
function identityLabels(servedBy: unknown): (identity: string) => string {
  const aliases = new Map<string, string[]>();
  if (typeof servedBy === 'object' && servedBy !== null) {
    for (const [alias, identity] of Object.entries(servedBy as Record<string, string>)) aliases.set(identity, [...(aliases.get(identity) ?? []), alias]);
  }
  return (identity) => {
    const label = (aliases.get(identity) ?? [identity]).map(labelModel).join(', ');
    return identity.startsWith('sim/') && !label.includes('[simulated]') ? `${label} [simulated]` : label;
  };
}

/** What the closing lines total: this session's figures from the store's rows since the session began, the whole run's as `pmiyc runs` lists them. */
function totalsOf(outcome: TournamentOutcome, store: Store): RunTotalsView & { failedWholeRun: number } {
  const { run, result, meter } = outcome;
  const listed = store.listRuns().find((candidate) => candidate.id === run.id);
  const completed = listed?.completed ?? 0;
  const failed = listed?.failed ?? 0;
  return {
    finished: { thisSession: result.finished, thisSessionFailed: result.failed, wholeRun: completed + failed, wholeRunFailed: failed },
    ...(listed?.plannedConversations === undefined ? {} : { planned: listed.plannedConversations }),
    calls: store.callTotals(run.id, outcome.callsMark),
    replayedThisSession: meter.replayedFrom,
    replayedWholeRun: listed?.replayed ?? [],
    reusedThisSession: meter.callsShared,
    failedCallsThisSession: meter.callsFailed,
    modelsWithoutPrice: outcome.modelsWithoutPrice,
    failedWholeRun: failed,
  };
}

/** Where a completed run's results are, and its failed conversations with how to run them again. */
function printCompleted(outcome: TournamentOutcome, store: Store, storePath: string, context: CliContext, reportFollows: boolean, failed: number): void {
  const { run } = outcome;
  const out = (line: string) => context.stdout.write(`${line}\n`);
  out(`Export: pmiyc export --store ${storePath} --run ${run.name} --format jsonl`);
  // The demo writes the report next and prints its path with the view command.
  if (!reportFollows) {
    out(`Report: pmiyc report --store ${storePath} --run ${run.name}`);
    out(`View:   ${viewCommandLine(storePath)}`);
  }
  if (failed === 0) return;
  context.stderr.write(
    `pmiyc: ${describeFailures(failureReasons(store, run.id), 'conversations')}: see why with pmiyc view --store ${storePath} (or pmiyc export --store ${storePath} --run ${run.name}); ` +
      `run them again with: pmiyc run --store ${storePath} --run ${run.name} --retry-failed\n`,
  );
}

/** Why a session stopped early, what it leaves for the resume, and the command that resumes it. */
function printStopped(outcome: TournamentOutcome, storePath: string, context: CliContext): void {
  const { run, result, ending, meter } = outcome;
  const stop = describeStop(ending, {
    resume: `pmiyc run --store ${storePath} --run ${run.name} --resume`,
    items: 'conversations',
    blockedModels: outcome.blockedModels,
    ...(outcome.settings.maxCost === undefined ? {} : { maxCost: outcome.settings.maxCost }),
  });
  const pending = describePendingBatches(meter.pendingBatches());
  const leftOver = [
    ...(result.abandoned > 0 ? [`${count(result.abandoned)} conversations in progress will be re-run from their stored calls`] : []),
    ...(pending ? [`${pending}: the resumed run collects them, without paying again`] : []),
  ];
  context.stderr.write(`pmiyc: ${stop}${leftOver.length > 0 ? ` (${leftOver.join('; ')})` : ''}\n`);
}

/**
 * The end of a run: its scores, the calls the whole run made per model, its status, this session's
 * totals beside the whole run's (what `pmiyc runs` lists), and where the results are or how to go on.
 * Returns the exit code.
 */
export function printRunOutcome(
  outcome: TournamentOutcome,
  store: Store,
  storePath: string,
  context: CliContext,
  { reportFollows, askAfresh }: { readonly reportFollows: boolean; readonly askAfresh?: readonly string[] } = { reportFollows: false },
): number {
  const { run, result, ending } = outcome;
  const out = (line = '') => context.stdout.write(`${line}\n`);
  const summary = summarizeTournament(store.conversationScores(run.id), { ...DEFAULT_INTERVALS, seed: run.seed });
  const totals = totalsOf(outcome, store);
  out(formatSummaryText(summary, labelModel));
  out();
  out(formatCallsMadeText(totals.calls, identityLabels((store.findRun(run.name).config as { servedBy?: unknown }).servedBy)));
  out();
  const status = describeRunState({ status: ending.status, ...(ending.stopReason ? { why: ending.stopReason } : {}) }, totals.failedWholeRun);
  out(`Run ${run.name} in ${storePath}: ${status}${result.skipped > 0 ? `; ${count(result.skipped)} conversations were already done` : ''}.`);
  out(formatRunTotals(totals));
  if (!outcome.settings.cache) out('--no-cache: this run reuses nothing from earlier runs.');
  const nothingAsked = describeNothingAsked(totals, askAfresh);
  if (nothingAsked) out(nothingAsked);
  for (const { model, replicas } of outcome.replicaUse) out(`${describeReplicaUse(model, replicas)}.`);
  if (ending.status === 'completed') printCompleted(outcome, store, storePath, context, reportFollows, totals.failedWholeRun);
  else printStopped(outcome, storePath, context);
  return ending.exitCode;
}
