import { formatCount as count } from '../domain/text-labels.js';
import { DEFAULT_INTERVALS } from '../metrics/claim-estimates.js';
import { summarizeTournament } from '../metrics/tournament-summary.js';
import { usageTotals } from '../metrics/usage-totals.js';
import { formatSummaryText } from '../report/summary-text.js';
import { formatUsageText } from '../report/usage-text.js';
import { describeReplicaUse } from '../runner/replica-lines.js';
import { describeCalls, describeFailures, describePendingBatches, describeSpend, describeStop } from '../runner/session-ending.js';
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

/** The end of a run: its table, what it called and replayed, where the results are, and how to go on. Returns the exit code. */
export function printRunOutcome(
  outcome: TournamentOutcome,
  store: Store,
  storePath: string,
  context: CliContext,
  { reportFollows }: { readonly reportFollows: boolean } = { reportFollows: false },
): number {
  const { run, result, ending, meter } = outcome;
  const out = (line = '') => context.stdout.write(`${line}\n`);
  // The scores come from the store's columns, and the usage from what this session tallied as it
  // stored each conversation, unless the run holds others (a resume): then from every record. Decoding
  // every record again was most of the closing time (and of its compilation).
  const summary = summarizeTournament(store.conversationScores(run.id), { ...DEFAULT_INTERVALS, seed: run.seed });
  const usage = store.countConversations(run.id) === meter.conversationsDone ? outcome.sessionUsage.result() : usageTotals(store.conversations(run.id));
  out(formatSummaryText(summary, labelModel));
  out();
  out(formatUsageText(usage, labelModel));
  out();
  const noCache = outcome.settings.cache ? '' : ' (--no-cache: nothing reused from earlier runs)';
  out(
    `Run ${run.name} in ${storePath}: ${count(result.finished)} conversations this session (${count(result.failed)} failed), ${count(result.skipped)} already done; ` +
      `${describeCalls(meter)}${noCache}; spent ${describeSpend(store.spentUsd(run.id), outcome.modelsWithoutPrice)} on calls this run made.`,
  );
  for (const { model, replicas } of outcome.replicaUse) out(`${describeReplicaUse(model, replicas)}.`);
  const resume = `pmiyc run --store ${storePath} --run ${run.name} --resume`;
  if (ending.status === 'completed') {
    out(`Export: pmiyc export --store ${storePath} --run ${run.name} --format jsonl`);
    // The demo writes the report next and prints its path with the view command.
    if (!reportFollows) {
      out(`Report: pmiyc report --store ${storePath} --run ${run.name}`);
      out(`View:   ${viewCommandLine(storePath)}`);
    }
    return ending.exitCode;
  }
  if (ending.status === 'failed') {
    context.stderr.write(
      `pmiyc: ${describeFailures(failureReasons(store, run.id), 'conversations')}: see why with pmiyc view --store ${storePath} (or pmiyc export --store ${storePath} --run ${run.name}); ` +
        `run them again with: pmiyc run --store ${storePath} --run ${run.name} --retry-failed\n`,
    );
    return ending.exitCode;
  }
  const stop = describeStop(ending, {
    resume,
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
  return ending.exitCode;
}
