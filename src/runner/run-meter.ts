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
  /** When the model's next retry starts (a back-off or a server's Retry-After), in ms of the run's clock. */
  retryWaitUntilMs?: number;
}

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
  private wireMs = 0;
  private wireCalls = 0;
  private readonly traffic = new Map<string, ModelTraffic>();
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
      traffic = { started: 0, onTheWire: 0, retries: 0, resamples: 0 };
      this.traffic.set(model, traffic);
    }
    return traffic;
  }

  private mutable(model: string): ModelTraffic {
    return this.trafficOf(model) as ModelTraffic;
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
    traffic.onTheWire += 1;
    let ended = false;
    return (endedMs) => {
      if (ended) return;
      ended = true;
      traffic.onTheWire -= 1;
      this.wireMs += endedMs - startedMs;
      this.wireCalls += 1;
    };
  }

  /** The mean time a call spent on the wire, in ms; undefined before the first came back. */
  get meanCallMs(): number | undefined {
    return this.wireCalls > 0 ? this.wireMs / this.wireCalls : undefined;
  }

  retried(model: string, error: LastCallError, retryAtMs: number): void {
    const traffic = this.mutable(model);
    traffic.retries += 1;
    traffic.lastError = error;
    traffic.retryWaitUntilMs = retryAtMs;
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
