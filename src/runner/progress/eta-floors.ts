import type { CallService } from '../run-meter.js';

/**
 * A call on the wire longer than this is shown with its age, and holds the ETA up: a call that has
 * been out that long is as likely as not to take as long again, and the run cannot end before it does.
 */
export const LONG_CALL_MS = 5_000;

/** What holds the ETA above the time the remaining calls take at the run's recent rate. */
export type EtaHold =
  /** The longest conversation still under way, one call after another (the tail of a run). */
  | { readonly kind: 'tail' }
  /** A model's own limits (requests per minute, calls at once) for its share of the remaining calls. */
  | { readonly kind: 'limits'; readonly model: string }
  /** A call of this model that has been on the wire for long. */
  | { readonly kind: 'long call'; readonly model: string }
  /** A call of this model waiting to be tried again (a back-off, a server's Retry-After). */
  | { readonly kind: 'retry'; readonly model: string };

/** The least time the rest of a run can take, by one thing that holds it. */
export interface EtaFloor {
  readonly ms: number;
  readonly hold: EtaHold;
}

/** How fast one model can give its share of the remaining calls. */
export interface ModelPace {
  readonly model: string;
  /** Calls of the plan this model still has to give (its share of the expected calls, less those it gave). */
  readonly remainingCalls: number;
  readonly service: Readonly<CallService>;
  /** Requests per minute allowed now (lower than configured after a 429) and as configured; undefined: no such limit. */
  readonly requestLimit?: RequestLimit;
  /** Calls at once, as configured (the limiter lowers it after a 429 for a few calls only); undefined: no such limit. */
  readonly concurrency?: number;
  /** With `requestLimit`: how long ago each call of the limiter's last minute started (`LimiterState.startedAgoMs`). */
  readonly startedAgoMs?: readonly number[];
}

/** A requests-per-minute limit: allowed now, as configured (what it grows back to), and how often a 429 halves it. */
export interface RequestLimit {
  readonly now: number;
  readonly configured: number;
  /** 429s per attempt: each halves the limit, and a window fuller than that holds every call until it drains. */
  readonly halvingsPerCall?: number;
}

/** After a 429 the limiter grows a lowered limit back by a tenth of the configured one per call (`RateLimitOptions.increaseFraction`). */
const GROWTH_PER_CALL = 0.1;

/** Attempts counted as one each before a model's own are known: a few faults early on do not make it look slow. */
const PRIOR_ATTEMPTS = 5;

/**
 * Ms a call of the plan takes, from its first attempt to its answer: the time on the wire of every
 * attempt (re-samples and retries included) and the back-offs between them, without waits in a queue.
 * Undefined before a call of the plan reached a model.
 */
export function serviceMsPerCall(service: Readonly<CallService>): number | undefined {
  if (service.planCalls === 0 || service.wireCalls === 0) return undefined;
  return (service.wireMs + service.backoffMs) / service.planCalls;
}

/** Attempts per call of the plan (1 without faults; each retry and re-sample is one more), starting from 1. */
export function attemptsPerCall(service: Readonly<CallService>): number {
  return Math.max(1, (service.wireCalls + PRIOR_ATTEMPTS) / (service.planCalls + PRIOR_ATTEMPTS));
}

/** The share of attempts refused with a 429 so far, starting from none. */
export function rateLimitedShare(service: Readonly<CallService>): number {
  return service.rateLimited / (service.wireCalls + PRIOR_ATTEMPTS);
}

/** Starts projected at most, for a huge run: beyond them the window's rate alone counts. */
const MAX_PROJECTED_STARTS = 10_000;

/**
 * Ms from now until `count` more calls can have started under a sliding window: a call may start
 * while fewer calls than the limit started in the last 60 s, so a full window holds the next call
 * until its oldest start leaves it (the limiter's wait), and after that the calls go at the limit's
 * pace. As the limiter does, a 429 halves the limit and each call grows it back by a tenth of the
 * configured one; a window fuller than a halved limit holds every call until it drains. The 429s
 * to come are spread evenly at the rate seen (`halvingsPerCall`).
 * `startedAgoMs`: how long ago the window's calls started, oldest first.
 */
export function requestWindowWaitMs(count: number, limit: RequestLimit, startedAgoMs: readonly number[]): number {
  const projected = Math.min(Math.ceil(count), MAX_PROJECTED_STARTS);
  // Start times relative to now (past ones negative), in order; future ones appended as they would come.
  const starts = startedAgoMs.map((agoMs) => -agoMs);
  let allowed = limit.now;
  let lastMs = 0;
  // Half a 429 owed from the start: a 429 is counted once half of one is expected (rounded, not cut off).
  let halvings = 0.5;
  for (let start = 0; start < projected; start++) {
    const blocking = starts[starts.length - Math.max(1, Math.floor(allowed + 1e-9))];
    lastMs = Math.max(lastMs, blocking === undefined ? 0 : blocking + 60_000);
    starts.push(lastMs);
    halvings += limit.halvingsPerCall ?? 0;
    if (halvings >= 1) {
      halvings -= 1;
      allowed = Math.max(1, allowed / 2);
    } else allowed = Math.min(limit.configured, allowed + limit.configured * GROWTH_PER_CALL);
  }
  const beyond = Math.ceil(count) - projected;
  return lastMs + (beyond > 0 ? (beyond / Math.max(1, Math.floor(limit.configured))) * 60_000 : 0);
}

/**
 * The least time a model's remaining calls take under its limiter: until its last attempt may start
 * under its requests per minute (and that attempt's time on the wire), and its calls' time on the
 * wire spread over the calls it may have at once. Back-offs are not in the second: a call waiting
 * to retry holds no slot.
 */
export function limitsFloorMs(pace: ModelPace): number {
  const { service, remainingCalls } = pace;
  const wireMsPerAttempt = service.wireCalls > 0 ? service.wireMs / service.wireCalls : 0;
  const attempts = remainingCalls * attemptsPerCall(service);
  const byRequests =
    pace.requestLimit === undefined || attempts < 1 ? 0 : requestWindowWaitMs(attempts, pace.requestLimit, pace.startedAgoMs ?? []) + wireMsPerAttempt;
  const wireMsPerCall = service.planCalls > 0 ? service.wireMs / service.planCalls : 0;
  const byConcurrency = pace.concurrency === undefined ? 0 : (remainingCalls * wireMsPerCall) / pace.concurrency;
  return Math.max(byRequests, byConcurrency);
}

/** What the rest of a run needs at least, besides the recent rate. */
export interface FloorInput {
  /** Calls the longest conversation still under way needs (0 or undefined: none known). */
  readonly longestRemainingCalls?: number;
  /** What every model's calls took so far, for the tail. */
  readonly service: Readonly<CallService>;
  /** Per model with limits and a known share of the calls. */
  readonly paces: readonly ModelPace[];
  /** Per model, how long its oldest call on the wire has been out, in ms. */
  readonly oldestCallAgeMs: ReadonlyArray<{ readonly model: string; readonly ageMs: number }>;
  /**
   * Per model with calls waiting to be tried again: ms until the last of those retries goes out, and the
   * model's mean time on the wire per attempt so far.
   */
  readonly retryWaits?: ReadonlyArray<{ readonly model: string; readonly waitMs: number; readonly wireMsPerAttempt: number }>;
}

/**
 * Every floor under the ETA: the tail, each limited model, each call out longer than `LONG_CALL_MS`, and
 * each model's calls waiting to be tried again: the last of them goes out when its wait ends, and takes a
 * model's time on the wire per attempt after that (a run whose calls all back off for a minute has at
 * least a minute left, whatever its rate before said).
 */
export function etaFloors(input: FloorInput): EtaFloor[] {
  const floors: EtaFloor[] = [];
  const stepMs = serviceMsPerCall(input.service);
  if (stepMs !== undefined && input.longestRemainingCalls) floors.push({ ms: input.longestRemainingCalls * stepMs, hold: { kind: 'tail' } });
  for (const pace of input.paces) floors.push({ ms: limitsFloorMs(pace), hold: { kind: 'limits', model: pace.model } });
  for (const { model, ageMs } of input.oldestCallAgeMs) if (ageMs >= LONG_CALL_MS) floors.push({ ms: ageMs, hold: { kind: 'long call', model } });
  for (const { model, waitMs, wireMsPerAttempt } of input.retryWaits ?? []) {
    if (waitMs > 0) floors.push({ ms: waitMs + wireMsPerAttempt, hold: { kind: 'retry', model } });
  }
  return floors;
}
