/**
 * The replica pool's decisions, without I/O: which replica takes a call, and what a failure does to
 * a replica's health. The clock is passed in (`nowMs`). See docs/design/replicas.md.
 */

/** What the pool knows of one replica (mutated only by the functions below and the pool's in-flight count). */
export interface ReplicaHealth {
  /** Calls sent to it and not come back. */
  outstanding: number;
  /** Faults in a row (5xx, no reply): each doubles the next cool-down; a success resets it. */
  failureStreak: number;
  /** Times it was taken out; a call remembers the count it started under (see `markSucceeded`, `markFailed`). */
  outages: number;
  /**
   * Out (no calls) until this time; once it has passed, the replica is on trial: one call at a
   * time until one succeeds. Undefined: up.
   */
  outUntilMs?: number;
}

export interface CoolDown {
  /** The first cool-down after a fault; 10 s unless given. */
  readonly baseMs: number;
  /** The longest cool-down, however many faults in a row; 60 s unless given. */
  readonly maxMs: number;
  /** How long a 429 takes a replica out when the server gives no Retry-After; 1 s unless given. */
  readonly rateLimitedMs: number;
}

export const DEFAULT_COOL_DOWN: CoolDown = { baseMs: 10_000, maxMs: 60_000, rateLimitedMs: 1_000 };

export type ReplicaStatus = 'up' | 'out' | 'on trial';

export function statusOf(replica: ReplicaHealth, nowMs: number): ReplicaStatus {
  if (replica.outUntilMs === undefined) return 'up';
  return nowMs < replica.outUntilMs ? 'out' : 'on trial';
}

/** Where a call goes: a replica, a wait for a free slot, or nowhere (every replica it may use failed it or is out). */
export type ReplicaChoice = { readonly kind: 'replica'; readonly index: number } | { readonly kind: 'wait' } | { readonly kind: 'none' };

export interface SelectionInput {
  readonly nowMs: number;
  /** Replicas this call already failed on: it is not sent to them again. */
  readonly tried: ReadonlySet<number>;
  /** Where the round robin that breaks ties starts (the pool advances it after each pick). */
  readonly cursor: number;
  /** Calls in flight at most per replica (`replicaConcurrency`); none when undefined. */
  readonly limit?: number;
}

/** Calls a replica may take now besides those it has: up to the limit when up, one when on trial, none when out. */
function hasRoom(replica: ReplicaHealth, input: SelectionInput): boolean {
  const status = statusOf(replica, input.nowMs);
  if (status === 'out') return false;
  if (status === 'on trial') return replica.outstanding === 0;
  return input.limit === undefined || replica.outstanding < input.limit;
}

/**
 * The replica a call goes to: among those it has not failed on and that have room, the one with the
 * fewest calls outstanding; ties go round robin from `cursor`. When every untried replica that is
 * not out is full, the call waits. When the call has tried none and every replica is out, it goes
 * to the one whose cool-down ends first, rather than failing without a try: its error then goes to
 * the retry layer, whose back-off spaces the next attempt. A call that has tried some and finds the
 * rest out gets `none`: its last error goes up.
 */
export function chooseReplica(replicas: readonly ReplicaHealth[], input: SelectionInput): ReplicaChoice {
  const count = replicas.length;
  let best: number | undefined;
  let full = false;
  for (let step = 0; step < count; step += 1) {
    const index = (input.cursor + step) % count;
    if (input.tried.has(index)) continue;
    const replica = replicas[index]!;
    if (!hasRoom(replica, input)) {
      if (statusOf(replica, input.nowMs) !== 'out') full = true;
      continue;
    }
    if (best === undefined || replica.outstanding < replicas[best]!.outstanding) best = index;
  }
  if (best !== undefined) return { kind: 'replica', index: best };
  if (full) return { kind: 'wait' };
  if (input.tried.size > 0 || count === 0) return { kind: 'none' };
  let soonest = 0;
  for (let index = 1; index < count; index += 1) {
    if ((replicas[index]!.outUntilMs ?? 0) < (replicas[soonest]!.outUntilMs ?? 0)) soonest = index;
  }
  return { kind: 'replica', index: soonest };
}

/**
 * A call that started when the replica had been taken out `outagesAtStart` times got a reply. The
 * replica is up again, its fault streak forgotten, unless it was taken out since the call started
 * (a slow call that began before the outage says nothing of the replica now). Returns true when
 * this brought it back (it was out or on trial).
 */
export function markSucceeded(replica: ReplicaHealth, outagesAtStart: number): boolean {
  if (outagesAtStart !== replica.outages) return false;
  const wasDown = replica.outUntilMs !== undefined;
  replica.failureStreak = 0;
  delete replica.outUntilMs;
  return wasDown;
}

/** How a call failed on a replica through the replica's fault. */
export interface ReplicaFailure {
  readonly nowMs: number;
  /** The replica's `outages` when the call started. */
  readonly outagesAtStart: number;
  /** A 429: the replica is busy rather than ill. */
  readonly rateLimited: boolean;
  readonly retryAfterMs?: number;
}

/**
 * A call failed through the replica's fault: a 429 takes it out for the server's Retry-After (or
 * `rateLimitedMs`), its streak unchanged; another fault for `baseMs` doubled per fault in a row, at
 * most `maxMs`. A replica out now, or taken out since the call started, is left as it is: the calls
 * in flight when it went down fail together and count once. Returns how long it is out, or
 * undefined when this failure did not take it out.
 */
export function markFailed(replica: ReplicaHealth, failure: ReplicaFailure, coolDown: CoolDown = DEFAULT_COOL_DOWN): number | undefined {
  if (failure.outagesAtStart !== replica.outages || statusOf(replica, failure.nowMs) === 'out') return undefined;
  let outForMs: number;
  if (failure.rateLimited) {
    outForMs = Math.min(coolDown.maxMs, failure.retryAfterMs ?? coolDown.rateLimitedMs);
  } else {
    replica.failureStreak += 1;
    outForMs = Math.min(coolDown.maxMs, coolDown.baseMs * 2 ** (replica.failureStreak - 1));
  }
  replica.outUntilMs = failure.nowMs + outForMs;
  replica.outages += 1;
  return outForMs;
}
