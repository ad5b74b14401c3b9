import { summarizeTournament } from '../metrics/tournament-summary.js';
import { usageTotals } from '../metrics/usage-totals.js';
import { formatSummaryText } from '../report/summary-text.js';
import { formatUsageText } from '../report/usage-text.js';
import type { RunMeter } from '../runner/run-meter.js';
import type { TournamentResult } from '../runner/run-tournament.js';
import type { ResultStore, RunInfo } from '../store/result-store.js';
import { describeFailures, describeStop, type SessionEnding } from './run-ending.js';
import type { StudySession } from './study-session.js';
import { type CliContext, labelModel } from './terminal.js';

const count = (value: number) => value.toLocaleString('en-US');

/** "calls: 1,204 made, 312 shared within the run, 88 replayed from earlier runs (run-1: 80, run-2: 8)" */
export function describeCalls(meter: RunMeter): string {
  const sources = [...meter.replayedFrom].sort((a, b) => b[1] - a[1]).map(([run, calls]) => `${run}: ${count(calls)}`);
  const replayed =
    meter.callsReplayed > 0 ? `${count(meter.callsReplayed)} replayed from earlier runs (${sources.join(', ')})` : 'none replayed from earlier runs';
  return `calls: ${count(meter.callsMade)} made, ${count(meter.callsShared)} reused within the run (shared or resumed), ${replayed}, ${count(meter.callsFailed)} failed`;
}

/** Failure reasons of a run's failed conversations, as stored. */
function failureReasons(store: ResultStore, runId: number): Map<string, number> {
  const reasons = new Map<string, number>();
  for (const record of store.conversations(runId, 'failed'))
    reasons.set(record.failureReason ?? 'unknown', (reasons.get(record.failureReason ?? 'unknown') ?? 0) + 1);
  return reasons;
}

/** The end of a run: its table, what it called and replayed, where the results are, and how to go on. Returns the exit code. */
export function printRunOutcome(
  result: TournamentResult,
  ending: SessionEnding,
  run: RunInfo,
  store: ResultStore,
  session: StudySession,
  options: { store: string; maxCost?: number },
  context: CliContext,
): number {
  const out = (line = '') => context.stdout.write(`${line}\n`);
  const summary = summarizeTournament(store.conversations(run.id), { replicates: 2000, confidence: 0.95, seed: run.seed });
  out(formatSummaryText(summary, labelModel));
  out();
  out(formatUsageText(usageTotals(store.conversations(run.id)), labelModel));
  out();
  const noCache = (run.config as { settings?: { cache?: boolean } }).settings?.cache === false ? ' (--no-cache: nothing reused from earlier runs)' : '';
  out(
    `Run ${run.name} in ${store.path}: ${count(result.finished)} conversations this session (${count(result.failed)} failed), ${count(result.skipped)} already done; ` +
      `${describeCalls(session.meter)}${noCache}; spent $${store.spentUsd(run.id).toFixed(4)} on calls this run made.`,
  );
  const resume = `pmiyc run --store ${options.store} --run ${run.name} --resume`;
  if (ending.status === 'completed') {
    out(`Export: pmiyc export --store ${options.store} --run ${run.name} --format jsonl`);
    return ending.exitCode;
  }
  if (ending.status === 'failed') {
    context.stderr.write(
      `pmiyc: ${describeFailures(failureReasons(store, run.id), 'conversations')}: see why with pmiyc export --store ${options.store} --run ${run.name}; ` +
        `run them again with: pmiyc run --store ${options.store} --run ${run.name} --retry-failed\n`,
    );
    return ending.exitCode;
  }
  const stop = describeStop(ending, {
    resume,
    items: 'conversations',
    blockedModels: session.gate.blockedModels,
    ...(options.maxCost === undefined ? {} : { maxCost: options.maxCost }),
  });
  const inProgress = result.abandoned > 0 ? ` (${count(result.abandoned)} conversations in progress will be re-run from their stored calls)` : '';
  context.stderr.write(`pmiyc: ${stop}${inProgress}\n`);
  return ending.exitCode;
}
