import { formatCount, formatCounted } from '../domain/text-labels.js';
import type { BatchView } from '../models/batch/batch-queue.js';
import type { BudgetRefusal, StopReason } from './run-gate.js';
import type { StoredRunStatus } from './run-lease.js';
import { type RunSignals, STOPPING_SIGNALS, stoppingSignal } from './run-signals.js';

/** Exit codes (SPEC 4): 0 done, 1 a failed item or a stop that needs the user, 2 bad input; a signal: 128 + its number. */
const EXIT_DONE = 0;
export const EXIT_FAILED = 1;

/**
 * A session stopped by a write its store's disk refused (full, or a size limit reached): interrupted, not
 * failed, since nothing is wrong with the run; exit 2, as for what the user must change before `--resume`.
 */
export const DISK_FULL_ENDING: SessionEnding = { status: 'interrupted', stopReason: 'disk', exitCode: 2 };

/** How a session of a run ended: what the store records, and the exit code. */
export interface SessionEnding {
  readonly status: StoredRunStatus;
  /** Why a failed or interrupted run stopped: failures (--max-failures); SIGINT, SIGTERM, SIGHUP, budget, auth, lease, disk. */
  readonly stopReason?: string;
  readonly exitCode: number;
}

/**
 * From the scheduler's result and the failed items the run holds now (this session's and earlier
 * ones'): completed when the plan ran to its end, failed items or not (with some, exit 1 and
 * `--retry-failed` or a resume asks them again); failed when too many items failed
 * (--max-failures); interrupted when it stopped early otherwise (a signal exits 128 + its number,
 * anything else 1). A session that ends on an exception is recorded as failed (error) by the session.
 */
export function sessionEnding(result: { status: 'completed' | 'stopped'; stopReason?: StopReason }, failedInRun: number, signals: RunSignals): SessionEnding {
  if (result.status === 'completed') return { status: 'completed', exitCode: failedInRun > 0 ? EXIT_FAILED : EXIT_DONE };
  const reason = result.stopReason ?? 'interrupted';
  if (reason === 'interrupted') {
    const signal = stoppingSignal(signals);
    return { status: 'interrupted', stopReason: signal, exitCode: STOPPING_SIGNALS[signal] };
  }
  if (reason === 'failures') return { status: 'failed', stopReason: reason, exitCode: EXIT_FAILED };
  return { status: 'interrupted', stopReason: reason, exitCode: EXIT_FAILED };
}

/**
 * A session that completed its plan without doing one item, having stopped some of its models because
 * their calls failed with a lasting cause (`RunGate.stoppedModels`: cannot reach, no such model): exit 2,
 * as when the check before the start finds them dead, since a server or the config must change before
 * anything can be done. Its status and failed items are kept (--retry-failed or a resume asks them again).
 */
export function endingWithStoppedModels(ending: SessionEnding, stoppedModels: number, itemsDone: number): SessionEnding {
  if (ending.status !== 'completed' || stoppedModels === 0 || itemsDone > 0) return ending;
  return { ...ending, exitCode: EXIT_NOTHING_DONE };
}

/** The exit code of a session that could do nothing because its models do not answer. */
const EXIT_NOTHING_DONE = 2;

export interface StopContext {
  /** The command that continues the run, e.g. `pmiyc run --store x.db --run r --resume`. */
  readonly resume: string;
  readonly maxCost?: number;
  /** Where the spend stood when the budget refused a call (the run gate's `budgetRefusal`). */
  readonly budgetRefusal?: BudgetRefusal | undefined;
  /** Models whose calls stopped because their credentials were refused, with why. */
  readonly blockedModels: ReadonlyMap<string, string>;
  /** What the run's items are called ("conversations", "trials", "answers"). */
  readonly items: string;
}

const usd = (amount: number) => `$${amount.toFixed(4)}`;

/**
 * ": $0.0248 spent and $0.0240 reserved by calls in flight ..., the next call needed up to $0.0030":
 * why the budget stopped a run whose spend is still well under it. A call in flight holds the most it
 * could cost until it ends, so the spend never passes the limit, even when every call costs its most.
 */
function budgetDetail(refusal: BudgetRefusal | undefined): string {
  if (refusal === undefined) return '';
  return (
    `: ${usd(refusal.spentUsd)} spent and ${usd(refusal.reservedUsd)} reserved by the calls in flight then ` +
    `(each holds the most it could cost, at its max tokens, until it ends, and counts against the limit), ` +
    `and the next call needed up to ${usd(refusal.refusedUsd)}`
  );
}

/** The one line that says why an interrupted session stopped and how to go on. */
export function describeStop(ending: SessionEnding, context: StopContext): string {
  switch (ending.stopReason) {
    case 'budget':
      return `stopped before the next call could take the spend past --max-cost $${context.maxCost}${budgetDetail(context.budgetRefusal)}; resume with a higher limit: ${context.resume} --max-cost <USD>`;
    case 'failures':
      return `stopped: too many failed ${context.items} (--max-failures); see why with pmiyc view (or pmiyc export), fix the cause, then: ${context.resume} (or --retry-failed)`;
    case 'auth':
      return `stopped the calls of ${[...context.blockedModels.keys()].join(', ')}: the server refused the credentials; their ${context.items} are not stored as failed. Fix the key, then resume: ${context.resume}`;
    case 'lease':
      return `another process took this run over, so this one stopped; everything finished so far is stored (see pmiyc runs)`;
    default:
      return `stopped by ${ending.stopReason ?? 'SIGINT'}; everything finished so far is stored. Resume with: ${context.resume}`;
  }
}

/**
 * "120 requests in 2 provider batches stay pending at the provider" (undefined when none do): what a
 * stopped run leaves at the provider, never cancelled, and collected (not paid again) by --resume.
 */
export function describePendingBatches(batches: readonly BatchView[]): string | undefined {
  if (batches.length === 0) return undefined;
  const requests = batches.reduce((sum, batch) => sum + batch.lines, 0);
  return `${formatCounted(requests, 'request')} in ${formatCounted(batches.length, 'provider batch', 'provider batches')} stay pending at the provider`;
}

/**
 * What a stopped session leaves for --resume, as the stop's parenthesis: its items in progress (re-run from their
 * stored calls) and the requests pending in provider batches (collected, not paid again); empty when neither.
 */
export function describeLeftForResume(abandoned: number, item: { readonly one: string; readonly many: string }, batches: readonly BatchView[]): string {
  const pending = describePendingBatches(batches);
  const leftOver = [
    ...(abandoned > 0 ? [`${formatCounted(abandoned, item.one, item.many)} in progress will be re-run from their stored calls`] : []),
    ...(pending ? [`${pending}: the resumed run collects them, without paying again`] : []),
  ];
  return leftOver.length > 0 ? ` (${leftOver.join('; ')})` : '';
}

/** "12 conversations failed (api: 8, format: 4)" */
export function describeFailures(failures: ReadonlyMap<string, number>, items: string): string {
  const total = [...failures.values()].reduce((sum, count) => sum + count, 0);
  const reasons = [...failures].sort((a, b) => b[1] - a[1]).map(([reason, count]) => `${reason}: ${count}`);
  return `${formatCount(total)} ${items} failed (${reasons.join(', ')})`;
}

/** Models named in "no price for ..." before the rest are counted. */
const NAMED_UNPRICED = 3;

/**
 * "$0.0123", and when some models have no price: "$0.0123 (no price for sim/a, gpt-x)". The live
 * display and the run's outcome both say the spend this way, from the same figure.
 */
export function describeSpend(spentUsd: number, modelsWithoutPrice: readonly string[]): string {
  const amount = `$${spentUsd.toFixed(4)}`;
  if (modelsWithoutPrice.length === 0) return amount;
  const named = modelsWithoutPrice.slice(0, NAMED_UNPRICED).join(', ');
  const more = modelsWithoutPrice.length > NAMED_UNPRICED ? ` and ${modelsWithoutPrice.length - NAMED_UNPRICED} more` : '';
  return `${amount} (no price for ${named}${more})`;
}
