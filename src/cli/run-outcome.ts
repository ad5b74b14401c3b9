import { summarizeTournament } from '../metrics/tournament-summary.js';
import { usageTotals } from '../metrics/usage-totals.js';
import { formatSummaryText } from '../report/summary-text.js';
import { formatUsageText } from '../report/usage-text.js';
import type { TournamentResult } from '../runner/run-tournament.js';
import type { ResultStore, RunInfo } from '../store/result-store.js';
import { type CliContext, labelModel } from './terminal.js';

const EXIT_FAILED = 1;
const EXIT_INTERRUPTED = 130;

/** The end of a run: its table, where the results are, and how to go on when it stopped. Returns the exit code. */
export function printRunOutcome(
  result: TournamentResult,
  run: RunInfo,
  store: ResultStore,
  options: { store: string; maxCost?: number },
  context: CliContext,
): number {
  const out = (line = '') => context.stdout.write(`${line}\n`);
  const summary = summarizeTournament(store.conversations(run.id), { replicates: 2000, confidence: 0.95, seed: run.seed });
  out(formatSummaryText(summary, labelModel));
  out();
  out(formatUsageText(usageTotals(store.conversations(run.id)), labelModel));
  out();
  const spent = store.spentUsd(run.id);
  out(
    `Run ${run.name} in ${store.path}: ${result.finished} conversations this session (${result.failed} failed), ${result.skipped} already done; spent $${spent.toFixed(4)} on calls this run made.`,
  );
  const resume = `pmiyc run --store ${options.store} --run ${run.name} --resume`;
  if (result.status === 'completed') {
    out(`Export: pmiyc export --store ${options.store} --run ${run.name} --format jsonl`);
    return 0;
  }
  if (result.stopReason === 'budget') {
    context.stderr.write(
      `pmiyc: stopped before the next call could take the spend past --max-cost $${options.maxCost}. Resume with a higher limit: ${resume} --max-cost <USD>\n`,
    );
    return EXIT_FAILED;
  }
  if (result.stopReason === 'failures') {
    context.stderr.write(
      `pmiyc: stopped: too many failed conversations (--max-failures). See the failure reasons with pmiyc export, fix the cause, then: ${resume} (or --retry-failed)\n`,
    );
    return EXIT_FAILED;
  }
  context.stderr.write(
    `pmiyc: stopped; everything finished so far is stored (${result.abandoned} conversations in progress will be re-run from their stored calls). Resume with: ${resume}\n`,
  );
  return EXIT_INTERRUPTED;
}
