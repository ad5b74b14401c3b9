import { watchAbort } from '../../abort-watch.js';
import type { ChatModel, GenerateReply, GenerateRequest } from '../../chat-model.js';
import { isModelCallError, type ModelCallError } from '../../model-call-error.js';
import {
  type CoolDown,
  chooseReplica,
  DEFAULT_COOL_DOWN,
  markFailed,
  markSucceeded,
  type ReplicaChoice,
  type ReplicaHealth,
  type ReplicaStatus,
  statusOf,
} from './replica-selection.js';

/** One replica of a pooled model: its endpoint (for people) and the adapter that calls it. */
interface Replica {
  readonly endpoint: string;
  readonly model: ChatModel;
}

/** A replica going out of the pool (with the error that took it out) or answering again. */
export type ReplicaEvent =
  | { readonly kind: 'out'; readonly endpoint: string; readonly error: ModelCallError; readonly outForMs: number }
  | { readonly kind: 'back'; readonly endpoint: string };

export interface ReplicaPoolOptions {
  /** The model's name (what the user wrote). */
  readonly name: string;
  readonly replicas: readonly Replica[];
  /** Calls in flight at most per replica; none unless given. */
  readonly replicaConcurrency?: number;
  /** The pool's clock, in ms (monotonic is best). */
  readonly now: () => number;
  /**
   * The run stopping (a first Ctrl-C): after it, a call waiting for a replica with room never goes out, and
   * a call failed by its replica is not sent to another (its error goes up, to the retry layer, which stops).
   */
  readonly stopSignal?: AbortSignal;
  readonly coolDown?: Partial<CoolDown>;
  readonly onReplicaEvent?: (event: ReplicaEvent) => void;
}

/** One replica as a progress display shows it. */
export interface ReplicaView {
  readonly endpoint: string;
  readonly status: ReplicaStatus;
  /** With status `out`: for how much longer. */
  readonly outForMs?: number;
  readonly inFlight: number;
  /** Calls it answered. */
  readonly served: number;
  /** Calls that failed on it through its fault (5xx, 429, no reply), each then sent to another replica or up. */
  readonly failed: number;
  /** Times it was taken out. */
  readonly timesOut: number;
}

/** The pool as a whole, for the progress display and the run's summary. */
export interface ReplicaPoolView {
  readonly replicas: readonly ReplicaView[];
  /** Calls sent on to another replica after a replica's fault, without using the model's retries. */
  readonly failovers: number;
  /** Calls in flight at most per replica, when limited. */
  readonly replicaConcurrency?: number;
}

/** A call waiting for a replica with room: the replicas it already failed on, and how to send it on. */
interface Waiter {
  readonly tried: ReadonlySet<number>;
  readonly serve: (index: number | undefined) => void;
}

interface ReplicaSlot extends ReplicaHealth {
  readonly replica: Replica;
  served: number;
  failed: number;
}

/**
 * A fault of the replica rather than of the request: every retryable `ModelCallError` (5xx, 408,
 * 409, 429, no reply, a timeout, an unreadable reply). A 4xx that is not retried is the request's
 * fault and would fail the same way on every replica.
 */
function isReplicaFault(error: unknown): error is ModelCallError {
  return isModelCallError(error) && error.retryable;
}

/**
 * One model served by several replicas (docs/design/replicas.md), as one `ChatModel`. Each call
 * goes to the replica with the fewest calls outstanding (ties round robin), among those that are
 * up and below `replicaConcurrency`. A replica that fails a call through its own fault is taken
 * out for a cool-down and the call goes at once to another replica it has not tried; this is not
 * a retry (the model's retry budget is untouched). When every replica the call may use has failed
 * it or is out, the last error goes up to the retry layer as it came. Errors of the request (4xx)
 * and aborts go up at once.
 */
export class ReplicaPool implements ChatModel {
  readonly name: string;
  readonly simulated = false;
  private readonly slots: ReplicaSlot[];
  private readonly coolDown: CoolDown;
  private cursor = 0;
  private failovers = 0;
  /** Calls waiting for a replica with room (only with `replicaConcurrency`), in the order they came. */
  private waiting: Waiter[] = [];

  constructor(private readonly options: ReplicaPoolOptions) {
    if (options.replicas.length === 0) throw new RangeError(`${options.name}: a replica pool needs at least one replica`);
    this.name = options.name;
    this.slots = options.replicas.map((replica) => ({ replica, outstanding: 0, failureStreak: 0, outages: 0, served: 0, failed: 0 }));
    this.coolDown = { ...DEFAULT_COOL_DOWN, ...options.coolDown };
  }

  async generate(request: GenerateRequest): Promise<GenerateReply> {
    const tried = new Set<number>();
    let lastError: ModelCallError | undefined;
    for (;;) {
      const index = await this.takeReplica(tried, [request.abortSignal, this.options.stopSignal]);
      if (index === undefined) throw lastError!;
      if (lastError) this.failovers += 1;
      const slot = this.slots[index]!;
      const outagesAtStart = slot.outages;
      try {
        const reply = await slot.replica.model.generate(request);
        slot.served += 1;
        if (markSucceeded(slot, outagesAtStart)) this.options.onReplicaEvent?.({ kind: 'back', endpoint: slot.replica.endpoint });
        return reply;
      } catch (error) {
        if (!isReplicaFault(error) || request.abortSignal?.aborted) throw error;
        this.recordFault(slot, error, outagesAtStart);
        // A stopping run sends nothing more: the error goes up (the retry layer leaves the call for --resume).
        if (this.options.stopSignal?.aborted) throw error;
        tried.add(index);
        lastError = error;
      } finally {
        slot.outstanding -= 1;
        this.serveWaiting();
      }
    }
  }

  /** The replicas now, and the failovers so far. */
  view(): ReplicaPoolView {
    const nowMs = this.options.now();
    return {
      failovers: this.failovers,
      ...(this.options.replicaConcurrency === undefined ? {} : { replicaConcurrency: this.options.replicaConcurrency }),
      replicas: this.slots.map((slot) => {
        const status = statusOf(slot, nowMs);
        return {
          endpoint: slot.replica.endpoint,
          status,
          ...(status === 'out' ? { outForMs: slot.outUntilMs! - nowMs } : {}),
          inFlight: slot.outstanding,
          served: slot.served,
          failed: slot.failed,
          timesOut: slot.outages,
        };
      }),
    };
  }

  /**
   * Picks a replica for the call and counts the call on it, or undefined when none is left to try.
   * While every replica it may use is full, the call waits in line (see `serveWaiting`).
   */
  private takeReplica(tried: ReadonlySet<number>, signals: ReadonlyArray<AbortSignal | undefined>): Promise<number | undefined> {
    const watched = signals.filter((signal): signal is AbortSignal => signal !== undefined);
    for (const signal of watched) signal.throwIfAborted();
    const choice = this.choose(tried);
    if (choice.kind !== 'wait') return Promise.resolve(this.take(choice));
    return new Promise((resolve, reject) => {
      // Through one listener on each of the run's signals, shared by every call (see watchAbort).
      const stopWatching = watched.map((signal) =>
        watchAbort(signal, () => {
          for (const stop of stopWatching) stop();
          this.waiting = this.waiting.filter((other) => other !== waiter);
          reject(signal.reason);
        }),
      );
      const waiter: Waiter = {
        tried,
        serve: (index) => {
          for (const stop of stopWatching) stop();
          resolve(index);
        },
      };
      this.waiting.push(waiter);
    });
  }

  private choose(tried: ReadonlySet<number>): ReplicaChoice {
    return chooseReplica(this.slots, {
      nowMs: this.options.now(),
      tried,
      cursor: this.cursor,
      ...(this.options.replicaConcurrency === undefined ? {} : { limit: this.options.replicaConcurrency }),
    });
  }

  private take(choice: Exclude<ReplicaChoice, { kind: 'wait' }>): number | undefined {
    if (choice.kind === 'none') return undefined;
    this.slots[choice.index]!.outstanding += 1;
    this.cursor = (choice.index + 1) % this.slots.length;
    return choice.index;
  }

  /**
   * A call ended (a slot is free, a replica may have gone out): the waiting calls are served in
   * the order they came, each that can go now sent on, the others left waiting in their place.
   */
  private serveWaiting(): void {
    if (this.waiting.length === 0) return;
    const stillWaiting: Waiter[] = [];
    for (const waiter of this.waiting) {
      const choice = this.choose(waiter.tried);
      if (choice.kind === 'wait') stillWaiting.push(waiter);
      else waiter.serve(this.take(choice));
    }
    this.waiting = stillWaiting;
  }

  private recordFault(slot: ReplicaSlot, error: ModelCallError, outagesAtStart: number): void {
    slot.failed += 1;
    const failure = {
      nowMs: this.options.now(),
      outagesAtStart,
      rateLimited: error.statusCode === 429,
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    };
    const outForMs = markFailed(slot, failure, this.coolDown);
    if (outForMs === undefined) return;
    this.options.onReplicaEvent?.({ kind: 'out', endpoint: slot.replica.endpoint, error, outForMs });
  }
}
