import { watchAbort } from '../abort-watch.js';
import type { ChatModelMiddleware } from '../decorate.js';

/**
 * A counting semaphore: at most `capacity` holders at once. Waiters are served lowest rank first,
 * and in order of arrival within a rank (all rank 0: first come, first served).
 */
export class Semaphore {
  private held = 0;
  /** Waiters by rank, each rank's in order of arrival. */
  private readonly waiting: Array<Array<() => void> | undefined> = [];
  private waiters = 0;

  constructor(readonly capacity: number) {
    if (!(Number.isInteger(capacity) && capacity >= 1)) throw new RangeError(`capacity must be a whole number >= 1, got ${capacity}`);
  }

  get inUse(): number {
    return this.held;
  }

  /**
   * Takes a slot, waiting while none is free; `rank` is a whole number >= 0, lower served sooner. The wait
   * ends, rejecting with its reason, when any of `signals` aborts (at once if one has).
   */
  async acquire(signals?: AbortSignal | ReadonlyArray<AbortSignal | undefined>, rank = 0): Promise<void> {
    const watched = (Array.isArray(signals) ? signals : [signals]).filter((signal): signal is AbortSignal => signal !== undefined);
    for (const signal of watched) signal.throwIfAborted();
    if (this.held < this.capacity) {
      this.held += 1;
      return;
    }
    const queue = this.waiting[rank] ?? [];
    this.waiting[rank] = queue;
    await new Promise<void>((resolve, reject) => {
      // The run's signals, each watched through one listener (an EventTarget's listeners are a list
      // that every add and remove walks: hundreds of waiters made each slot cost more than its call).
      const stopWatching = watched.map((signal) =>
        watchAbort(signal, () => {
          for (const stop of stopWatching) stop();
          queue.splice(queue.indexOf(grant), 1);
          this.waiters -= 1;
          reject(signal.reason);
        }),
      );
      const grant = () => {
        for (const stop of stopWatching) stop();
        resolve();
      };
      queue.push(grant);
      this.waiters += 1;
    });
  }

  release(): void {
    if (this.waiters > 0) {
      for (const queue of this.waiting) {
        if (queue === undefined || queue.length === 0) continue;
        this.waiters -= 1;
        queue.shift()!(); // the slot passes straight to the next waiter
        return;
      }
    }
    this.held -= 1;
  }
}

/**
 * Holds a slot of a semaphore shared by all models for the duration of each call: the run's global
 * concurrency. It sits innermost, after the model's own limiter, so that a call waiting for a busy
 * model does not hold a slot that another model could use. Every model this middleware (or any
 * other over the same semaphore) decorates shares the slots.
 *
 * A free slot goes to the waiting call with the fewest messages: the one earliest in its
 * conversation, so with the most calls still to come after it. First come, first served let the
 * conversations admitted last wait behind everyone for each of their turns, and a run ended with a
 * tail of a few such conversations on the wire (~0.45 s of 5.4 s in bench/tournament.mjs; ~0.1 s
 * served this way). Which call waits never changes what is asked, so results are the same.
 *
 * `stopSignal` is the run stopping (a first Ctrl-C): a call still waiting for a slot then never goes out
 * (it rejects with the signal's reason and is left for --resume), while calls on the wire finish.
 */
export function holdSharedLimit(semaphore: Semaphore, stopSignal?: AbortSignal): ChatModelMiddleware {
  return (next) => async (request) => {
    await semaphore.acquire([request.abortSignal, stopSignal], request.messages.length);
    try {
      // A slot freed in the same turn as the stop may have been handed on before the stop was seen.
      stopSignal?.throwIfAborted();
      return await next(request);
    } finally {
      semaphore.release();
    }
  };
}
