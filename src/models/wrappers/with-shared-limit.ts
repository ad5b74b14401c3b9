import type { ChatModelMiddleware } from '../decorate.js';

/** A counting semaphore: at most `capacity` holders at once, waiters served in order. */
export class Semaphore {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly capacity: number) {
    if (!(Number.isInteger(capacity) && capacity >= 1)) throw new RangeError(`capacity must be a whole number >= 1, got ${capacity}`);
  }

  get inUse(): number {
    return this.held;
  }

  async acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.held < this.capacity) {
      this.held += 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        this.waiting.splice(this.waiting.indexOf(grant), 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(grant);
    });
  }

  release(): void {
    const next = this.waiting.shift();
    if (next)
      next(); // the slot passes straight to the next waiter
    else this.held -= 1;
  }
}

/**
 * Holds a slot of a semaphore shared by all models for the duration of each call: the run's global
 * concurrency. It sits innermost, after the model's own limiter, so that a call waiting for a busy
 * model does not hold a slot that another model could use. Every model this middleware (or any
 * other over the same semaphore) decorates shares the slots.
 */
export function holdSharedLimit(semaphore: Semaphore): ChatModelMiddleware {
  return (next) => async (request) => {
    await semaphore.acquire(request.abortSignal);
    try {
      return await next(request);
    } finally {
      semaphore.release();
    }
  };
}
