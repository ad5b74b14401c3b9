import { watchAbort } from '../abort-watch.js';
import { isModelCallError } from '../model-call-error.js';

/** Limits for one model; every limit is off when absent. Same names as in `ModelSettings`. */
export interface RateLimitOptions {
  readonly maxConcurrency?: number;
  readonly requestsPerMinute?: number;
  readonly tokensPerMinute?: number;
  /** After a 429, the share of the configured value added back per success; 0.1 unless given. */
  readonly increaseFraction?: number;
  /** The concurrency ceiling that applies after a first 429 when `maxConcurrency` is absent; 64 unless given. */
  readonly adaptiveConcurrencyCeiling?: number;
}

/** The clock the limiter uses, injected so tests run without real time. */
export interface RateLimitDependencies {
  /** Milliseconds on a monotonic clock. */
  readonly now: () => number;
  /** Resolves after `durationMs`; rejects at once when `signal` aborts. */
  readonly sleep: (durationMs: number, signal?: AbortSignal) => Promise<void>;
}

/** A read-only view of a limiter, for progress displays and tests. `undefined` means unlimited. */
export interface LimiterState {
  readonly effectiveRequestsPerMinute: number | undefined;
  readonly effectiveConcurrency: number | undefined;
  readonly inFlight: number;
  readonly queued: number;
  /** Tokens counted in the last 60 s: real usage for finished calls, estimates for the others. */
  readonly tokensInWindow: number;
  /** The limits as configured, which the effective ones grow back to after a 429; undefined: not set. */
  readonly configured?: { readonly requestsPerMinute?: number; readonly maxConcurrency?: number };
  /**
   * With a requests-per-minute limit: how long ago each call in the last 60 s started, oldest first.
   * When a call may start next follows from it (the ETA of a run says how long the limit holds it).
   */
  readonly startedAgoMs?: readonly number[];
}

const WINDOW_MS = 60_000;

/** A limit that halves on a 429 (never below 1) and grows additively back to its ceiling. */
class AdaptiveLimit {
  private currentValue: number;

  constructor(
    private readonly ceiling: number,
    private readonly increaseFraction: number,
    startValue = ceiling,
  ) {
    this.currentValue = startValue;
  }

  get value(): number {
    // The epsilon keeps 4 + 5 * 0.8 = 7.999999… from flooring to 7.
    return Math.max(1, Math.floor(this.currentValue + 1e-9));
  }

  halve(): void {
    this.currentValue = Math.max(1, this.currentValue / 2);
  }

  grow(): void {
    this.currentValue = Math.min(this.ceiling, this.currentValue + this.ceiling * this.increaseFraction);
  }
}

interface WindowEntry {
  readonly startMs: number;
  tokens: number;
  /** False once the entry has left the 60-second window. */
  inWindow: boolean;
}

interface Waiter {
  readonly estimatedTokens: number;
  readonly grant: (permit: Permit) => void;
}

interface Permit {
  readonly entry: WindowEntry;
  /** The back-off generation the call started in. */
  readonly generation: number;
}

/**
 * Sliding windows rather than token buckets: every started call leaves an entry (start time,
 * tokens) for 60 s, and a call may start while fewer than the effective RPM entries, and at most
 * `tokensPerMinute` tokens including its own estimate, are in the window. A call larger than
 * the whole TPM budget starts when the window is empty instead of waiting forever.
 * Several 429s from calls started before the last halving count as one signal, so a burst of
 * concurrent 429s halves once rather than collapsing the limits to 1.
 */
export class RequestLimiter {
  private readonly window: WindowEntry[] = [];
  private readonly queue: Waiter[] = [];
  private readonly increaseFraction: number;
  private readonly requestLimit: AdaptiveLimit | undefined;
  private concurrencyLimit: AdaptiveLimit | undefined;
  private inFlight = 0;
  /** The sum of `tokens` over `window`, kept as entries come, change and go (the window can be long). */
  private windowTokens = 0;
  private generation = 0;
  private timer: { readonly wakeMs: number; readonly controller: AbortController } | undefined;

  constructor(
    private readonly options: RateLimitOptions,
    private readonly dependencies: RateLimitDependencies,
  ) {
    for (const key of ['maxConcurrency', 'requestsPerMinute', 'tokensPerMinute', 'adaptiveConcurrencyCeiling'] as const) {
      const value = options[key];
      if (value !== undefined && !(value >= 1)) throw new RangeError(`${key} must be at least 1, got ${value}`);
    }
    this.increaseFraction = options.increaseFraction ?? 0.1;
    if (!(this.increaseFraction > 0)) throw new RangeError(`increaseFraction must be above 0, got ${this.increaseFraction}`);
    const { maxConcurrency, requestsPerMinute } = options;
    this.requestLimit = requestsPerMinute === undefined ? undefined : new AdaptiveLimit(requestsPerMinute, this.increaseFraction);
    this.concurrencyLimit = maxConcurrency === undefined ? undefined : new AdaptiveLimit(maxConcurrency, this.increaseFraction);
  }

  /**
   * A permit now, without waiting, when no call is queued and the limits allow one more: the usual
   * case of a model without limits, which then costs no promise and no abort listener. Undefined
   * otherwise; then `acquire` waits in turn.
   */
  tryAcquire(estimatedTokens: number): Permit | undefined {
    if (this.queue.length > 0) return undefined;
    const nowMs = this.dependencies.now();
    this.expireWindow(nowMs);
    if (!this.hasRoom(estimatedTokens, nowMs)) return undefined;
    return this.start(estimatedTokens, nowMs);
  }

  async acquire(estimatedTokens: number, signal: AbortSignal | undefined): Promise<Permit> {
    signal?.throwIfAborted();
    return new Promise<Permit>((resolve, reject) => {
      // Through one listener on the run's signal, shared by every call (see watchAbort).
      const stopWatching = signal
        ? watchAbort(signal, () => {
            this.queue.splice(this.queue.indexOf(waiter), 1);
            reject(signal.reason);
            this.pump();
          })
        : undefined;
      const waiter: Waiter = {
        estimatedTokens,
        grant: (permit) => {
          stopWatching?.();
          resolve(permit);
        },
      };
      this.queue.push(waiter);
      this.pump();
    });
  }

  complete(permit: Permit, usedTokens: number | undefined): void {
    if (usedTokens !== undefined) {
      if (permit.entry.inWindow) this.windowTokens += usedTokens - permit.entry.tokens;
      permit.entry.tokens = usedTokens;
    }
    this.inFlight -= 1;
    this.requestLimit?.grow();
    this.concurrencyLimit?.grow();
    this.pump();
  }

  fail(permit: Permit, error: unknown): void {
    if (isModelCallError(error) && error.statusCode === 429 && permit.generation === this.generation) this.backOff();
    this.inFlight -= 1;
    this.pump();
  }

  state(): LimiterState {
    const nowMs = this.dependencies.now();
    const live = this.window.filter((entry) => entry.startMs + WINDOW_MS > nowMs);
    return {
      effectiveRequestsPerMinute: this.requestLimit?.value,
      effectiveConcurrency: this.concurrencyLimit?.value,
      inFlight: this.inFlight,
      queued: this.queue.length,
      tokensInWindow: live.reduce((sum, entry) => sum + entry.tokens, 0),
      configured: {
        ...(this.options.requestsPerMinute === undefined ? {} : { requestsPerMinute: this.options.requestsPerMinute }),
        ...(this.options.maxConcurrency === undefined ? {} : { maxConcurrency: this.options.maxConcurrency }),
      },
      ...(this.requestLimit ? { startedAgoMs: live.map((entry) => nowMs - entry.startMs) } : {}),
    };
  }

  private backOff(): void {
    this.generation += 1;
    this.requestLimit?.halve();
    if (this.concurrencyLimit === undefined) {
      // Unlimited so far: the calls in flight (this one included) were too many, so halve those.
      const ceiling = this.options.adaptiveConcurrencyCeiling ?? 64;
      this.concurrencyLimit = new AdaptiveLimit(ceiling, this.increaseFraction, Math.min(ceiling, this.inFlight));
    }
    this.concurrencyLimit.halve();
  }

  /** Starts queued calls in order while the limits allow; otherwise waits for a release or a window expiry. */
  private pump(): void {
    const nowMs = this.dependencies.now();
    this.expireWindow(nowMs);
    for (let head = this.queue[0]; head !== undefined; head = this.queue[0]) {
      if (this.concurrencyLimit !== undefined && this.inFlight >= this.concurrencyLimit.value) break;
      const readyMs = this.readyAtMs(head.estimatedTokens, nowMs);
      if (readyMs > nowMs) {
        this.wakeAt(readyMs, nowMs);
        return;
      }
      this.queue.shift();
      head.grant(this.start(head.estimatedTokens, nowMs));
    }
    if (this.queue.length === 0) this.cancelTimer();
  }

  private expireWindow(nowMs: number): void {
    while (this.window[0] !== undefined && this.window[0].startMs + WINDOW_MS <= nowMs) {
      const expired = this.window.shift()!;
      expired.inWindow = false;
      this.windowTokens -= expired.tokens;
    }
  }

  private hasRoom(estimatedTokens: number, nowMs: number): boolean {
    if (this.concurrencyLimit !== undefined && this.inFlight >= this.concurrencyLimit.value) return false;
    return this.readyAtMs(estimatedTokens, nowMs) <= nowMs;
  }

  /** A call starts now: its window entry, and one more in flight. */
  private start(estimatedTokens: number, nowMs: number): Permit {
    const entry = { startMs: nowMs, tokens: estimatedTokens, inWindow: true };
    this.window.push(entry);
    this.windowTokens += entry.tokens;
    this.inFlight += 1;
    return { entry, generation: this.generation };
  }

  /** When the window will have room for one more call of `estimatedTokens` tokens. */
  private readyAtMs(estimatedTokens: number, nowMs: number): number {
    let readyMs = nowMs;
    const requestLimit = this.requestLimit?.value;
    const blocking = requestLimit === undefined ? undefined : this.window[this.window.length - requestLimit];
    if (blocking !== undefined) readyMs = blocking.startMs + WINDOW_MS;
    const tokenLimit = this.options.tokensPerMinute;
    if (tokenLimit === undefined) return readyMs;
    let tokensInWindow = this.windowTokens;
    if (tokensInWindow + estimatedTokens <= tokenLimit) return readyMs;
    for (const entry of this.window) {
      if (tokensInWindow + estimatedTokens <= tokenLimit) break;
      tokensInWindow -= entry.tokens;
      readyMs = Math.max(readyMs, entry.startMs + WINDOW_MS);
    }
    return readyMs;
  }

  private wakeAt(wakeMs: number, nowMs: number): void {
    if (this.timer !== undefined && this.timer.wakeMs <= wakeMs) return;
    this.cancelTimer();
    const timer = { wakeMs, controller: new AbortController() };
    this.timer = timer;
    this.dependencies.sleep(wakeMs - nowMs, timer.controller.signal).then(
      () => {
        if (this.timer !== timer) return;
        this.timer = undefined;
        this.pump();
      },
      () => undefined, // cancelled: a newer timer or an empty queue took over
    );
  }

  private cancelTimer(): void {
    this.timer?.controller.abort();
    this.timer = undefined;
  }
}
