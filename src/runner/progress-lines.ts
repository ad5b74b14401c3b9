import { formatCount, formatDuration } from '../domain/text-labels.js';
import type { ReplicaPoolView } from '../models/providers/replica-pool.js';
import { replicaLines, replicaTrouble } from './replica-lines.js';
import type { Eta } from './run-eta.js';
import type { RunMeter } from './run-meter.js';
import { describeSpend } from './session-ending.js';

/** What the progress lines show, read at one moment. */
export interface ProgressView {
  readonly meter: RunMeter;
  readonly total: number;
  /** What the items are called ("conversations", "trials", "answers"). */
  readonly unit: string;
  /** The models of the run, each with its limiter's concurrency now when it has one, and its replicas when it has several. */
  readonly models: ReadonlyArray<{ readonly model: string; readonly concurrencyLimit?: number; readonly replicas?: ReplicaPoolView }>;
  readonly elapsedMs: number;
  readonly nowMs: number;
  readonly eta: Eta;
  /** What ETA's remaining work counts: calls of the plan, or items. */
  readonly etaUnit: 'calls' | 'items';
  /** Spent by the run so far, every session of it (what the run outcome prints as spent). */
  readonly spentUsd: number;
  readonly modelsWithoutPrice: readonly string[];
}

/** "1.2k", "34k", "1.5M" */
function compactCount(count: number): string {
  if (count >= 1e6) return `${(count / 1e6).toFixed(1)}M`;
  if (count >= 1e4) return `${Math.round(count / 1e3)}k`;
  return formatCount(Math.round(count));
}

function describeEta(view: ProgressView): string {
  const { eta } = view;
  if (eta.status === 'done') return 'done';
  if (eta.status === 'unknown') return 'n/a';
  const left = view.etaUnit === 'calls' ? ` (about ${compactCount(eta.remaining)} calls left)` : '';
  return `${formatDuration(eta.remainingMs)}${left}`;
}

function itemsLine(view: ProgressView): string {
  const { meter } = view;
  const done = meter.conversationsDone + meter.conversationsSkipped;
  const skipped = meter.conversationsSkipped > 0 ? `, ${compactCount(meter.conversationsSkipped)} already done` : '';
  return `${compactCount(done)}/${compactCount(view.total)} ${view.unit} (${compactCount(meter.conversationsFailed)} failed${skipped}) · ${formatDuration(view.elapsedMs)} elapsed · ETA ${describeEta(view)}`;
}

function callsLine(view: ProgressView): string {
  const { meter } = view;
  const rate = view.elapsedMs > 0 ? (meter.callsMade / view.elapsedMs) * 1000 : 0;
  return (
    `calls ${compactCount(meter.callsMade)} made, ${compactCount(meter.callsShared)} shared, ${compactCount(meter.callsReplayed)} replayed, ${meter.callsFailed} failed · ` +
    `${rate.toFixed(1)} calls/s · tokens ${compactCount(meter.inputTokens)} in, ${compactCount(meter.outputTokens)} out · ${describeSpend(view.spentUsd, view.modelsWithoutPrice)}`
  );
}

const counted = (count: number, one: string, many: string) => `${formatCount(count)} ${count === 1 ? one : many}`;

function lastErrorOf(view: ProgressView, model: string): string {
  const { lastError } = view.meter.trafficOf(model);
  return lastError ? `last error ${lastError.label} ${formatDuration(Math.max(0, view.nowMs - lastError.atMs))} ago` : 'no errors';
}

/** "alpha: 3 on the wire (limit 8), 5 waiting · 12 retries, 2 re-samples · last error HTTP 429 4.0 s ago · retry in 2.0 s" */
function modelLine(view: ProgressView, model: string, concurrencyLimit: number | undefined): string {
  const traffic = view.meter.trafficOf(model);
  const limit = concurrencyLimit === undefined ? '' : ` (limit ${concurrencyLimit})`;
  const waiting = Math.max(0, traffic.started - traffic.onTheWire);
  const waitMs = (traffic.retryWaitUntilMs ?? 0) - view.nowMs;
  const retryIn = waitMs > 0 ? ` · retry in ${formatDuration(waitMs)}` : '';
  return (
    `${model}: ${traffic.onTheWire} on the wire${limit}, ${waiting} waiting · ${counted(traffic.retries, 'retry', 'retries')}, ` +
    `${counted(traffic.resamples, 're-sample', 're-samples')} · ${lastErrorOf(view, model)}${retryIn}`
  );
}

/** Pending provider batches shown at most. */
const MAX_BATCH_LINES = 3;

/** "batch batch_abc (alpha, 120 requests): in_progress, 12 min old", oldest first, then how many more. */
function batchLines(view: ProgressView): string[] {
  const pending = view.meter.pendingBatches();
  const lines = pending.slice(0, MAX_BATCH_LINES).map((batch) => {
    const age = formatDuration(Math.max(0, view.nowMs - batch.submittedAtMs));
    return `batch ${batch.providerBatchId ?? '(submitting)'} (${batch.model}, ${counted(batch.lines, 'request', 'requests')}): ${batch.providerStatus}, ${age} old`;
  });
  if (pending.length > MAX_BATCH_LINES) lines.push(`… and ${pending.length - MAX_BATCH_LINES} more pending batches`);
  return lines;
}

/**
 * The block a terminal shows, redrawn in place: items and ETA; calls, tokens and cost; then one
 * line per model (calls on the wire and waiting, retries, re-samples, last error), under it one
 * line per replica for a model served by several (calls in flight and done, health), at most
 * `maxModelLines` models (the busiest first when there are more, then how many are not shown);
 * then the pending provider batches, oldest first, with their provider status and age.
 */
export function progressBlock(view: ProgressView, maxModelLines = 8): string[] {
  const lines = [itemsLine(view), callsLine(view)];
  const busiest = (entry: ProgressView['models'][number]) => {
    const traffic = view.meter.trafficOf(entry.model);
    return traffic.started * 1e6 + traffic.retries + traffic.resamples;
  };
  const shown = view.models.length <= maxModelLines ? view.models : [...view.models].sort((a, b) => busiest(b) - busiest(a)).slice(0, maxModelLines - 1);
  for (const entry of shown) {
    lines.push(`  ${modelLine(view, entry.model, entry.concurrencyLimit)}`);
    if (entry.replicas) lines.push(...replicaLines(entry.replicas).map((line) => `    ${line}`));
  }
  if (shown.length < view.models.length) lines.push(`  … and ${view.models.length - shown.length} more models`);
  for (const line of batchLines(view)) lines.push(`  ${line}`);
  return lines;
}

/** The line a log gets now and then (not a terminal): items, ETA, calls, cost, and what went wrong per model. */
export function progressLogLine(view: ProgressView): string {
  const { meter } = view;
  const troubled = view.models
    .filter(({ model }) => meter.trafficOf(model).lastError !== undefined)
    .map(({ model }) => {
      const traffic = meter.trafficOf(model);
      return `${model} ${counted(traffic.retries, 'retry', 'retries')}, ${counted(traffic.resamples, 're-sample', 're-samples')}, ${lastErrorOf(view, model)}`;
    });
  const replicasDown = view.models.flatMap(({ model, replicas }) => (replicas ? (replicaTrouble(model, replicas) ?? []) : []));
  const trouble = [...troubled, ...replicasDown, ...batchLines(view)].map((part) => `; ${part}`).join('');
  return `${itemsLine(view)}; ${callsLine(view)}; retries ${meter.retries}, re-samples ${meter.resamples}${trouble}`;
}
