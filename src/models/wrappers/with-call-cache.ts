import { type CachedRequest, type CallCache, cachedRequestOf, requestHash } from '../call-cache.js';
import type { ChatModel, GenerateReply, GenerateRequest } from '../chat-model.js';
import { type ChatModelMiddleware, decorate } from '../decorate.js';
import { isModelCallError, type ModelCallError } from '../model-call-error.js';

export interface CallCacheOptions {
  /** What the model is, for the request hash (not the alias the user gave it). */
  readonly modelIdentity: string;
  /** Hashes whose stored replies must not be replayed (the failed turns of `--retry-failed`). */
  readonly refresh?: ReadonlySet<string>;
  /** How many retries the call took; reported by the retry layer beneath. */
  readonly retriesOf?: (request: GenerateRequest) => number;
  readonly now: () => number;
}

/**
 * Looks every request up before calling the model, and stores every reply before returning it.
 * Identical requests in flight at once share one call (single flight). This one mechanism gives
 * sharing of openings and first arguments, resume after a crash and replay of a finished run.
 * Replies carry `callHash`, `cached: true` when they were not asked of the model, and
 * `replayedFrom` when an earlier run made them. Which stored calls may be reused (all runs', or
 * only this run's under `--no-cache`) is the cache's own scope.
 *
 * A request whose reply was larger than the model's `maxReplyBytes` fails again at once, with the
 * same error, for as long as the decorated model lives (one session of a run): the same request
 * would get the same reply, and each try pays for it. A resume asks it once more, under the limit
 * the config then gives.
 */
export function cacheCalls(cache: CallCache, options: CallCacheOptions): ChatModelMiddleware {
  return (next) => {
    // Per decorated model: single flight joins calls of the same model only.
    const inFlight = new Map<string, Promise<GenerateReply>>();
    const overLimit = new Map<string, ModelCallError>();
    const call = async (hash: string, request: GenerateRequest, cachedRequest: CachedRequest): Promise<GenerateReply> => {
      const startedMs = options.now();
      let reply: GenerateReply;
      try {
        reply = await next(request);
      } catch (error) {
        if (isModelCallError(error) && !request.abortSignal?.aborted) {
          saveFailure(cache, options, hash, error, options.now() - startedMs, request);
          if (error.replyLimitBytes !== undefined) overLimit.set(hash, error);
        }
        throw error;
      }
      const stored = { ...reply, callHash: hash };
      // Committed before it is used: the reply goes back only once the store has it.
      await cache.save({
        hash,
        modelIdentity: options.modelIdentity,
        request: cachedRequest,
        reply: stored,
        latencyMs: options.now() - startedMs,
        retries: options.retriesOf?.(request) ?? 0,
      });
      return stored;
    };
    return async (request) => {
      // Made once per request: its hash, and what is stored with the reply.
      const cachedRequest = cachedRequestOf(request);
      const hash = requestHash(options.modelIdentity, cachedRequest);
      const stored = options.refresh?.has(hash) ? undefined : cache.lookup(hash);
      if (stored) return { ...stored.reply, callHash: hash, cached: true, ...(stored.earlierRun === undefined ? {} : { replayedFrom: stored.earlierRun }) };
      const tooLarge = overLimit.get(hash);
      if (tooLarge) throw tooLarge;
      const pending = inFlight.get(hash);
      if (pending) return { ...(await pending), cached: true };
      const started = call(hash, request, cachedRequest).finally(() => inFlight.delete(hash));
      inFlight.set(hash, started);
      return started;
    };
  };
}

function saveFailure(cache: CallCache, options: CallCacheOptions, hash: string, error: ModelCallError, latencyMs: number, request: GenerateRequest): void {
  cache.saveFailure?.({
    hash,
    modelIdentity: options.modelIdentity,
    reason: error.reason,
    ...(error.statusCode === undefined ? {} : { statusCode: error.statusCode }),
    message: error.message,
    latencyMs,
    retries: options.retriesOf?.(request) ?? 0,
  });
}

/** `model` decorated with `cacheCalls(cache, options)`. */
export function withCallCache(model: ChatModel, cache: CallCache, options: CallCacheOptions): ChatModel {
  return decorate(model, [cacheCalls(cache, options)]);
}
