import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOf } from '../../test/support/call-failure.js';
import { FakeProviderServer, type FakeResponse, RESPONSE_SHAPES } from '../../test/support/fake-provider-server.js';
import { MemoryCallCache } from './call-cache.js';
import type { ChatModel, GenerateRequest } from './chat-model.js';
import { type ChatModelDependencies, createChatModel } from './create-chat-model.js';
import type { ModelSettings } from './model-settings.js';
import { cacheCalls } from './wrappers/with-call-cache.js';

let server: FakeProviderServer;
beforeAll(async () => {
  server = await FakeProviderServer.start();
});
afterAll(() => server.close());

const REPLY = '<message>Fine.</message>\n<support_ranking>Neutral</support_ranking>';
const request: GenerateRequest = { messages: [{ role: 'user', content: 'Hello' }], temperature: 0.7, maxOutputTokens: 400, seed: 7 };
const rateLimited = (headers: Record<string, string>): FakeResponse => ({
  status: 429,
  headers,
  body: RESPONSE_SHAPES.openaiError('Rate limit reached', 'requests', 'rate_limit_exceeded'),
});

/** An OpenAI model on the fake server whose waits are recorded instead of slept. */
function build(overrides: Partial<ModelSettings> = {}, dependencies: ChatModelDependencies = {}) {
  const waits: number[] = [];
  const settings: ModelSettings = {
    name: 'openai/m',
    provider: 'openai',
    model: 'm',
    baseURL: `${server.url}/v1`,
    apiKeyEnv: 'OPENAI_API_KEY',
    timeoutMs: 2000,
    maxRetries: 6,
    ...overrides,
  };
  const { model, limiter } = createChatModel(settings, {
    apiKey: 'k',
    retry: { sleep: async (durationMs) => void waits.push(durationMs), random: () => 0.5 },
    ...dependencies,
  });
  return { model, limiter, waits };
}

describe('createChatModel: retries through the whole stack against a loopback server', () => {
  it('rides out a 429 with Retry-After, a 500, a reset and malformed JSON, then succeeds', async () => {
    server.reply(
      rateLimited({ 'retry-after': '3' }),
      { status: 500, body: RESPONSE_SHAPES.openaiError('The server had an error', 'server_error', null) },
      'reset',
      { raw: '{"choices": [ {"message": ' },
      { status: 200, body: RESPONSE_SHAPES.openaiChat(REPLY) },
    );
    const { model, waits } = build();
    const reply = await model.generate(request);
    expect(reply.text).toBe(REPLY);
    expect(server.requests).toHaveLength(5);
    // Full jitter at random 0.5 of 1 s x 2^(n-1), but never less than the server's Retry-After.
    expect(waits).toEqual([3000, 1000, 2000, 4000]);
  });

  it('honours retry-after-ms above the back-off', async () => {
    server.reply(rateLimited({ 'retry-after-ms': '2500' }), { status: 200, body: RESPONSE_SHAPES.openaiChat(REPLY) });
    const { model, waits } = build();
    await model.generate(request);
    expect(waits).toEqual([2500]);
  });

  it('gives up after maxRetries and reports the last error', async () => {
    server.reply({ status: 503, body: { error: { message: 'overloaded' } } });
    const { model, waits } = build({ maxRetries: 3 });
    const error = await failureOf(model.generate(request));
    expect(error).toMatchObject({ statusCode: 503, retryable: true, reason: 'api' });
    expect(server.requests).toHaveLength(4);
    expect(waits).toEqual([500, 1000, 2000]);
  });

  it.each([
    ['401', { status: 401, body: RESPONSE_SHAPES.openaiError('Incorrect API key provided', 'invalid_request_error', 'invalid_api_key') }, 'api'],
    [
      '400 context',
      { status: 400, body: RESPONSE_SHAPES.openaiError('maximum context length is 8192 tokens', 'invalid_request_error', 'context_length_exceeded') },
      'context',
    ],
    ['400 content filter', { status: 400, body: RESPONSE_SHAPES.openaiError('filtered', 'invalid_request_error', 'content_filter') }, 'refusal'],
  ] as const)('fails fast on %s with reason %s', async (_name, response, reason) => {
    server.reply(response);
    const { model, waits } = build();
    expect(await failureOf(model.generate(request))).toMatchObject({ reason, retryable: false });
    expect(server.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('retries a hang past the timeout, then reports the timeout', async () => {
    server.reply('hang');
    const { model } = build({ timeoutMs: 150, maxRetries: 1 });
    const error = await failureOf(model.generate(request));
    expect(error.message).toContain('no reply within 150 ms');
    expect(server.requests).toHaveLength(2);
  });

  it("applies the model's own temperature (or none) and token limit, and prices the call", async () => {
    server.reply({ status: 200, body: RESPONSE_SHAPES.openaiChat(REPLY) });
    const { model } = build({ temperature: null, maxTokens: 64, inputUsdPerMillion: 0.15, outputUsdPerMillion: 0.6 });
    const reply = await model.generate(request);
    expect(server.requests[0]!.body).not.toHaveProperty('temperature');
    expect(server.requests[0]!.body).toMatchObject({ max_tokens: 64 });
    // 1117 input and 46 output tokens in the replayed response.
    expect(reply.costUsd).toBeCloseTo((1117 * 0.15 + 46 * 0.6) / 1e6, 12);
  });
});

describe('createChatModel: the order of the layers', () => {
  it('passes every retry through the rate limiter, so a 429 slows the whole model down', async () => {
    server.reply(rateLimited({ 'retry-after': '1' }), { status: 200, body: RESPONSE_SHAPES.openaiChat(REPLY) });
    const { model, limiter } = build({ requestsPerMinute: 60 });
    await model.generate(request);
    // Halved to 30 by the 429 the limiter saw, then grown by 10 % of 60 on the retry's success.
    expect(limiter?.limiterState().effectiveRequestsPerMinute).toBe(36);
  });

  it("places the caller's layers, given as a list, inside the model's own settings: a cached reply never reaches the server", async () => {
    server.reply({ status: 200, body: RESPONSE_SHAPES.openaiChat(REPLY) });
    const cache = new MemoryCallCache();
    const { model } = build({ maxTokens: 64, inputUsdPerMillion: 1 }, { decorate: [cacheCalls(cache, { modelIdentity: 'openai/m@test', now: () => 0 })] });
    const first = await model.generate(request);
    const second = await model.generate(request);
    expect(server.requests).toHaveLength(1);
    expect(second).toMatchObject({ text: REPLY, cached: true, costUsd: first.costUsd });
    expect([...cache.calls.values()].map((call) => call.request.maxOutputTokens)).toEqual([64]);
  });

  it("still takes the caller's layers as one decorator in function form", async () => {
    server.reply({ status: 200, body: RESPONSE_SHAPES.openaiChat(REPLY) });
    const seen: number[] = [];
    const counting = (inner: ChatModel): ChatModel => ({
      ...inner,
      generate: (generateRequest) => {
        seen.push(generateRequest.maxOutputTokens);
        return inner.generate(generateRequest);
      },
    });
    const { model } = build({ maxTokens: 64 }, { decorate: counting });
    expect((await model.generate(request)).text).toBe(REPLY);
    expect(seen).toEqual([64]);
  });

  it('gives a simulated agent no limiter and keeps its name and simulated flag', async () => {
    const { model, limiter } = createChatModel({ name: 'sim/eloquent', provider: 'sim', model: 'eloquent', timeoutMs: 1000, maxRetries: 6, maxTokens: 64 });
    expect([model.name, model.simulated, limiter]).toEqual(['sim/eloquent', true, undefined]);
  });
});

describe('createChatModel: the seed', () => {
  it('sends the seed to a provider that takes one', async () => {
    server.reply({ status: 200, body: RESPONSE_SHAPES.openaiChat(REPLY) });
    await build().model.generate(request);
    expect(server.requests[0]!.body).toMatchObject({ seed: 7 });
  });

  it('does not hand Anthropic, which takes no seed, one to drop with a warning', async () => {
    server.reply({ status: 200, body: RESPONSE_SHAPES.anthropicMessage(REPLY) });
    const warned: unknown[] = [];
    const global = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
    const before = global.AI_SDK_LOG_WARNINGS;
    global.AI_SDK_LOG_WARNINGS = (options: { warnings: unknown[] }) => warned.push(...options.warnings);
    try {
      const { model } = build({ name: 'anthropic/m', provider: 'anthropic', apiKeyEnv: 'ANTHROPIC_API_KEY' });
      expect((await model.generate(request)).text).toBe(REPLY);
    } finally {
      global.AI_SDK_LOG_WARNINGS = before;
    }
    expect(server.requests[0]!.path).toBe('/v1/messages');
    expect(server.requests[0]!.body).not.toHaveProperty('seed');
    expect(warned).toEqual([]);
  });
});
