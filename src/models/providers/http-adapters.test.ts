import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOf } from '../../../test/support/call-failure.js';
import { FakeProviderServer, RESPONSE_SHAPES } from '../../../test/support/fake-provider-server.js';
import { InputError } from '../../domain/errors/input-error.js';
import type { GenerateRequest } from '../chat-model.js';
import type { ModelSettings } from '../model-settings.js';
import { AiSdkChatModel } from './ai-sdk/ai-sdk-model.js';
import { createLanguageModel } from './ai-sdk/create-language-model.js';
import { OpenAiChatModel } from './openai-chat-model.js';
import { findProvider } from './provider-catalog.js';

let server: FakeProviderServer;
beforeAll(async () => {
  server = await FakeProviderServer.start();
});
afterAll(() => server.close());

const REPLY = '<message>Fair point.</message>\n<support_ranking>Support</support_ranking>';
const request: GenerateRequest = {
  messages: [
    { role: 'system', content: 'You are the persuadee.' },
    { role: 'user', content: 'Where do you stand?' },
  ],
  temperature: 0.7,
  maxOutputTokens: 400,
  seed: 1234,
};

type Adapter = 'sdk' | 'direct';

/** The OpenAI chat family has two adapters, pmiyc's own client and the AI SDK: both must behave the same. */
function modelForAdapter(provider: string, path: string, overrides: Partial<ModelSettings> = {}, apiKey: string | null = 'test-key', adapter: Adapter = 'sdk') {
  const info = findProvider(provider)!;
  const settings: ModelSettings = {
    name: `${provider}/m`,
    provider,
    model: 'm',
    baseURL: `${server.url}${path}`,
    timeoutMs: 2000,
    maxRetries: 0,
    ...(info.apiKeyEnv ? { apiKeyEnv: info.apiKeyEnv } : {}),
    ...overrides,
  };
  if (adapter === 'direct') {
    return new OpenAiChatModel({
      name: settings.name,
      provider,
      model: settings.model,
      baseURL: settings.baseURL!,
      timeoutMs: settings.timeoutMs,
      ...(apiKey ? { apiKey } : {}),
      ...(settings.apiKeyEnv ? { apiKeyEnv: settings.apiKeyEnv } : {}),
      ...(settings.providerOptions ? { extraBody: settings.providerOptions } : {}),
      now: () => Date.parse('2026-01-01T00:00:00Z'),
    });
  }
  const { languageModel, providerOptions } = createLanguageModel(info, settings, apiKey ?? undefined);
  return new AiSdkChatModel(languageModel, {
    name: settings.name,
    provider,
    model: settings.model,
    timeoutMs: settings.timeoutMs,
    ...(settings.apiKeyEnv ? { apiKeyEnv: settings.apiKeyEnv } : {}),
    ...(providerOptions ? { providerOptions } : {}),
    now: () => Date.parse('2026-01-01T00:00:00Z'),
  });
}

const modelFor = (provider: string, path: string, overrides: Partial<ModelSettings> = {}, apiKey: string | null = 'test-key') =>
  modelForAdapter(provider, path, overrides, apiKey, 'sdk');

describe.each(['sdk', 'direct'] as const)('OpenAI chat completions (%s adapter)', (adapter) => {
  const modelFor = (provider: string, path: string, overrides: Partial<ModelSettings> = {}) => modelForAdapter(provider, path, overrides, 'test-key', adapter);

  it('sends the request the API expects and reads text, usage and finish reason', async () => {
    server.reply({ status: 200, body: RESPONSE_SHAPES.openaiChat(REPLY) });
    const reply = await modelFor('openai', '/v1').generate(request);
    expect(reply).toEqual({ text: REPLY, finishReason: 'stop', usage: { inputTokens: 1117, outputTokens: 46 } });
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers['authorization']).toBe('Bearer test-key');
    expect(sent.body).toMatchObject({
      model: 'm',
      temperature: 0.7,
      max_tokens: 400,
      seed: 1234,
      messages: [
        { role: 'system', content: 'You are the persuadee.' },
        { role: 'user', content: 'Where do you stand?' },
      ],
    });
    expect(sent.body).not.toHaveProperty('stream', true);
  });

  it('sends no temperature when the request has none', async () => {
    server.reply({ status: 200, body: RESPONSE_SHAPES.openaiChat(REPLY) });
    const { temperature: _omitted, ...withoutTemperature } = request;
    await modelFor('openai', '/v1').generate(withoutTemperature);
    expect(server.requests[0]!.body).not.toHaveProperty('temperature');
  });

  it.each([
    [
      '429 with Retry-After in seconds',
      { status: 429, headers: { 'retry-after': '2' }, body: RESPONSE_SHAPES.openaiError('Rate limit reached', 'requests', 'rate_limit_exceeded') },
      { statusCode: 429, retryable: true, retryAfterMs: 2000, reason: 'api' },
    ],
    [
      '429 with retry-after-ms',
      { status: 429, headers: { 'retry-after-ms': '750' }, body: RESPONSE_SHAPES.openaiError('Rate limit reached', 'requests', 'rate_limit_exceeded') },
      { statusCode: 429, retryable: true, retryAfterMs: 750 },
    ],
    [
      '500',
      { status: 500, body: RESPONSE_SHAPES.openaiError('The server had an error', 'server_error', null) },
      { statusCode: 500, retryable: true, reason: 'api' },
    ],
    ['503', { status: 503, body: { error: { message: 'overloaded' } } }, { statusCode: 503, retryable: true }],
    [
      '401',
      { status: 401, body: RESPONSE_SHAPES.openaiError('Incorrect API key provided', 'invalid_request_error', 'invalid_api_key') },
      { statusCode: 401, retryable: false, reason: 'api' },
    ],
    [
      '400 context too long',
      {
        status: 400,
        body: RESPONSE_SHAPES.openaiError("This model's maximum context length is 128000 tokens.", 'invalid_request_error', 'context_length_exceeded'),
      },
      { statusCode: 400, retryable: false, reason: 'context' },
    ],
    [
      '400 content filter',
      { status: 400, body: RESPONSE_SHAPES.openaiError('The response was filtered', 'invalid_request_error', 'content_filter') },
      { statusCode: 400, retryable: false, reason: 'refusal' },
    ],
    [
      '404 unknown model',
      { status: 404, body: RESPONSE_SHAPES.openaiError('The model `m` does not exist', 'invalid_request_error', 'model_not_found') },
      { statusCode: 404, retryable: false, reason: 'api' },
    ],
  ] as const)('turns %s into a typed error', async (_name, response, expected) => {
    server.reply(response);
    const error = await failureOf(modelFor('openai', '/v1').generate(request));
    expect(error).toMatchObject({ provider: 'openai', model: 'm', ...expected });
    if (!('retryAfterMs' in expected)) expect(error.retryAfterMs).toBeUndefined();
  });

  it('names the key variable when authentication fails', async () => {
    server.reply({ status: 401, body: RESPONSE_SHAPES.openaiError('Incorrect API key provided', 'invalid_request_error', 'invalid_api_key') });
    const error = await failureOf(modelFor('openai', '/v1').generate(request));
    expect(error.message).toContain('OPENAI_API_KEY');
  });

  it('treats malformed JSON as retryable', async () => {
    server.reply({ raw: '{"id": "chatcmpl-1", "choices": [' });
    expect(await failureOf(modelFor('openai', '/v1').generate(request))).toMatchObject({ retryable: true, reason: 'api' });
  });

  it('treats a connection reset as retryable', async () => {
    server.reply('reset');
    const error = await failureOf(modelFor('openai', '/v1').generate(request));
    expect(error).toMatchObject({ retryable: true, reason: 'api' });
    expect(error.statusCode).toBeUndefined();
  });

  it('gives up on a hang after timeoutMs, retryably', async () => {
    // The server never answers: that the call settles at all is the timeout at work.
    server.reply('hang');
    const error = await failureOf(modelFor('openai', '/v1', { timeoutMs: 300 }).generate(request));
    expect(error).toMatchObject({ retryable: true, reason: 'api' });
    expect(error.message).toContain('no reply within 300 ms');
  });

  it('lets a user abort propagate as an abort, not a model failure', async () => {
    server.reply('hang');
    const controller = new AbortController();
    const pending = modelFor('openai', '/v1').generate({ ...request, abortSignal: controller.signal });
    setTimeout(() => controller.abort(new Error('user pressed Ctrl-C')), 50);
    await expect(pending).rejects.toThrow('user pressed Ctrl-C');
  });
});

describe("pmiyc's own OpenAI chat client", () => {
  it('refuses headers that would break a request apart, naming the model, before any call', () => {
    const options = { name: 'local/m', provider: 'openai-compatible', model: 'm', baseURL: server.url, timeoutMs: 1000 };
    expect(() => new OpenAiChatModel({ ...options, headers: { 'x-note': 'a\r\nx-injected: 1' } })).toThrow(InputError);
    expect(() => new OpenAiChatModel({ ...options, headers: { 'x-note': 'a\r\nx-injected: 1' } })).toThrow(/^local\/m: the header x-note has a line break/);
  });
});

describe('Anthropic messages', () => {
  it('sends the system prompt apart and reads the message shape', async () => {
    server.reply({ status: 200, body: RESPONSE_SHAPES.anthropicMessage(REPLY) });
    const reply = await modelFor('anthropic', '/v1').generate(request);
    expect(reply).toEqual({ text: REPLY, finishReason: 'stop', usage: { inputTokens: 2095, outputTokens: 503 } });
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe('test-key');
    expect(sent.body).toMatchObject({ model: 'm', max_tokens: 400, temperature: 0.7, system: [{ type: 'text', text: 'You are the persuadee.' }] });
  });

  it('reads "prompt is too long" as a context failure and 529 as retryable', async () => {
    server.reply({ status: 400, body: RESPONSE_SHAPES.anthropicError('invalid_request_error', 'prompt is too long: 215000 tokens > 200000 maximum') });
    expect(await failureOf(modelFor('anthropic', '/v1').generate(request))).toMatchObject({ reason: 'context', retryable: false });
    server.reply({ status: 529, body: RESPONSE_SHAPES.anthropicError('overloaded_error', 'Overloaded') });
    expect(await failureOf(modelFor('anthropic', '/v1').generate(request))).toMatchObject({ statusCode: 529, retryable: true });
  });
});

describe('Google Gemini', () => {
  it('reads generateContent and its usage', async () => {
    server.reply({ status: 200, body: RESPONSE_SHAPES.geminiContent(REPLY) });
    const reply = await modelFor('google', '/v1beta').generate(request);
    expect(reply).toEqual({ text: REPLY, finishReason: 'stop', usage: { inputTokens: 120, outputTokens: 30 } });
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1beta/models/m:generateContent');
    expect(sent.headers['x-goog-api-key']).toBe('test-key');
    expect(sent.body).toMatchObject({
      generationConfig: { temperature: 0.7, maxOutputTokens: 400, seed: 1234 },
      systemInstruction: { parts: [{ text: 'You are the persuadee.' }] },
    });
  });

  it('reports a safety block as a content-filter finish', async () => {
    server.reply({ status: 200, body: RESPONSE_SHAPES.geminiSafety() });
    expect(await modelFor('google', '/v1beta').generate(request)).toMatchObject({ text: '', finishReason: 'content-filter' });
  });
});

describe('OpenAI-compatible servers', () => {
  it.each(['sdk', 'direct'] as const)(
    'passes extra body fields such as chat_template_kwargs and tolerates a reply without usage (%s adapter)',
    async (adapter) => {
      server.reply({ status: 200, body: RESPONSE_SHAPES.openaiChatWithoutUsage(REPLY) });
      const model = modelForAdapter('vllm', '/v1', { providerOptions: { chat_template_kwargs: { enable_thinking: false } } }, null, adapter);
      const reply = await model.generate(request);
      expect(reply.text).toBe(REPLY);
      expect(reply.usage?.inputTokens).toBeUndefined();
      expect(server.requests[0]!.body).toMatchObject({ model: 'm', seed: 1234, chat_template_kwargs: { enable_thinking: false } });
      expect(server.requests[0]!.headers['authorization']).toBeUndefined();
    },
  );

  it('sends Azure requests (here through a gateway URL) with the api-key header', async () => {
    server.reply({ status: 200, body: RESPONSE_SHAPES.openaiChat(REPLY) });
    await modelFor('azure', '/openai').generate(request);
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/openai/chat/completions');
    expect(sent.headers['api-key']).toBe('test-key');
    expect(sent.body).toMatchObject({ model: 'm' });
  });
});
