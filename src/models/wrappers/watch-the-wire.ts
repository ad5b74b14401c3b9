import type { ChatModelMiddleware } from '../decorate.js';

/**
 * Tells `onCallOut` when a call really goes out to the model, and calls the function it returns
 * when the call comes back (with a reply or an error). It belongs innermost, after the rate limiter
 * and the run's shared slot, so that what it counts is calls on the wire, not calls waiting.
 */
export function watchTheWire(onCallOut: () => () => void): ChatModelMiddleware {
  return (next) => async (request) => {
    const callBack = onCallOut();
    try {
      return await next(request);
    } finally {
      callBack();
    }
  };
}
