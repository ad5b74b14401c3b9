import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeBatchServer } from '../../../test/support/fake-batch-server.js';
import { FakeProviderServer, RESPONSE_SHAPES } from '../../../test/support/fake-provider-server.js';
import { AnthropicBatchProvider } from '../batch/anthropic-batch-provider.js';
import type { GenerateRequest } from '../chat-model.js';
import { createChatModel } from '../create-chat-model.js';
import type { ModelSettings } from '../model-settings.js';

let server: FakeProviderServer;
let batchServer: FakeBatchServer | undefined;
beforeAll(async () => {
  server = await FakeProviderServer.start();
});
afterAll(() => server.close());
afterEach(async () => {
  await batchServer?.close();
  batchServer = undefined;
});

/** The third call of a persuadee: the two before it are its prefix. */
const request: GenerateRequest = {
  messages: [
    { role: 'system', content: 'You are the persuadee.' },
    { role: 'user', content: 'Where do you stand?' },
    { role: 'assistant', content: '<message>Unsure.</message>' },
    { role: 'user', content: 'Here is a reason.' },
  ],
  temperature: 0.7,
  maxOutputTokens: 400,
  seed: 7,
};

const prices = { inputUsdPerMillion: 3, outputUsdPerMillion: 15, cachedInputUsdPerMillion: 0.3, cacheWriteUsdPerMillion: 3.75 };

function settingsFor(provider: string, overrides: Partial<ModelSettings> = {}): ModelSettings {
  return { name: `${provider}/m`, provider, model: 'm', baseURL: `${server.url}/v1`, timeoutMs: 20_000, maxRetries: 0, ...prices, ...overrides };
}

const openaiWithCache = (text: string) => {
  const body = RESPONSE_SHAPES.openaiChat(text);
  return { ...body, usage: { ...body.usage, prompt_tokens: 2_000, prompt_tokens_details: { cached_tokens: 1_536, audio_tokens: 0 } } };
};

const anthropicWithCache = (text: string) => ({
  ...RESPONSE_SHAPES.anthropicMessage(text),
  usage: { input_tokens: 95, output_tokens: 40, cache_creation_input_tokens: 205, cache_read_input_tokens: 1_700 },
});

describe('prompt caching', () => {
  it.each(['vllm', 'openai'])("reads OpenAI's cached prompt tokens (%s) and prices them at the cached price", async (provider) => {
    server.reply({ status: 200, body: openaiWithCache('ok') });
    const { model } = createChatModel(settingsFor(provider), { apiKey: 'test-key' });
    const reply = await model.generate(request);
    expect(reply.usage).toMatchObject({ inputTokens: 2_000, cachedInputTokens: 1_536 });
    expect(reply.costUsd).toBeCloseTo(((2_000 - 1_536) * 3 + 1_536 * 0.3 + reply.usage!.outputTokens! * 15) / 1e6, 12);
  });

  it('marks the system prompt and the last message as Anthropic cache breakpoints, and reads and prices what the cache served and stored', async () => {
    server.reply({ status: 200, body: anthropicWithCache('ok') });
    const { model } = createChatModel(settingsFor('anthropic'), { apiKey: 'test-key' });
    const reply = await model.generate(request);
    const body = server.requests[0]!.body as { system: unknown; messages: Array<{ content: unknown }> };
    expect(body.system).toEqual([{ type: 'text', text: 'You are the persuadee.', cache_control: { type: 'ephemeral' } }]);
    expect(body.messages.at(-1)!.content).toEqual([{ type: 'text', text: 'Here is a reason.', cache_control: { type: 'ephemeral' } }]);
    expect(JSON.stringify(body.messages.slice(0, -1))).not.toContain('cache_control');
    // Anthropic's input_tokens leaves out the cached part: pmiyc's input is all of it.
    expect(reply.usage).toEqual({ inputTokens: 2_000, outputTokens: 40, cachedInputTokens: 1_700, cacheWriteTokens: 205 });
    expect(reply.costUsd).toBeCloseTo((95 * 3 + 1_700 * 0.3 + 205 * 3.75 + 40 * 15) / 1e6, 12);
  });

  it("reads Gemini's implicitly cached prompt tokens and prices them at the cached price", async () => {
    const body = RESPONSE_SHAPES.geminiContent('ok');
    server.reply({ status: 200, body: { ...body, usageMetadata: { ...body.usageMetadata, promptTokenCount: 2_000, cachedContentTokenCount: 1_024 } } });
    const { model } = createChatModel(settingsFor('google'), { apiKey: 'test-key' });
    const reply = await model.generate(request);
    expect(reply.usage).toMatchObject({ inputTokens: 2_000, outputTokens: 30, cachedInputTokens: 1_024 });
    expect(reply.costUsd).toBeCloseTo(((2_000 - 1_024) * 3 + 1_024 * 0.3 + 30 * 15) / 1e6, 12);
  });

  it('sends no cache_control with promptCache: false', async () => {
    server.reply({ status: 200, body: RESPONSE_SHAPES.anthropicMessage('ok') });
    const { model } = createChatModel(settingsFor('anthropic', { promptCache: false }), { apiKey: 'test-key' });
    await model.generate(request);
    expect(JSON.stringify(server.requests[0]!.body)).not.toContain('cache_control');
  });

  it('marks the same breakpoints in Anthropic batch lines', async () => {
    batchServer = await FakeBatchServer.start({ format: 'anthropic' });
    const caller = { name: 'alpha', provider: 'anthropic', model: 'alpha-model', timeoutMs: 5000, now: () => 0, apiKey: 'sk-ant-test' };
    const provider = new AnthropicBatchProvider({ ...caller, baseURL: `${batchServer.url}/v1`, promptCache: true });
    await provider.submit([{ customId: 'a'.repeat(64), request }]);
    const params = batchServer.batches[0]!.lines[0]!.body as { system: unknown; messages: Array<{ content: unknown }> };
    expect(params.system).toEqual([{ type: 'text', text: 'You are the persuadee.', cache_control: { type: 'ephemeral' } }]);
    expect(params.messages.at(-1)!.content).toEqual([{ type: 'text', text: 'Here is a reason.', cache_control: { type: 'ephemeral' } }]);
  });
});
