import { setTimeout as delay } from 'node:timers/promises';
import type { ChatModel, GenerateReply, GenerateRequest } from '../chat-model.js';
import { type ChatModelMiddleware, decorate, type GenerateFn } from '../decorate.js';
import { isModelCallError, ModelCallError } from '../model-call-error.js';
import { DEFAULT_MAX_RETRIES, DEFAULT_MAX_RETRY_AFTER_MS } from '../model-settings.js';
import { linkSignals } from './linked-signal.js';

/** One retry about to happen, reported before its wait starts. */
export interface RetryEvent {
  /** The number of the attempt that just failed: 1 for the first try, so also the retry count so far + 1. */
  readonly attempt: number;
  readonly error: ModelCallError;
  /** How long the wrapper waits before the next attempt. */
  readonly waitMs: number;
  /** The request being retried (the same object the wrapper was given). */
  readonly request: GenerateRequest;
}

export interface RetryOptions {
  /** Retries after the first try; 6 (`DEFAULT_MAX_RETRIES`) unless given, 0 disables retrying. */
  readonly maxRetries?: number;
  /**
   * Retries of a call that could not connect at all (`transportFailure: 'unreachable'`: refused, no such
   * host, connect timeout), at most `maxRetries`; 2 (`MAX_UNREACHABLE_RETRIES`) unless given. A server
   * that is restarting is back within the few seconds these take; one that is not there stays away, and
   * six back-offs of up to a minute each only hid that (the run stops such a model instead: run-control.ts).
   */
  readonly maxUnreachableRetries?: number;
  /** Back-off ceiling of the first retry; 1 000 ms unless given. */
  readonly baseDelayMs?: number;
  /** Largest back-off ceiling; 60 000 ms unless given. A server's `retryAfterMs` may exceed it. */
  readonly maxDelayMs?: number;
  /** Growth of the ceiling per retry; 2 unless given. */
  readonly backoffFactor?: number;
  /**
   * The longest server-asked wait (Retry-After) worth waiting for; a longer one fails the call at
   * once, not retryable. 120 000 ms unless given.
   */
  readonly maxRetryAfterMs?: number;
  /** Called once per retry, e.g. to count retries in a progress display. */
  readonly onRetry?: (event: RetryEvent) => void;
  /**
   * The run stopping (a first Ctrl-C): a back-off ends early, rejecting with its reason (a stop must not
   * wait out a long Retry-After), and a failure after it is not tried again but rejects with that reason,
   * so that the call is left for --resume rather than recorded as failed. `request.abortSignal` ends a
   * back-off the same way.
   */
  readonly waitSignal?: AbortSignal;
}

/** The clock and randomness the retry layer uses, injected so tests run without real time. */
export interface RetryDependencies {
  /** Resolves after `durationMs`; rejects at once when `signal` aborts. */
  readonly sleep: (durationMs: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1), as `Math.random`. */
  readonly random: () => number;
}

/** The back-off parameters with defaults applied. */
interface BackoffSchedule {
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly backoffFactor: number;
}

/**
 * Waits `durationMs` on the real clock. When `signal` aborts, stops at once and rejects with the
 * signal's reason (not Node's generic AbortError, so callers see why the run stopped).
 */
export async function sleepMs(durationMs: number, signal?: AbortSignal): Promise<void> {
  try {
    await delay(durationMs, undefined, signal === undefined ? undefined : { signal });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
}

/** The real clock and `Math.random`, for production wiring. */
function systemRetryDependencies(): RetryDependencies {
  return { sleep: sleepMs, random: Math.random };
}

/**
 * The wait before the retry that follows failed attempt `attempt` (1-based): exponential back-off
 * with full jitter (a uniform draw below `min(maxDelayMs, baseDelayMs * backoffFactor^(attempt-1))`),
 * but never shorter than the server's `retryAfterMs`. `random` is one draw in [0, 1).
 */
function retryWaitMs(attempt: number, error: ModelCallError, schedule: BackoffSchedule, random: number): number {
  const ceilingMs = Math.min(schedule.maxDelayMs, schedule.baseDelayMs * schedule.backoffFactor ** (attempt - 1));
  const jitteredMs = Math.floor(random * ceilingMs);
  return Math.max(jitteredMs, error.retryAfterMs ?? 0);
}

/**
 * The project's one retry layer. A failure is retried only when it is a `ModelCallError` with
 * `retryable: true` (never by its message), up to `maxRetries` times (`maxUnreachableRetries` for a
 * call that could not connect); then the last error is
 * rethrown so the engine records its `reason`. Other errors are rethrown at once. When
 * `request.abortSignal` aborts during a wait, the wait stops and the signal's reason is thrown.
 * The options are checked here, when the middleware is made.
 */
export function retryCalls(options: RetryOptions = {}, dependencies: RetryDependencies = systemRetryDependencies()): ChatModelMiddleware {
  const settings = resolveRetryOptions(options);
  return (next, model) => (request) => generateWithRetry(next, model.name, request, settings, dependencies);
}

/** `model` decorated with `retryCalls(options, dependencies)`. */
export function withRetry(model: ChatModel, options: RetryOptions = {}, dependencies: RetryDependencies = systemRetryDependencies()): ChatModel {
  return decorate(model, [retryCalls(options, dependencies)]);
}

/** Retries of a call that could not connect (see `RetryOptions.maxUnreachableRetries`). */
export const MAX_UNREACHABLE_RETRIES = 2;

type ResolvedRetryOptions = BackoffSchedule &
  Pick<RetryOptions, 'onRetry' | 'waitSignal'> & { readonly maxRetries: number; readonly maxUnreachableRetries: number; readonly maxRetryAfterMs: number };

function resolveRetryOptions(options: RetryOptions): ResolvedRetryOptions {
  const settings = {
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    maxUnreachableRetries: options.maxUnreachableRetries ?? MAX_UNREACHABLE_RETRIES,
    maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS,
    waitSignal: options.waitSignal,
    baseDelayMs: options.baseDelayMs ?? 1_000,
    maxDelayMs: options.maxDelayMs ?? 60_000,
    backoffFactor: options.backoffFactor ?? 2,
    onRetry: options.onRetry,
  };
  for (const key of ['maxRetries', 'maxUnreachableRetries'] as const) {
    if (!Number.isInteger(settings[key]) || settings[key] < 0) throw new RangeError(`${key} must be a whole number >= 0, got ${settings[key]}`);
  }
  for (const key of ['baseDelayMs', 'maxDelayMs', 'backoffFactor'] as const) {
    if (!(settings[key] >= 0)) throw new RangeError(`${key} must be a number >= 0, got ${settings[key]}`);
  }
  return settings;
}

async function generateWithRetry(
  next: GenerateFn,
  modelName: string,
  request: GenerateRequest,
  settings: ResolvedRetryOptions,
  dependencies: RetryDependencies,
): Promise<GenerateReply> {
  const signal = request.abortSignal;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await next(request);
    } catch (error) {
      // An aborted run wants to stop, not to try again.
      if (!isRetryable(error) || attempt > retriesFor(error, settings) || signal?.aborted) throw error;
      // A stopping run tries nothing again: the call is left for --resume (the wait's reason, not a failure).
      settings.waitSignal?.throwIfAborted();
      if (error.retryAfterMs !== undefined && error.retryAfterMs > settings.maxRetryAfterMs) throw tooLongToWait(modelName, error, settings.maxRetryAfterMs);
      const waitMs = retryWaitMs(attempt, error, settings, dependencies.random());
      settings.onRetry?.({ attempt, error, waitMs, request });
      const waiting = linkSignals(signal, settings.waitSignal);
      try {
        await waitBeforeRetry(waitMs, waiting.signal, dependencies.sleep);
      } finally {
        waiting.dispose();
      }
    }
  }
}

/** A server asking for a longer wait than the model's `maxRetryAfterMs`: the call fails as rate-limited. */
function tooLongToWait(modelName: string, error: ModelCallError, maxRetryAfterMs: number): ModelCallError {
  const seconds = (ms: number) => `${Math.ceil(ms / 1000)} s`;
  return new ModelCallError(
    `${modelName}: rate-limited: the server asks to wait ${seconds(error.retryAfterMs!)} (Retry-After), longer than maxRetryAfterMs (${seconds(maxRetryAfterMs)}); ` +
      'the call fails: raise maxRetryAfterMs for this model in the config to wait that long',
    {
      provider: error.provider,
      model: error.model,
      reason: error.reason,
      retryable: false,
      ...(error.statusCode === undefined ? {} : { statusCode: error.statusCode }),
      ...(error.transportFailure === undefined ? {} : { transportFailure: error.transportFailure }),
      retryAfterMs: error.retryAfterMs!,
    },
    { cause: error },
  );
}

/** How many retries a call that failed with `error` gets: fewer when it could not connect at all. */
function retriesFor(error: ModelCallError, settings: ResolvedRetryOptions): number {
  return error.transportFailure === 'unreachable' ? Math.min(settings.maxRetries, settings.maxUnreachableRetries) : settings.maxRetries;
}

function isRetryable(error: unknown): error is ModelCallError {
  return isModelCallError(error) && error.retryable;
}

async function waitBeforeRetry(waitMs: number, signal: AbortSignal | undefined, sleep: RetryDependencies['sleep']): Promise<void> {
  try {
    await sleep(waitMs, signal);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
  signal?.throwIfAborted();
}
