import type { ChatModel, GenerateReply, GenerateRequest } from './chat-model.js';

/** One call of a model: what a middleware receives as `next` and what it returns. */
export type GenerateFn = (request: GenerateRequest) => Promise<GenerateReply>;

/**
 * One layer of behaviour around `generate` (retry, cache, rate limit, ...). Given the next layer
 * inward (in the end the model itself) and the model's identity (for error messages), it returns
 * its own `generate`, which may call `next` once, several times (retry) or not at all (a cache hit).
 *
 * `decorate` calls a middleware once, when it builds the model, not per call: state kept per model
 * (an in-flight map) belongs in that call's closure; state made by the factory that returns the
 * middleware (a limiter, a shared semaphore) is shared by every model that middleware decorates.
 */
export type ChatModelMiddleware = (next: GenerateFn, model: Pick<ChatModel, 'name' | 'simulated'>) => GenerateFn;

/**
 * Wraps `model` in `middlewares`, the first in the list outermost: a request passes the layers in
 * list order on its way to the model, the reply in reverse order on its way back, so
 * `decorate(model, [a, b])` behaves as `a` around `b` around `model`. An empty list gives a model
 * that only forwards. `name` and `simulated` are copied from `model` here, once: no layer can
 * change or forget them.
 */
export function decorate(model: ChatModel, middlewares: readonly ChatModelMiddleware[]): ChatModel {
  const identity = { name: model.name, simulated: model.simulated };
  // Called through `model` so that adapters written as classes keep their `this`.
  const innermost: GenerateFn = (request) => model.generate(request);
  const generate = middlewares.reduceRight<GenerateFn>((next, middleware) => middleware(next, identity), innermost);
  return { ...identity, generate };
}

/**
 * A decorator in function form, `(model) => ChatModel`, as a middleware, so such layers can sit
 * in a list. The decorator is applied once, to a model with this identity whose `generate` is the
 * next layer; the `name` and `simulated` of what it returns are not used.
 */
export function toMiddleware(decorator: (model: ChatModel) => ChatModel): ChatModelMiddleware {
  return (next, model) => {
    const decorated = decorator({ ...model, generate: next });
    return (request) => decorated.generate(request);
  };
}
