import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../chat-model.js';
import { ModelCallError } from '../model-call-error.js';
import { type ScriptedAnswer, ScriptedChatModel } from '../scripted-model.js';
import { MAX_UNREACHABLE_RETRIES, type RetryEvent, type RetryOptions, sleepMs, withRetry } from './with-retry.js';

const request: GenerateRequest = { messages: [{ role: 'user', content: 'Hello' }], maxOutputTokens: 400, seed: 1 };

function callError(statusCode: number | undefined, retryable: boolean, retryAfterMs?: number): ModelCallError {
  return new ModelCallError(`call failed (${statusCode ?? 'network'})`, {
    provider: 'openai',
    model: 'gpt-4o-mini',
    reason: 'api',
    retryable,
    ...(statusCode === undefined ? {} : { statusCode }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/** A retry wrapper over a scripted model with a fake clock that records each wait and never waits. */
function setUp(script: readonly ScriptedAnswer[], options: RetryOptions = {}) {
  const scripted = new ScriptedChatModel('openai/gpt-4o-mini', script);
  const waitsMs: number[] = [];
  const events: RetryEvent[] = [];
  const model = withRetry(
    scripted,
    { ...options, onRetry: (event) => events.push(event) },
    { sleep: async (durationMs) => void waitsMs.push(durationMs), random: () => 0.5 },
  );
  return { model, scripted, waitsMs, events };
}

describe('withRetry', () => {
  it('fails at once, as rate-limited, when the server asks for a longer wait than maxRetryAfterMs', async () => {
    const { model, scripted, waitsMs } = setUp([callError(429, true, 3_600_000), 'fine'], { maxRetryAfterMs: 120_000 });
    const failure = (await model.generate(request).catch((error: unknown) => error)) as ModelCallError;
    expect(failure).toBeInstanceOf(ModelCallError);
    expect(failure).toMatchObject({ retryable: false, statusCode: 429, retryAfterMs: 3_600_000 });
    expect(failure.message).toBe(
      'openai/gpt-4o-mini: rate-limited: the server asks to wait 3600 s (Retry-After), longer than maxRetryAfterMs (120 s); the call fails: raise maxRetryAfterMs for this model in the config to wait that long',
    );
    expect(scripted.requests).toHaveLength(1);
    expect(waitsMs).toEqual([]);
  });

  it('waits for a Retry-After within maxRetryAfterMs (120 s unless configured)', async () => {
    const { model, waitsMs } = setUp([callError(429, true, 90_000), 'fine']);
    await expect(model.generate(request)).resolves.toMatchObject({ text: 'fine' });
    expect(waitsMs).toEqual([90_000]);
  });

  it("ends a wait when the run stops (waitSignal), with the stop's reason", async () => {
    const stopping = new AbortController();
    const scripted = new ScriptedChatModel('openai/gpt-4o-mini', [callError(429, true, 100_000), 'fine']);
    const model = withRetry(scripted, { waitSignal: stopping.signal });
    const pending = model.generate(request);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const reason = new Error('the run stopped');
    stopping.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(scripted.requests).toHaveLength(1);
  });

  it('tries nothing again once the run has stopped: a failure then rejects with the stop, for --resume, and no retry is announced', async () => {
    const stopping = new AbortController();
    const reason = new Error('the run stopped');
    stopping.abort(reason);
    const { model, scripted, waitsMs, events } = setUp([callError(503, true), 'fine'], { waitSignal: stopping.signal });
    await expect(model.generate(request)).rejects.toBe(reason);
    expect(scripted.requests).toHaveLength(1);
    expect(waitsMs).toEqual([]);
    expect(events).toEqual([]);
  });

  it('retries retryable failures and returns the first reply', async () => {
    const { model, scripted, waitsMs } = setUp([callError(503, true), callError(undefined, true), 'fine']);
    await expect(model.generate(request)).resolves.toEqual({ text: 'fine', finishReason: 'stop' });
    expect(scripted.requests).toHaveLength(3);
    expect(waitsMs).toEqual([500, 1000]);
  });

  it('grows the waits exponentially up to the cap, then rethrows the last error', async () => {
    const errors = Array.from({ length: 9 }, () => callError(503, true));
    const { model, scripted, waitsMs, events } = setUp(errors, { maxRetries: 8 });
    const failure = await model.generate(request).catch((error: unknown) => error);
    expect(failure).toBe(errors[8]);
    expect(scripted.requests).toHaveLength(9);
    // Full jitter with random 0.5: half of min(60 s, 1 s * 2^n).
    expect(waitsMs).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(events.map((event) => event.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(events[0]?.error).toBe(errors[0]);
  });

  it('retries 6 times unless configured', async () => {
    const { model, scripted } = setUp(Array.from({ length: 10 }, () => callError(500, true)));
    await expect(model.generate(request)).rejects.toBeInstanceOf(ModelCallError);
    expect(scripted.requests).toHaveLength(7);
  });

  it('tries a call that could not connect at all (refused, no such host) only twice more, however many retries are allowed', async () => {
    const unreachable = () =>
      new ModelCallError('cannot reach http://127.0.0.1:9/v1/chat/completions (connect ECONNREFUSED 127.0.0.1:9)', {
        provider: 'openai',
        model: 'gpt-4o-mini',
        reason: 'api',
        retryable: true,
        transportFailure: 'unreachable',
      });
    const { model, scripted, events } = setUp(Array.from({ length: 10 }, unreachable));
    await expect(model.generate(request)).rejects.toBeInstanceOf(ModelCallError);
    expect(scripted.requests).toHaveLength(1 + MAX_UNREACHABLE_RETRIES);
    expect(events).toHaveLength(MAX_UNREACHABLE_RETRIES);
    // A connection lost after the request went out is another matter: retried as often as a 5xx.
    const closed = () => new ModelCallError('closed', { provider: 'openai', model: 'gpt-4o-mini', reason: 'api', retryable: true, transportFailure: 'closed' });
    const lost = setUp(Array.from({ length: 10 }, closed));
    await expect(lost.model.generate(request)).rejects.toBeInstanceOf(ModelCallError);
    expect(lost.scripted.requests).toHaveLength(7);
    // Fewer retries allowed in all: fewer for these too.
    const once = setUp(Array.from({ length: 10 }, unreachable), { maxRetries: 1 });
    await expect(once.model.generate(request)).rejects.toBeInstanceOf(ModelCallError);
    expect(once.scripted.requests).toHaveLength(2);
  });

  it('follows a configured base, factor and cap', async () => {
    const errors = Array.from({ length: 5 }, () => callError(500, true));
    const { model, waitsMs } = setUp(errors, { maxRetries: 4, baseDelayMs: 100, backoffFactor: 3, maxDelayMs: 1000 });
    await expect(model.generate(request)).rejects.toBe(errors[4]);
    expect(waitsMs).toEqual([50, 150, 450, 500]);
  });

  it("waits at least the server's retry-after", async () => {
    const { model, waitsMs } = setUp([callError(429, true, 7000), callError(429, true, 10), 'fine']);
    await expect(model.generate(request)).resolves.toMatchObject({ text: 'fine' });
    expect(waitsMs).toEqual([7000, 1000]);
  });

  it('does not retry a non-retryable failure such as a 401', async () => {
    const unauthorized = callError(401, false);
    const { model, scripted, waitsMs } = setUp([unauthorized, 'never']);
    await expect(model.generate(request)).rejects.toBe(unauthorized);
    expect(scripted.requests).toHaveLength(1);
    expect(waitsMs).toEqual([]);
  });

  it('does not retry an error that is not a ModelCallError, whatever its message says', async () => {
    const bug = new Error('429 Too Many Requests: rate limit, please retry');
    const { model, scripted } = setUp([bug, 'never']);
    await expect(model.generate(request)).rejects.toBe(bug);
    expect(scripted.requests).toHaveLength(1);
  });

  it('does not retry when maxRetries is 0', async () => {
    const { model, scripted } = setUp([callError(503, true), 'never'], { maxRetries: 0 });
    await expect(model.generate(request)).rejects.toBeInstanceOf(ModelCallError);
    expect(scripted.requests).toHaveLength(1);
  });

  it('stops waiting at once when the request is aborted and throws the reason', async () => {
    const scripted = new ScriptedChatModel('openai/gpt-4o-mini', [callError(503, true), 'never']);
    let sleeping = false;
    // A fake sleep that never ends by itself: only the abort can end it.
    const sleep = (_durationMs: number, signal?: AbortSignal) =>
      new Promise<void>((_resolve, reject) => {
        sleeping = true;
        signal?.addEventListener('abort', () => reject(new Error('sleep aborted')), { once: true });
      });
    const model = withRetry(scripted, {}, { sleep, random: () => 0.5 });
    const controller = new AbortController();
    const reply = model.generate({ ...request, abortSignal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    expect(sleeping).toBe(true);
    const reason = new Error('run cancelled by the user');
    controller.abort(reason);
    await expect(reply).rejects.toBe(reason);
    expect(scripted.requests).toHaveLength(1);
  });

  it('does not retry once the request is aborted', async () => {
    const controller = new AbortController();
    const failing = callError(503, true);
    const scripted = new ScriptedChatModel('openai/gpt-4o-mini', () => {
      controller.abort(new Error('stop'));
      return failing;
    });
    const model = withRetry(scripted, {}, { sleep: async () => undefined, random: () => 0.5 });
    await expect(model.generate({ ...request, abortSignal: controller.signal })).rejects.toBe(failing);
    expect(scripted.requests).toHaveLength(1);
  });

  it('keeps the name and simulated flag of the model it wraps', () => {
    const model = withRetry(new ScriptedChatModel('sim/eloquent', []));
    expect([model.name, model.simulated]).toEqual(['sim/eloquent', true]);
  });

  it('rejects a negative maxRetries', () => {
    expect(() => withRetry(new ScriptedChatModel('x', []), { maxRetries: -1 })).toThrow(RangeError);
  });
});

describe('sleepMs', () => {
  it('rejects with the abort reason as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const startedMs = performance.now();
    const sleeping = sleepMs(60_000, controller.signal);
    const reason = new Error('cancelled');
    controller.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
    // Far below the 60 s sleep, with room for a loaded machine.
    expect(performance.now() - startedMs).toBeLessThan(30_000);
  });

  it('resolves after a short wait without a signal', async () => {
    await expect(sleepMs(1)).resolves.toBeUndefined();
  });
});
