import { cachedRequestOf, requestHash } from '../call-cache.js';
import type { GenerateReply, GenerateRequest } from '../chat-model.js';
import type { GenerateFn } from '../decorate.js';
import type { ModelCallError } from '../model-call-error.js';
import type { LineResult } from './batch-provider.js';
import { ProviderBatches, type ProviderBatchesOptions } from './provider-batches.js';

export type { BatchView } from './provider-batches.js';

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

export interface BatchQueueOptions extends ProviderBatchesOptions {
  readonly settings: BatchSettings;
  /** Times a failed line is sent again (the model's `maxRetries`). */
  readonly maxRetries: number;
  /** The run stopping: waiting callers are let go; pending batches stay recorded for --resume. */
  readonly waitSignal?: AbortSignal;
}

interface Waiter {
  readonly resolve: (reply: GenerateReply) => void;
  readonly reject: (error: unknown) => void;
}

const RETRY_BASE_MS = 1000;
const MAX_RETRY_WAIT_MS = 60_000;

/**
 * One model's batching: requests wait in a queue; the queue goes out as a batch when `size`
 * requests wait or none came for `quietMs` (so a wave is every conversation's next call); each
 * caller is answered when its line comes back, and a line that failed in a way worth retrying is
 * sent again. What happens to a batch at the provider (recorded, submitted, polled, re-attached on
 * start) is `ProviderBatches`'s (provider-batches.ts).
 */
export class BatchQueue {
  private readonly waiters = new Map<string, Waiter[]>();
  private readonly requests = new Map<string, GenerateRequest>();
  private readonly attempts = new Map<string, number>();
  /** Requests waiting for the next batch, in arrival order (a Set: a wave may hold tens of thousands). */
  private queued = new Set<string>();
  /** Results of re-attached batches that came back before anyone asked for them again. */
  private readonly ready = new Map<string, LineResult>();
  private quietTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly retryTimers = new Set<ReturnType<typeof setTimeout>>();
  private readonly batches: ProviderBatches;

  constructor(
    private readonly options: BatchQueueOptions,
    private readonly direct: GenerateFn,
    modelName: string,
  ) {
    this.batches = new ProviderBatches(options, modelName, {
      requestOf: (hash) => this.requests.get(hash)!,
      isWaitedFor: (hash) => this.waiters.has(hash),
      deliver: (hash, result) => this.deliver(hash, result),
      requeue: (hash) => this.enqueue(hash),
      reject: (hash, error) => this.settle(hash, (waiter) => waiter.reject(error)),
    });
    options.waitSignal?.addEventListener('abort', () => this.stop(), { once: true });
  }

  ask(request: GenerateRequest): Promise<GenerateReply> {
    this.batches.reattach();
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
      } else if (this.batches.carries(hash)) {
        this.batches.keepAlive(hash);
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
    for (let start = 0; start < waiting.length; start += this.options.settings.size) {
      this.batches.submit(waiting.slice(start, start + this.options.settings.size));
    }
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

  /** The run stopped: nothing new is sent or polled; callers are let go, and pending batches stay recorded for --resume. */
  private stop(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.batches.stop();
    for (const timer of this.retryTimers) clearTimeout(timer);
    const reason = this.options.waitSignal?.reason;
    for (const hash of [...this.waiters.keys()]) this.settle(hash, (waiter) => waiter.reject(reason));
    this.queued = new Set();
  }
}
