import { describe, expect, it } from 'vitest';
import type { ChatModel, GenerateReply, GenerateRequest } from '../chat-model.js';
import { ModelCallError } from '../model-call-error.js';
import { type Script, ScriptedChatModel } from '../scripted-model.js';
import { estimateRequestTokens, type RateLimitOptions, withRateLimit } from './with-rate-limit.js';
import { withRetry } from './with-retry.js';

/** 400 characters (100 tokens) + 400 output tokens: an estimate of 500 tokens. */
const request: GenerateRequest = { messages: [{ role: 'user', content: 'x'.repeat(400) }], maxOutputTokens: 400, seed: 1 };

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A fake clock: time moves only through `advanceBy`, which fires due sleeps in order. */
function createFakeClock() {
  let nowMs = 0;
  const timers = new Set<{ readonly wakeMs: number; readonly resolve: () => void }>();
  const sleep = (durationMs: number, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      const timer = { wakeMs: nowMs + durationMs, resolve };
      timers.add(timer);
      signal?.addEventListener(
        'abort',
        () => {
          timers.delete(timer);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  const advanceBy = async (durationMs: number) => {
    const targetMs = nowMs + durationMs;
    for (;;) {
      await flush();
      const due = [...timers].filter((timer) => timer.wakeMs <= targetMs).sort((a, b) => a.wakeMs - b.wakeMs)[0];
      if (due === undefined) break;
      timers.delete(due);
      nowMs = due.wakeMs;
      due.resolve();
    }
    nowMs = targetMs;
    await flush();
  };
  return { now: () => nowMs, sleep, advanceBy };
}

type FakeClock = ReturnType<typeof createFakeClock>;

/** A scripted model whose calls take `latencyMs` on the fake clock; it records start times and in-flight counts. */
function createTimedModel(clock: FakeClock, script: Script, latencyMs = 0) {
  const scripted = new ScriptedChatModel('openai/gpt-4o-mini', script);
  const startsMs: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const model: ChatModel = {
    name: scripted.name,
    simulated: false,
    async generate(generateRequest) {
      startsMs.push(clock.now());
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        if (latencyMs > 0) await clock.sleep(latencyMs);
        return await scripted.generate(generateRequest);
      } finally {
        inFlight -= 1;
      }
    },
  };
  return { model, scripted, startsMs, maxInFlight: () => maxInFlight };
}

function setUp(options: RateLimitOptions, script: Script = () => 'ok', latencyMs = 0) {
  const clock = createFakeClock();
  const timed = createTimedModel(clock, script, latencyMs);
  const limited = withRateLimit(timed.model, options, clock);
  return { clock, limited, ...timed };
}

function tooManyRequests(): ModelCallError {
  return new ModelCallError('rate limited', { provider: 'openai', model: 'gpt-4o-mini', reason: 'api', statusCode: 429, retryable: true });
}

const replyUsing = (inputTokens: number, outputTokens: number): GenerateReply => ({
  text: 'ok',
  finishReason: 'stop',
  usage: { inputTokens, outputTokens },
});

describe('estimateRequestTokens', () => {
  it('counts message characters / 4, rounded up, plus the output limit', () => {
    const messages = [
      { role: 'system', content: 'abcdef' },
      { role: 'user', content: 'ghij' },
    ] as const;
    expect(estimateRequestTokens({ messages, maxOutputTokens: 400, seed: 1 })).toBe(403);
    expect(estimateRequestTokens(request)).toBe(500);
  });
});

describe('withRateLimit', () => {
  it('never has more than maxConcurrency calls in flight', async () => {
    const { clock, limited, maxInFlight } = setUp({ maxConcurrency: 3 }, () => 'ok', 1000);
    const done: number[] = [];
    const replies = Array.from({ length: 10 }, (_, index) => limited.generate(request).then(() => done.push(index)));
    await clock.advanceBy(0);
    expect(limited.limiterState()).toMatchObject({ inFlight: 3, queued: 7, effectiveConcurrency: 3 });
    await clock.advanceBy(3000);
    expect(done).toHaveLength(9);
    await clock.advanceBy(1000);
    await Promise.all(replies);
    expect(done).toHaveLength(10);
    expect(maxInFlight()).toBe(3);
  });

  it('lets every call through at once when no limit is set', async () => {
    const { clock, limited, maxInFlight } = setUp({}, () => 'ok', 1000);
    const replies = Array.from({ length: 10 }, () => limited.generate(request));
    await clock.advanceBy(1000);
    await Promise.all(replies);
    expect(maxInFlight()).toBe(10);
    expect(limited.limiterState().effectiveConcurrency).toBeUndefined();
  });

  it('makes the 61st request within a minute wait at 60 requests per minute', async () => {
    const { clock, limited, startsMs } = setUp({ requestsPerMinute: 60 });
    const replies = Array.from({ length: 62 }, () => limited.generate(request));
    await clock.advanceBy(59_999);
    expect(startsMs).toHaveLength(60);
    expect(limited.limiterState().queued).toBe(2);
    await clock.advanceBy(1);
    await Promise.all(replies);
    expect(startsMs.slice(58)).toEqual([0, 0, 60_000, 60_000]);
  });

  it('counts the real usage of a finished call, not its estimate', async () => {
    // Estimates of 500 would fill 1 000 tokens after two calls; the real usage of 100 each does not.
    const { clock, limited, startsMs } = setUp({ tokensPerMinute: 1000 }, () => replyUsing(60, 40));
    for (let call = 0; call < 5; call += 1) await limited.generate(request);
    expect(startsMs).toEqual([0, 0, 0, 0, 0]);
    expect(limited.limiterState().tokensInWindow).toBe(500);
    await clock.advanceBy(60_000);
    expect(limited.limiterState().tokensInWindow).toBe(0);
  });

  it('makes a call wait when real usage fills the token window', async () => {
    const { clock, limited, startsMs } = setUp({ tokensPerMinute: 1000 }, () => replyUsing(500, 200));
    await limited.generate(request);
    const second = limited.generate(request);
    await clock.advanceBy(59_000);
    expect(startsMs).toEqual([0]);
    expect(limited.limiterState()).toMatchObject({ queued: 1, tokensInWindow: 700 });
    await clock.advanceBy(1000);
    await second;
    expect(startsMs).toEqual([0, 60_000]);
  });

  it('fills missing usage parts with the estimate and starts an oversized call in an empty window', async () => {
    const { limited, startsMs } = setUp({ tokensPerMinute: 300 }, () => ({ text: 'ok', finishReason: 'stop', usage: { outputTokens: 5 } }));
    await limited.generate(request);
    expect(startsMs).toEqual([0]);
    expect(limited.limiterState().tokensInWindow).toBe(105);
  });

  it('halves the effective rate on a 429, rethrows without retrying, and grows back on successes', async () => {
    const { limited, scripted } = setUp({ requestsPerMinute: 60, maxConcurrency: 8 }, (_request, callNumber) => (callNumber === 1 ? tooManyRequests() : 'ok'));
    await expect(limited.generate(request)).rejects.toMatchObject({ statusCode: 429 });
    expect(scripted.requests).toHaveLength(1);
    expect(limited.limiterState()).toMatchObject({ effectiveRequestsPerMinute: 30, effectiveConcurrency: 4 });
    await limited.generate(request);
    expect(limited.limiterState()).toMatchObject({ effectiveRequestsPerMinute: 36, effectiveConcurrency: 4 });
    for (let call = 0; call < 4; call += 1) await limited.generate(request);
    expect(limited.limiterState()).toMatchObject({ effectiveRequestsPerMinute: 60, effectiveConcurrency: 8 });
    for (let call = 0; call < 3; call += 1) await limited.generate(request);
    expect(limited.limiterState()).toMatchObject({ effectiveRequestsPerMinute: 60, effectiveConcurrency: 8 });
  });

  it('limits calls in flight to the halved concurrency after a 429', async () => {
    const script: Script = (_request, callNumber) => (callNumber === 1 ? tooManyRequests() : 'ok');
    const { clock, limited, maxInFlight } = setUp({ maxConcurrency: 4 }, script, 1000);
    const failed = limited.generate(request).catch((error: unknown) => error);
    await clock.advanceBy(1000);
    expect(await failed).toBeInstanceOf(ModelCallError);
    expect(limited.limiterState().effectiveConcurrency).toBe(2);
    const replies = Array.from({ length: 4 }, () => limited.generate(request));
    await clock.advanceBy(0);
    expect(limited.limiterState()).toMatchObject({ inFlight: 2, queued: 2 });
    await clock.advanceBy(2000);
    await Promise.all(replies);
    expect(maxInFlight()).toBe(2);
  });

  it('spaces requests by the halved requests-per-minute after a 429', async () => {
    const script: Script = (_request, callNumber) => (callNumber === 1 ? tooManyRequests() : 'ok');
    const { clock, limited, startsMs } = setUp({ requestsPerMinute: 4 }, script);
    await expect(limited.generate(request)).rejects.toBeInstanceOf(ModelCallError);
    expect(limited.limiterState().effectiveRequestsPerMinute).toBe(2);
    await limited.generate(request);
    const third = limited.generate(request);
    await clock.advanceBy(59_999);
    expect(startsMs).toEqual([0, 0]);
    // Why the third waits, for the run's ETA: the two calls of the window started a minute ago.
    expect(limited.limiterState()).toMatchObject({ queued: 1, startedAgoMs: [59_999, 59_999], configured: { requestsPerMinute: 4 } });
    await clock.advanceBy(1);
    await third;
    expect(startsMs).toEqual([0, 0, 60_000]);
    expect(limited.limiterState().startedAgoMs).toEqual([0]);
  });

  it('halves once for a burst of 429s from calls started together, never below 1', async () => {
    const { clock, limited } = setUp({ maxConcurrency: 8 }, () => tooManyRequests(), 1000);
    const burst = Array.from({ length: 8 }, () => limited.generate(request).catch(() => 'failed'));
    await clock.advanceBy(1000);
    await Promise.all(burst);
    expect(limited.limiterState().effectiveConcurrency).toBe(4);
    for (let call = 0; call < 4; call += 1) {
      const reply = limited.generate(request).catch(() => 'failed');
      await clock.advanceBy(1000);
      await reply;
    }
    expect(limited.limiterState().effectiveConcurrency).toBe(1);
  });

  it('adapts concurrency after a 429 even when no limit is configured', async () => {
    const { clock, limited } = setUp({}, (_request, callNumber) => (callNumber === 1 ? tooManyRequests() : 'ok'), 1000);
    const replies = Array.from({ length: 6 }, () => limited.generate(request).catch(() => 'failed'));
    expect(limited.limiterState().effectiveConcurrency).toBeUndefined();
    await clock.advanceBy(1000);
    await Promise.all(replies);
    // Halved from the 6 in flight, then +6.4 (10% of the 64 ceiling) for each of 5 successes.
    expect(limited.limiterState()).toMatchObject({ effectiveConcurrency: 35, effectiveRequestsPerMinute: undefined });
  });

  it('stops waiting when the request is aborted and never calls the model', async () => {
    const { clock, limited, scripted } = setUp({ maxConcurrency: 1 }, () => 'ok', 1000);
    const first = limited.generate(request);
    const controller = new AbortController();
    const second = limited.generate({ ...request, abortSignal: controller.signal });
    await clock.advanceBy(0);
    expect(limited.limiterState().queued).toBe(1);
    const reason = new Error('run cancelled by the user');
    controller.abort(reason);
    await expect(second).rejects.toBe(reason);
    expect(limited.limiterState().queued).toBe(0);
    await clock.advanceBy(1000);
    await first;
    expect(scripted.requests).toHaveLength(1);
  });

  it('passes every retry through the limiter when wrapped by withRetry', async () => {
    const { limited, scripted } = setUp({ requestsPerMinute: 60 }, (_request, callNumber) => (callNumber === 1 ? tooManyRequests() : 'ok'));
    const waitsMs: number[] = [];
    const model = withRetry(limited, {}, { sleep: async (durationMs) => void waitsMs.push(durationMs), random: () => 0.5 });
    await expect(model.generate(request)).resolves.toMatchObject({ text: 'ok' });
    expect(scripted.requests).toHaveLength(2);
    expect(waitsMs).toEqual([500]);
    expect(limited.limiterState().effectiveRequestsPerMinute).toBe(36);
  });
});
