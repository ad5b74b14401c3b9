import type { ChatModel, GenerateReply, GenerateRequest } from '../chat-model.js';
import { type ChatModelMiddleware, decorate } from '../decorate.js';
import { linkSignals } from './linked-signal.js';
import { type LimiterState, type RateLimitDependencies, type RateLimitOptions, RequestLimiter } from './request-limiter.js';
import { sleepMs } from './with-retry.js';

export type { LimiterState, RateLimitDependencies, RateLimitOptions } from './request-limiter.js';

/** A rate-limited model: a `ChatModel` that also shows its limiter's state. */
export interface RateLimitedChatModel extends ChatModel {
  limiterState(): LimiterState;
}

const CHARACTERS_PER_TOKEN = 4;

/** The real monotonic clock, for production wiring. */
function systemRateLimitDependencies(): RateLimitDependencies {
  return { now: () => performance.now(), sleep: sleepMs };
}

/** A request's tokens before the call: its message characters / 4 (rounded up) plus `maxOutputTokens`. */
export function estimateRequestTokens(request: GenerateRequest): number {
  return estimateInputTokens(request) + request.maxOutputTokens;
}

function estimateInputTokens(request: GenerateRequest): number {
  const characters = request.messages.reduce((sum, message) => sum + message.content.length, 0);
  return Math.ceil(characters / CHARACTERS_PER_TOKEN);
}

/** The tokens a finished call used: real usage, its missing parts filled by the estimate; undefined without usage. */
function countUsedTokens(request: GenerateRequest, reply: GenerateReply): number | undefined {
  const usage = reply.usage;
  if (usage?.inputTokens === undefined && usage?.outputTokens === undefined) return undefined;
  return (usage.inputTokens ?? estimateInputTokens(request)) + (usage.outputTokens ?? request.maxOutputTokens);
}

/** A rate-limit middleware: it also shows the state of its one limiter (shared by every model it decorates). */
export interface RateLimitMiddleware extends ChatModelMiddleware {
  limiterState(): LimiterState;
}

/**
 * A per-model limiter: at most `maxConcurrency` calls in flight, and at most `requestsPerMinute`
 * call starts and `tokensPerMinute` tokens in any sliding 60-second window (see `RequestLimiter`).
 * Calls wait in FIFO order; a wait stops when `request.abortSignal` or `waitSignal` (the run
 * stopping) aborts, rejecting with the signal's reason. On a 429 the effective rate halves and grows
 * back on successes. The limiter never retries: it rethrows every error (put `retryCalls` before it
 * in the list, i.e. outside it, so every retry passes the limiter). One limiter per call of this
 * function, made (and its options checked) here.
 */
export function limitRate(
  options: RateLimitOptions = {},
  dependencies: RateLimitDependencies = systemRateLimitDependencies(),
  waitSignal?: AbortSignal,
): RateLimitMiddleware {
  const limiter = new RequestLimiter(options, dependencies);
  const middleware: ChatModelMiddleware = (next) => async (request) => {
    const estimatedTokens = estimateRequestTokens(request);
    const stopped = request.abortSignal?.aborted || waitSignal?.aborted;
    const permit =
      (stopped ? undefined : limiter.tryAcquire(estimatedTokens)) ?? (await waitForPermit(limiter, estimatedTokens, request.abortSignal, waitSignal));
    let reply: GenerateReply;
    try {
      reply = await next(request);
    } catch (error) {
      limiter.fail(permit, error);
      throw error;
    }
    limiter.complete(permit, countUsedTokens(request, reply));
    return reply;
  };
  return Object.assign(middleware, { limiterState: () => limiter.state() });
}

/** A permit in turn; the wait ends with the reason of whichever signal aborts first. */
async function waitForPermit(limiter: RequestLimiter, estimatedTokens: number, abortSignal?: AbortSignal, waitSignal?: AbortSignal) {
  const waiting = linkSignals(abortSignal, waitSignal);
  try {
    return await limiter.acquire(estimatedTokens, waiting.signal);
  } finally {
    waiting.dispose();
  }
}

/** `model` decorated with `limitRate(options, dependencies, waitSignal)`, showing the limiter's state. */
export function withRateLimit(
  model: ChatModel,
  options: RateLimitOptions = {},
  dependencies: RateLimitDependencies = systemRateLimitDependencies(),
  waitSignal?: AbortSignal,
): RateLimitedChatModel {
  const rateLimit = limitRate(options, dependencies, waitSignal);
  return { ...decorate(model, [rateLimit]), limiterState: rateLimit.limiterState };
}
