import { createHash } from 'node:crypto';
import { cachedRequestOf, requestHash } from '../call-cache.js';
import type { GenerateReply, GenerateRequest } from '../chat-model.js';
import type { GenerateFn } from '../decorate.js';
import { isModelCallError, ModelCallError } from '../model-call-error.js';
import type { BatchLedger, OpenBatch } from './batch-ledger.js';
import type { BatchProvider, LineResult } from './batch-provider.js';

/** How one model's calls are batched (the config's `batch:`; docs/design/batches.md). */
export interface BatchSettings {
  /** Requests per batch at most; a batch is sent as soon as this many wait. */
  readonly size: number;
  /** How often a pending batch is polled. */
  readonly pollMs: number;
  /** A batch is sent once no new request of the model has come for this long: one wave. */
  readonly quietMs: number;
  /** What happens to a line that failed in a way worth retrying: it joins the next batch, or is sent as a direct call. */
  readonly failedLines: 'retry' | 'direct';
}

/** A batch as the progress display shows it. */
export interface BatchView {
  readonly model: string;
  readonly localId: number;
  readonly providerBatchId?: string;
  readonly providerStatus: string;
  readonly submittedAtMs: number;
  readonly lines: number;
  /** False once the batch's results are read (or it never reached the provider). */
  readonly open: boolean;
}

export interface BatchQueueOptions {
  readonly provider: BatchProvider;
  /** The provider's name, recorded with each batch. */
  readonly providerName: string;
  readonly ledger: BatchLedger;
  /** The model's call identity: the request hash, and so each line's custom id, is the call cache's. */
  readonly modelIdentity: string;
  readonly settings: BatchSettings;
  /** Times a failed line is sent again (the model's `maxRetries`). */
  readonly maxRetries: number;
  readonly now: () => number;
  /** The run stopping: waiting callers are let go; pending batches stay recorded for --resume. */
  readonly waitSignal?: AbortSignal;
  readonly onBatch?: (view: BatchView) => void;
}

interface Waiter {
  readonly resolve: (reply: GenerateReply) => void;
  readonly reject: (error: unknown) => void;
}

const RETRY_BASE_MS = 1000;
const MAX_RETRY_WAIT_MS = 60_000;

/** A short, stable name for a batch's contents, kept with it at the provider where it keeps metadata. */
function submissionKeyOf(hashes: readonly string[]): string {
  return createHash('sha256').update(hashes.join('\n')).digest('hex').slice(0, 32);
}

/**
 * One model's batching: requests wait in a queue; the queue goes out as a batch when `size`
 * requests wait or none came for `quietMs` (so a wave is every conversation's next call); each
 * caller is answered when its line comes back. A batch is recorded in the ledger before it is
 * submitted; on start the ledger's open batches are re-attached, and a request they carry waits for
 * them instead of being sent again.
 */
export class BatchQueue {
  private readonly waiters = new Map<string, Waiter[]>();
  private readonly requests = new Map<string, GenerateRequest>();
  private readonly attempts = new Map<string, number>();
  /** Requests waiting for the next batch, in arrival order (a Set: a wave may hold tens of thousands). */
  private queued = new Set<string>();
  /** Requests in a batch at the provider (or being submitted), by hash: the newest batch that carries each. */
  private readonly inBatch = new Map<string, number>();
  /** Results of re-attached batches that came back before anyone asked for them again. */
  private readonly ready = new Map<string, LineResult>();
  /** The next poll of each pending batch, by local id. */
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();
  private quietTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly retryTimers = new Set<ReturnType<typeof setTimeout>>();
  private loaded = false;

  constructor(
    private readonly options: BatchQueueOptions,
    private readonly direct: GenerateFn,
    private readonly modelName: string,
  ) {
    options.waitSignal?.addEventListener('abort', () => this.stop(), { once: true });
  }

  ask(request: GenerateRequest): Promise<GenerateReply> {
    if (!this.loaded) this.attachOpenBatches();
    const hash = requestHash(this.options.modelIdentity, cachedRequestOf(request));
    return new Promise<GenerateReply>((resolve, reject) => {
      const stopped = this.options.waitSignal?.aborted ? this.options.waitSignal : request.abortSignal?.aborted ? request.abortSignal : undefined;
      if (stopped) return reject(stopped.reason);
      const waiter = this.listen(hash, request.abortSignal, { resolve, reject });
      this.requests.set(hash, request);
      const list = this.waiters.get(hash);
      if (list) list.push(waiter);
      else this.waiters.set(hash, [waiter]);
      const early = this.ready.get(hash);
      if (early) {
        this.ready.delete(hash);
        this.deliver(hash, early);
      } else if (this.inBatch.has(hash)) {
        // Someone waits for this batch now: its polls keep the process alive.
        this.timers.get(this.inBatch.get(hash)!)?.ref();
      } else if (!this.queued.has(hash)) this.enqueue(hash);
    });
  }

  /** A waiter that lets go of its caller when the caller's own signal aborts. */
  private listen(hash: string, signal: AbortSignal | undefined, waiter: Waiter): Waiter {
    if (!signal) return waiter;
    const onAbort = () => {
      const list = this.waiters.get(hash)?.filter((entry) => entry !== wrapped) ?? [];
      if (list.length > 0) this.waiters.set(hash, list);
      else this.waiters.delete(hash);
      waiter.reject(signal.reason);
    };
    const wrapped: Waiter = {
      resolve: (reply) => {
        signal.removeEventListener('abort', onAbort);
        waiter.resolve(reply);
      },
      reject: (error) => {
        signal.removeEventListener('abort', onAbort);
        waiter.reject(error);
      },
    };
    signal.addEventListener('abort', onAbort, { once: true });
    return wrapped;
  }

  private enqueue(hash: string): void {
    this.queued.add(hash);
    if (this.queued.size >= this.options.settings.size) {
      this.flush();
      return;
    }
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => this.flush(), this.options.settings.quietMs);
  }

  private flush(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = undefined;
    // Requests whose callers all went away are not sent.
    const waiting = [...this.queued].filter((hash) => this.waiters.has(hash));
    this.queued = new Set();
    for (let start = 0; start < waiting.length; start += this.options.settings.size) void this.submit(waiting.slice(start, start + this.options.settings.size));
  }

  private async submit(hashes: readonly string[]): Promise<void> {
    if (this.options.waitSignal?.aborted) return;
    const { ledger, provider } = this.options;
    const submissionKey = submissionKeyOf(hashes);
    // Committed before the provider hears of it: a crash from here on finds the batch again.
    const localId = ledger.beginBatch({ modelIdentity: this.options.modelIdentity, provider: this.options.providerName, submissionKey, hashes });
    for (const hash of hashes) this.inBatch.set(hash, localId);
    const submittedAtMs = this.options.now();
    this.report({ localId, providerStatus: 'submitting', submittedAtMs, lines: hashes.length, open: true });
    let batchId: string | undefined;
    try {
      batchId = await provider.submit(
        hashes.map((hash) => ({ customId: hash, request: this.requests.get(hash)! })),
        submissionKey,
      );
    } catch (error) {
      // The answer may have been lost after the provider made the batch: look for it before sending it again.
      batchId = await this.findSubmitted(submissionKey);
      if (batchId === undefined) return this.notSubmitted(localId, hashes, submittedAtMs, asCallError(error));
    }
    ledger.batchSubmitted(localId, batchId);
    this.watch({ localId, providerBatchId: batchId, submissionKey, hashes, submittedAtMs }, this.options.settings.pollMs);
  }

  private async findSubmitted(submissionKey: string): Promise<string | undefined> {
    try {
      return await this.options.provider.recover?.(submissionKey);
    } catch {
      return undefined;
    }
  }

  /** A batch the provider did not take: its lines fail as a direct call would (a retryable failure joins a later batch). */
  private notSubmitted(localId: number, hashes: readonly string[], submittedAtMs: number, error: ModelCallError): void {
    const { ledger } = this.options;
    ledger.batchStatus(localId, { providerStatus: 'not submitted', closed: true });
    this.report({ localId, providerStatus: 'not submitted', submittedAtMs, lines: hashes.length, open: false });
    for (const hash of hashes) if (this.inBatch.get(hash) === localId) this.inBatch.delete(hash);
    for (const hash of hashes) this.deliver(hash, { status: 'failed', error });
  }

  /** Re-attaches the batches a killed or interrupted session left: their requests wait for them. */
  private attachOpenBatches(): void {
    this.loaded = true;
    for (const batch of this.options.ledger.openBatches(this.options.modelIdentity)) {
      for (const hash of batch.hashes) this.inBatch.set(hash, batch.localId);
      // Shown (and counted as pending if the run stops) before its first poll answers.
      this.report({
        localId: batch.localId,
        ...(batch.providerBatchId === undefined ? {} : { providerBatchId: batch.providerBatchId }),
        providerStatus: 'pending',
        submittedAtMs: batch.submittedAtMs,
        lines: batch.hashes.length,
        open: true,
      });
      if (batch.providerBatchId !== undefined) this.watch(batch, 0);
      else void this.recover(batch);
    }
  }

  /** A batch recorded as being submitted when the process ended: found at the provider by its key, or sent again. */
  private async recover(batch: OpenBatch): Promise<void> {
    const found = await this.findSubmitted(batch.submissionKey);
    if (found !== undefined) {
      this.options.ledger.batchSubmitted(batch.localId, found);
      return this.watch({ ...batch, providerBatchId: found }, 0);
    }
    this.options.ledger.batchStatus(batch.localId, { providerStatus: 'lost before submission', closed: true });
    this.report({
      localId: batch.localId,
      providerStatus: 'lost before submission',
      submittedAtMs: batch.submittedAtMs,
      lines: batch.hashes.length,
      open: false,
    });
    for (const hash of batch.hashes) {
      if (this.inBatch.get(hash) !== batch.localId) continue;
      this.inBatch.delete(hash);
      if (this.waiters.has(hash)) this.enqueue(hash);
    }
  }

  /** Polls a batch until it ends, then hands each line's result to its callers. */
  private watch(batch: OpenBatch, firstDelayMs: number): void {
    const batchId = batch.providerBatchId!;
    const view = { localId: batch.localId, providerBatchId: batchId, submittedAtMs: batch.submittedAtMs, lines: batch.hashes.length };
    const tick = async (): Promise<void> => {
      let ended = false;
      let providerStatus = '';
      let results = new Map<string, LineResult>();
      try {
        const state = await this.options.provider.poll(batchId);
        // The run stopped while the poll was out: its store may be closed, and the batch stays pending for --resume.
        if (this.options.waitSignal?.aborted) return;
        providerStatus = state.providerStatus;
        this.options.ledger.batchStatus(batch.localId, { providerStatus: state.providerStatus });
        this.report({ ...view, providerStatus: state.providerStatus, open: !state.ended });
        if (state.ended) {
          results = await this.options.provider.download(batchId);
          if (this.options.waitSignal?.aborted) return;
          ended = true;
        }
      } catch (error) {
        // The run stopped: a poll or download in flight was cancelled with the stop's reason.
        if (this.options.waitSignal?.aborted) return;
        const failure = asCallError(error);
        if (failure.retryable) return this.later(batch.localId, tick, batch.hashes);
        // The batch cannot be read (gone, refused): its lines are asked again, as lines it left
        // unanswered are (a refused key then fails them at submission, as a direct call would fail).
        this.options.ledger.batchStatus(batch.localId, { providerStatus: `unreadable: ${failure.message}`, closed: true });
        this.report({ ...view, providerStatus: 'unreadable', open: false });
        return this.settleBatch(batch, () => ({ status: 'failed', error: this.unanswered(batchId, failure.message) }));
      }
      if (!ended) return this.later(batch.localId, tick, batch.hashes);
      this.readResults(batch, (hash) => results.get(hash) ?? { status: 'failed', error: this.unanswered(batchId, `the batch ended ${providerStatus}`) });
    };
    this.later(batch.localId, tick, batch.hashes, firstDelayMs);
  }

  /**
   * Records each line's outcome before handing it to its callers: a failed line is settled in the
   * store, so the batch is not read again for it and a later request for it (`--retry-failed`, or a
   * retry) goes into a new batch; an answered line is settled once the call cache stores its reply.
   */
  private readResults(batch: OpenBatch, resultOf: (hash: string) => LineResult): void {
    const results = new Map(batch.hashes.map((hash) => [hash, resultOf(hash)] as const));
    this.options.ledger.linesRead(batch.localId, new Map([...results].map(([hash, result]) => [hash, result.status] as const)));
    this.settleBatch(batch, (hash) => results.get(hash)!);
  }

  private settleBatch(batch: OpenBatch, resultOf: (hash: string) => LineResult): void {
    for (const hash of batch.hashes) {
      // A line retried in a newer batch is answered by that one.
      if (this.inBatch.get(hash) !== batch.localId) continue;
      this.inBatch.delete(hash);
      this.deliver(hash, resultOf(hash));
    }
  }

  /**
   * Runs `tick` after the poll interval. The timer keeps the process alive only while someone waits
   * for the batch (a re-attached batch nobody has asked for yet must not hold a finished run open).
   */
  private later(localId: number, tick: () => Promise<void>, hashes: readonly string[], delayMs = this.options.settings.pollMs): void {
    if (this.options.waitSignal?.aborted) return;
    const timer = setTimeout(() => {
      this.timers.delete(localId);
      void tick();
    }, delayMs);
    this.timers.set(localId, timer);
    if (!hashes.some((hash) => this.waiters.has(hash))) timer.unref();
  }

  private deliver(hash: string, result: LineResult): void {
    const waiters = this.waiters.get(hash);
    if (!waiters) {
      this.ready.set(hash, result);
      return;
    }
    if (result.status === 'succeeded') {
      this.settle(hash, (waiter) => waiter.resolve(result.reply));
      return;
    }
    const attempts = (this.attempts.get(hash) ?? 0) + 1;
    if (!result.error.retryable || attempts > this.options.maxRetries) {
      this.settle(hash, (waiter) => waiter.reject(result.error));
      return;
    }
    this.attempts.set(hash, attempts);
    if (this.options.settings.failedLines === 'retry') {
      this.retryLater(hash, attempts, result.error);
      return;
    }
    this.direct(this.requests.get(hash)!).then(
      (reply) => this.settle(hash, (waiter) => waiter.resolve(reply)),
      (error: unknown) => this.settle(hash, (waiter) => waiter.reject(error)),
    );
  }

  /**
   * A failed line (or a batch the provider would not take) joins a later batch after the retry
   * layer's wait: 1 s doubling per attempt up to 60 s, never shorter than the server's Retry-After.
   * Without jitter: the lines of one batch wait together, and go out together.
   */
  private retryLater(hash: string, attempts: number, error: ModelCallError): void {
    const waitMs = Math.max(error.retryAfterMs ?? 0, Math.min(MAX_RETRY_WAIT_MS, RETRY_BASE_MS * 2 ** (attempts - 1)));
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      if (this.waiters.has(hash)) this.enqueue(hash);
    }, waitMs);
    this.retryTimers.add(timer);
  }

  private settle(hash: string, answer: (waiter: Waiter) => void): void {
    const waiters = this.waiters.get(hash) ?? [];
    this.waiters.delete(hash);
    this.requests.delete(hash);
    this.attempts.delete(hash);
    for (const waiter of waiters) answer(waiter);
  }

  private report(view: Omit<BatchView, 'model'>): void {
    this.options.onBatch?.({ model: this.modelName, ...view });
  }

  private unanswered(batchId: string, why: string): ModelCallError {
    return new ModelCallError(`${this.modelName}: batch ${batchId} did not answer this request (${why})`, {
      provider: this.options.providerName,
      model: this.modelName,
      reason: 'api',
      retryable: true,
    });
  }

  /** The run stopped: nothing new is sent or polled; callers are let go, and pending batches stay recorded for --resume. */
  private stop(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    for (const timer of [...this.timers.values(), ...this.retryTimers]) clearTimeout(timer);
    this.timers.clear();
    const reason = this.options.waitSignal?.reason;
    for (const hash of [...this.waiters.keys()]) this.settle(hash, (waiter) => waiter.reject(reason));
    this.queued = new Set();
  }
}

function asCallError(error: unknown): ModelCallError {
  if (isModelCallError(error)) return error;
  throw error;
}
