import { printableText } from '../../domain/printable-text.js';
import { formatCount, formatCounted, formatDuration } from '../../domain/text-labels.js';
import type { ReplicaPoolView } from '../../models/providers/replicas/replica-pool.js';
import type { RunMeter } from '../run-meter.js';
import { describeSpend } from '../session-ending.js';
import { type EtaHold, LONG_CALL_MS } from './eta-floors.js';
import { type FieldLine, fitFields, type LineField } from './fit-fields.js';
import { replicaLines, replicaTrouble } from './replica-lines.js';
import type { Eta } from './run-eta.js';

/** One model as the lines show it. */
interface ModelView {
  readonly model: string;
  /** Its limiter's concurrency now, when it has one. */
  readonly concurrencyLimit?: number;
  /** Its replicas, when it has several. */
  readonly replicas?: ReplicaPoolView;
  /** How long its oldest call on the wire has been out, when one is. */
  readonly oldestCallAgeMs?: number;
}

/** What the progress lines show, read at one moment. */
export interface ProgressView {
  readonly meter: RunMeter;
  readonly total: number;
  /** What the items are called ("conversations", "trials", "answers"). */
  readonly unit: string;
  /** The models of the run, each with its limiter's concurrency now when it has one, and its replicas when it has several. */
  readonly models: ReadonlyArray<ModelView>;
  readonly elapsedMs: number;
  readonly nowMs: number;
  readonly eta: Eta;
  /** What ETA's remaining work counts: calls of the plan, or items. */
  readonly etaUnit: 'calls' | 'items';
  /** Once the run is stopping (a signal, the budget): why, and the calls it still waits for (shown instead of the ETA). */
  readonly stopping?: { readonly why: string; readonly callsLeft: number };
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

/**
 * How much each field matters when the terminal is narrow (0 stays longest; see `fitFields`): the
 * spend, the counts of items, a model's last error and a call out for long first; the ETA; failures;
 * calls on the wire and waiting; then the rest.
 */
const RANK = {
  essential: 0,
  longCall: 1,
  eta: 1,
  made: 1,
  failed: 2,
  retryIn: 2,
  onTheWire: 3,
  elapsed: 3,
  waiting: 4,
  etaDetail: 4,
  shared: 5,
  rate: 6,
  retries: 6,
  tokens: 7,
  noErrors: 8,
} as const;

function describeHold(hold: EtaHold | undefined): string | undefined {
  if (hold?.kind === 'limits') return `held by ${hold.model}'s limits`;
  if (hold?.kind === 'long call') return `waiting on a call of ${hold.model}`;
  if (hold?.kind === 'retry') return `waiting to retry calls of ${hold.model}`;
  return undefined;
}

/**
 * "ETA 4 min 10 s (about 420 calls left)"; while the run stops, "stopping (Ctrl-C): 3 calls left to
 * drain" (an ETA would only grow as the calls left come back), then "stopped (Ctrl-C)".
 */
function etaFields(view: ProgressView): LineField[] {
  if (view.stopping) {
    const { why, callsLeft } = view.stopping;
    const text = callsLeft > 0 ? `stopping (${why}): ${formatCounted(callsLeft, 'call', 'calls')} left to drain` : `stopped (${why})`;
    return [{ text, rank: RANK.essential }];
  }
  const { eta } = view;
  if (eta.status !== 'estimated') return [{ text: `ETA ${eta.status === 'done' ? 'done' : 'n/a'}`, rank: RANK.eta }];
  const callsLeft = `about ${compactCount(eta.remaining)} ${Math.round(eta.remaining) === 1 ? 'call' : 'calls'} left`;
  const details = [view.etaUnit === 'calls' ? callsLeft : undefined, describeHold(eta.heldBy)].filter((detail) => detail !== undefined);
  const detail = details.length > 0 ? [{ text: `(${details.join(', ')})`, rank: RANK.etaDetail, joiner: ' ' }] : [];
  return [{ text: `ETA ${formatDuration(eta.remainingMs)}`, rank: RANK.eta }, ...detail];
}

function itemsLine(view: ProgressView): FieldLine {
  const { meter } = view;
  const done = meter.conversationsDone + meter.conversationsSkipped;
  const skipped = meter.conversationsSkipped > 0 ? `, ${compactCount(meter.conversationsSkipped)} already done` : '';
  return {
    groups: [
      [
        {
          text: `${compactCount(done)}/${compactCount(view.total)} ${view.unit} (${compactCount(meter.conversationsFailed)} failed${skipped})`,
          rank: RANK.essential,
        },
      ],
      [{ text: `${formatDuration(view.elapsedMs)} elapsed`, rank: RANK.elapsed }],
      etaFields(view),
    ],
  };
}

function callsLine(view: ProgressView): FieldLine {
  const { meter } = view;
  const rate = view.elapsedMs > 0 ? (meter.callsMade / view.elapsedMs) * 1000 : 0;
  return {
    groups: [
      [
        { text: `calls ${compactCount(meter.callsMade)} made`, rank: RANK.made },
        { text: `${compactCount(meter.callsShared)} shared`, rank: RANK.shared },
        { text: `${compactCount(meter.callsReplayed)} replayed`, rank: RANK.shared },
        { text: `${meter.callsFailed} failed`, rank: RANK.failed },
      ],
      [{ text: `${rate.toFixed(1)} calls/s`, rank: RANK.rate }],
      [{ text: `tokens ${compactCount(meter.inputTokens)} in, ${compactCount(meter.outputTokens)} out`, rank: RANK.tokens }],
      [{ text: describeSpend(view.spentUsd, view.modelsWithoutPrice), rank: RANK.essential }],
    ],
  };
}

function lastErrorOf(view: ProgressView, model: string): string {
  const { lastError } = view.meter.trafficOf(model);
  return lastError ? `last error ${lastError.label} ${formatDuration(Math.max(0, view.nowMs - lastError.atMs))} ago` : 'no errors';
}

/** "oldest call 23.0 s", once the oldest call on the wire is out longer than `LONG_CALL_MS`. */
function longCallOf(entry: ModelView): string | undefined {
  return entry.oldestCallAgeMs !== undefined && entry.oldestCallAgeMs >= LONG_CALL_MS ? `oldest call ${formatDuration(entry.oldestCallAgeMs)}` : undefined;
}

/** "alpha: 3 on the wire (limit 8), oldest call 23.0 s, 5 waiting · 12 retries, 2 re-samples · last error HTTP 429 4.0 s ago · retry in 2.0 s" */
function modelLine(view: ProgressView, entry: ModelView): FieldLine {
  const traffic = view.meter.trafficOf(entry.model);
  const limit = entry.concurrencyLimit === undefined ? '' : ` (limit ${entry.concurrencyLimit})`;
  const waitMs = (traffic.retryWaitUntilMs ?? 0) - view.nowMs;
  const longCall = longCallOf(entry);
  return {
    lead: `${entry.model}:`,
    groups: [
      [
        { text: `${traffic.onTheWire} on the wire${limit}`, rank: RANK.onTheWire },
        ...(longCall ? [{ text: longCall, rank: RANK.longCall }] : []),
        { text: `${Math.max(0, traffic.started - traffic.onTheWire)} waiting`, rank: RANK.waiting },
      ],
      [
        { text: formatCounted(traffic.retries, 'retry', 'retries'), rank: RANK.retries },
        { text: formatCounted(traffic.resamples, 're-sample', 're-samples'), rank: RANK.retries },
      ],
      [{ text: lastErrorOf(view, entry.model), rank: traffic.lastError ? RANK.essential : RANK.noErrors }],
      waitMs > 0 ? [{ text: `retry in ${formatDuration(waitMs)}`, rank: RANK.retryIn }] : [],
    ],
  };
}

/** Pending provider batches shown at most. */
const MAX_BATCH_LINES = 3;

/** "batch batch_abc (alpha, 120 requests): in_progress, 12 min old", oldest first, then how many more. */
function batchLines(view: ProgressView): string[] {
  const pending = view.meter.pendingBatches();
  const lines = pending.slice(0, MAX_BATCH_LINES).map((batch) => {
    const age = formatDuration(Math.max(0, view.nowMs - batch.submittedAtMs));
    // The batch's id and status are the batch service's words.
    const id = printableText(batch.providerBatchId ?? '(submitting)');
    return `batch ${id} (${batch.model}, ${formatCounted(batch.lines, 'request', 'requests')}): ${printableText(batch.providerStatus)}, ${age} old`;
  });
  if (pending.length > MAX_BATCH_LINES) lines.push(`… and ${pending.length - MAX_BATCH_LINES} more pending batches`);
  return lines;
}

/** How the block is drawn: the lines' width (undefined: not known, nothing is cut) and how many models get a line. */
export interface BlockLayout {
  readonly width?: number;
  readonly maxModelLines?: number;
}

/**
 * The block a terminal shows, redrawn in place: items and ETA (or, while the run stops, the calls
 * left to drain); calls, tokens and cost; then one line per model (calls on the wire and waiting,
 * the age of its oldest call once it is out long, retries, re-samples, last error), under it one
 * line per replica for a model served by several, at most `maxModelLines` models (default 8; the
 * busiest first when there are more, then how many are not shown); then the pending provider
 * batches. Each line fits in `width`: fields that matter less go first (see `RANK`), so the spend
 * and the last errors stay on a narrow terminal.
 */
export function progressBlock(view: ProgressView, layout: BlockLayout = {}): string[] {
  const { width, maxModelLines = 8 } = layout;
  const indent = (text: string, by: string) => fitFields({ groups: [[{ text: `${by}${text}`, rank: 0 }]] }, width);
  const lines = [fitFields(itemsLine(view), width), fitFields(callsLine(view), width)];
  const busiest = (entry: ModelView) => {
    const traffic = view.meter.trafficOf(entry.model);
    return traffic.started * 1e6 + traffic.retries + traffic.resamples;
  };
  const shown = view.models.length <= maxModelLines ? view.models : [...view.models].sort((a, b) => busiest(b) - busiest(a)).slice(0, maxModelLines - 1);
  for (const entry of shown) {
    const line = modelLine(view, entry);
    lines.push(`  ${fitFields(line, width === undefined ? undefined : width - 2)}`);
    if (entry.replicas) lines.push(...replicaLines(entry.replicas).map((replica) => indent(replica, '    ')));
  }
  if (shown.length < view.models.length) lines.push(indent(`… and ${view.models.length - shown.length} more models`, '  '));
  for (const line of batchLines(view)) lines.push(indent(line, '  '));
  return lines;
}

/** The line a log gets now and then (not a terminal): items, ETA, calls, cost, and what went wrong per model. */
export function progressLogLine(view: ProgressView): string {
  const { meter } = view;
  const troubled = view.models
    .filter((entry) => meter.trafficOf(entry.model).lastError !== undefined || longCallOf(entry) !== undefined)
    .map((entry) => {
      const traffic = meter.trafficOf(entry.model);
      const longCall = longCallOf(entry);
      return `${entry.model} ${formatCounted(traffic.retries, 'retry', 'retries')}, ${formatCounted(traffic.resamples, 're-sample', 're-samples')}, ${lastErrorOf(view, entry.model)}${longCall ? `, ${longCall}` : ''}`;
    });
  const replicasDown = view.models.flatMap(({ model, replicas }) => (replicas ? (replicaTrouble(model, replicas) ?? []) : []));
  const trouble = [...troubled, ...replicasDown, ...batchLines(view)].map((part) => `; ${part}`).join('');
  return `${fitFields(itemsLine(view))}; ${fitFields(callsLine(view))}; retries ${meter.retries}, re-samples ${meter.resamples}${trouble}`;
}
