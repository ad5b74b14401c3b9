import type { BatchView } from '../models/batch/batch-queue.js';

/** The last call error a model gave, for the progress display. */
export interface LastCallError {
  /** Short: "HTTP 429", "HTTP 500", "timed out after 60 s". */
  readonly label: string;
  /** When it happened, in ms of the run's clock. */
  readonly atMs: number;
}

/** What one model's calls are doing now and went through so far in this session. */
export interface ModelTraffic {
  /** Calls admitted by the run and not ended: waiting (limiter, shared slot, retry back-off) or on the wire. */
  started: number;
  /** Calls whose HTTP request (or simulated reply) is under way: past the limiter and the shared slot. */
  onTheWire: number;
  /** Retries the retry layer made (each 429, 5xx or timeout it tried again). */
  retries: number;
  /** Requests asked again because the reply before was unusable (malformed, refused). */
  resamples: number;
  lastError?: LastCallError;
  /** When the last of the model's retries now waiting starts (a back-off or a server's Retry-After), in ms of the run's clock. */
  retryWaitUntilMs?: number;
  /** Calls of the plan this model gave in this session (made, replayed or failed; see `RunMeter.planCallsDone`). */
  planCalls: number;
}

/**
 * What one model's calls took so far, for the ETA: the time on the wire of every attempt (retries and
 * re-samples included), the back-offs before retries, how many attempts went out and how many calls of
 * the plan reached the model. Waits in a queue (the limiter's, the run's shared slots) are not in it:
 * they shrink at the tail of a run, when few calls are left.
 */
export interface CallService {
  /** Ms on the wire, over every attempt that came back. */
  wireMs: number;
  /** Attempts that came back from the wire. */
  wireCalls: number;
  /** Attempts that went on the wire: each passed the model's limiter. */
  attempts: number;
  /** Ms waited before retries (back-offs, servers' Retry-After). */
  backoffMs: number;
  /** Calls of the plan that reached the model (not answered from the run's calls or an earlier run's). */
  planCalls: number;
  /** Attempts refused with a 429: each lowers the model's limiter's limits for a while. */
  rateLimited: number;
}

const noService = (): CallService => ({ wireMs: 0, wireCalls: 0, attempts: 0, backoffMs: 0, planCalls: 0, rateLimited: 0 });

/** Live counters of a run, for progress displays; updated by the runner and the run-control layer. */
export class RunMeter {
  conversationsDone = 0;
  conversationsFailed = 0;
  conversationsSkipped = 0;
  /** Calls asked of a model in this session. */
  callsMade = 0;
  /** Calls answered from this run's own calls: shared (an opening, a first argument) or resumed. */
  callsShared = 0;
  /** Calls answered from calls that earlier runs made, by run name. */
  readonly replayedFrom = new Map<string, number>();
  callsFailed = 0;
  /**
   * Calls of the plan obtained in this session: made, replayed or failed, each request once (re-samples
   * and answers shared within the run are not counted). The unit of the expected calls behind the ETA.
   */
  planCallsDone = 0;
  inputTokens = 0;
  outputTokens = 0;
  costUsd = 0;
  private readonly services = new Map<string, CallService>();
  private readonly traffic = new Map<string, ModelTraffic>();
  /** Per model, when each call now on the wire went out (ms of the run's clock). */
  private readonly wireStarts = new Map<string, Set<{ readonly startedMs: number }>>();
  private readonly batches = new Map<number, BatchView>();

  /** A provider batch changed (submitted, polled, read): open ones are shown, closed ones forgotten. */
  batchChanged(view: BatchView): void {
    if (view.open) this.batches.set(view.localId, view);
    else this.batches.delete(view.localId);
  }

  /** The provider batches still pending, oldest first. */
  pendingBatches(): BatchView[] {
    return [...this.batches.values()].sort((a, b) => a.submittedAtMs - b.submittedAtMs);
  }

  /** Calls replayed from earlier runs. */
  get callsReplayed(): number {
    let total = 0;
    for (const count of this.replayedFrom.values()) total += count;
    return total;
  }

  /** Retries over every model. */
  get retries(): number {
    let total = 0;
    for (const traffic of this.traffic.values()) total += traffic.retries;
    return total;
  }

  /** Re-samples over every model. */
  get resamples(): number {
    let total = 0;
    for (const traffic of this.traffic.values()) total += traffic.resamples;
    return total;
  }

  /** One model's traffic (all zero for a model not called yet). */
  trafficOf(model: string): Readonly<ModelTraffic> {
    let traffic = this.traffic.get(model);
    if (!traffic) {
      traffic = { started: 0, onTheWire: 0, retries: 0, resamples: 0, planCalls: 0 };
      this.traffic.set(model, traffic);
    }
    return traffic;
  }

  private mutable(model: string): ModelTraffic {
    return this.trafficOf(model) as ModelTraffic;
  }

  /** What `model`'s calls took so far (all zero for a model not called yet). */
  serviceOf(model: string): Readonly<CallService> {
    let service = this.services.get(model);
    if (!service) {
      service = noService();
      this.services.set(model, service);
    }
    return service;
  }

  /** What the calls of every model took so far. */
  get callService(): Readonly<CallService> {
    const total = noService();
    for (const service of this.services.values()) for (const key of Object.keys(total) as Array<keyof CallService>) total[key] += service[key];
    return total;
  }

  callReplayed(fromRun: string): void {
    this.replayedFrom.set(fromRun, (this.replayedFrom.get(fromRun) ?? 0) + 1);
  }

  callStarted(model: string): void {
    this.mutable(model).started += 1;
  }

  /**
   * The call's request went out (past every wait) at `startedMs`; the returned function says when
   * it came back. Also times calls on the wire, for the mean time a call takes.
   */
  wireStarted(model: string, startedMs: number): (endedMs: number) => void {
    const traffic = this.mutable(model);
    const service = this.serviceOf(model) as CallService;
    traffic.onTheWire += 1;
    service.attempts += 1;
    const out = { startedMs };
    const starts = this.wireStarts.get(model) ?? new Set();
    this.wireStarts.set(model, starts.add(out));
    let ended = false;
    return (endedMs) => {
      if (ended) return;
      ended = true;
      traffic.onTheWire -= 1;
      starts.delete(out);
      service.wireMs += endedMs - startedMs;
      service.wireCalls += 1;
    };
  }

  /** When the oldest call of `model` still on the wire went out, in ms of the run's clock; undefined: none is. */
  oldestOnTheWireMs(model: string): number | undefined {
    let oldest: number | undefined;
    for (const { startedMs } of this.wireStarts.get(model) ?? []) if (oldest === undefined || startedMs < oldest) oldest = startedMs;
    return oldest;
  }

  /** A call of the plan was obtained from `model` (see `planCallsDone`); `reachedModel`: not answered from stored calls. */
  planCallDone(model: string, reachedModel: boolean): void {
    this.planCallsDone += 1;
    this.mutable(model).planCalls += 1;
    if (reachedModel) (this.serviceOf(model) as CallService).planCalls += 1;
  }

  /**
   * A retry of `model` after `error`, starting at `retryAtMs` (its back-off counts in `callService`);
   * `rateLimited`: the error was a 429.
   */
  retried(model: string, error: LastCallError, retryAtMs: number, rateLimited = false): void {
    const traffic = this.mutable(model);
    traffic.retries += 1;
    traffic.lastError = error;
    // The last of the retries waiting: the ETA cannot end before it (an earlier one's time has passed by then).
    traffic.retryWaitUntilMs = Math.max(traffic.retryWaitUntilMs ?? 0, retryAtMs);
    const service = this.serviceOf(model) as CallService;
    service.backoffMs += Math.max(0, retryAtMs - error.atMs);
    if (rateLimited) service.rateLimited += 1;
  }

  resampled(model: string): void {
    this.mutable(model).resamples += 1;
  }

  /** A call ended: with its usage, failed after its retries (with why), or abandoned because the run stopped. */
  callEnded(
    model: string,
    outcome: { inputTokens?: number; outputTokens?: number; costUsd?: number } | { failed: LastCallError | undefined } | 'abandoned',
  ): void {
    const traffic = this.mutable(model);
    traffic.started -= 1;
    if (outcome === 'abandoned') return;
    if ('failed' in outcome) {
      this.callsFailed += 1;
      if (outcome.failed) traffic.lastError = outcome.failed;
      return;
    }
    this.callsMade += 1;
    this.inputTokens += outcome.inputTokens ?? 0;
    this.outputTokens += outcome.outputTokens ?? 0;
    this.costUsd += outcome.costUsd ?? 0;
  }
}
