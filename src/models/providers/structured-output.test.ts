import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOf } from '../../../test/support/call-failure.js';
import { FakeProviderServer, RESPONSE_SHAPES } from '../../../test/support/fake-provider-server.js';
import type { GenerateRequest } from '../chat-model.js';
import { createChatModel } from '../create-chat-model.js';
import type { ModelSettings } from '../model-settings.js';
import { createAiSdkChatModel } from './ai-sdk/ai-sdk-adapter.js';
import { OpenAiChatModel } from './openai-chat-model.js';
import { findProvider } from './provider-catalog.js';

let server: FakeProviderServer;
beforeAll(async () => {
  server = await FakeProviderServer.start();
});
afterAll(() => server.close());

/** A judge's answer schema as the protocol writes it: `uniqueItems` is not in OpenAI's strict subset. */
const SCHEMA = {
  type: 'object',
  properties: {
    techniques: { type: 'array', items: { type: 'string', enum: ['logos', 'ethos'] }, uniqueItems: true },
    refused: { type: 'boolean' },
  },
  required: ['techniques', 'refused'],
  additionalProperties: false,
};
/** What OpenAI's strict mode is sent: the same shape without `uniqueItems`. */
const STRICT_SCHEMA = {
  type: 'object',
  properties: { techniques: { type: 'array', items: { type: 'string', enum: ['logos', 'ethos'] } }, refused: { type: 'boolean' } },
  required: ['techniques', 'refused'],
  additionalProperties: false,
};
const ANSWER = { techniques: ['logos'], refused: false };

const request: GenerateRequest = {
  messages: [
    { role: 'system', content: 'You label persuasion techniques.' },
    { role: 'user', content: 'Label this turn.' },
  ],
  temperature: 0,
  maxOutputTokens: 300,
  seed: 42,
};
const judged: GenerateRequest = { ...request, responseFormat: { name: 'turn_labels', schema: SCHEMA } };

function settingsFor(provider: string, path: string, overrides: Partial<ModelSettings> = {}): ModelSettings {
  return { name: `${provider}/m`, provider, model: 'm', baseURL: `${server.url}${path}`, timeoutMs: 2000, maxRetries: 0, ...overrides };
}

const direct = (provider = 'vllm') => new OpenAiChatModel({ name: `${provider}/m`, provider, model: 'm', baseURL: `${server.url}/v1`, timeoutMs: 2000 });
const sdk = (provider: string, path: string) => createAiSdkChatModel(findProvider(provider)!, settingsFor(provider, path), { apiKey: 'test-key' });

describe.each([
  ['direct', () => direct('openai')],
  ['sdk', () => sdk('openai', '/v1')],
] as const)('OpenAI chat completions with a reply schema (%s adapter)', (_adapter, model) => {
  it('asks for json_schema in strict mode with the schema cut to the strict subset, and returns the reply as text', async () => {
    server.reply({ status: 200, body: RESPONSE_SHAPES.openaiChat(JSON.stringify(ANSWER)) });
    const reply = await model().generate(judged);
    expect(reply).toMatchObject({ text: JSON.stringify(ANSWER), finishReason: 'stop' });
    expect(server.requests[0]!.body['response_format']).toEqual({
      type: 'json_schema',
      json_schema: { name: 'turn_labels', strict: true, schema: STRICT_SCHEMA },
    });
    // The caller's schema is left whole: the cut is a copy.
    expect(SCHEMA.properties.techniques).toHaveProperty('uniqueItems', true);
  });

  it('returns a reply that does not match the schema as text, for the caller to refuse', async () => {
    server.reply({ status: 200, body: RESPONSE_SHAPES.openaiChat('I would rather not say.') });
    expect((await model().generate(judged)).text).toBe('I would rather not say.');
  });

  it('sends no response_format for a request without a schema', async () => {
    server.reply({ status: 200, body: RESPONSE_SHAPES.openaiChat('ok') });
    await model().generate(request);
    expect(server.requests[0]!.body).not.toHaveProperty('response_format');
  });
});

describe.each([
  ['direct', () => direct('openai')],
  ['sdk', () => sdk('openai', '/v1')],
] as const)('a refusal under structured output (%s adapter)', (_adapter, model) => {
  it('reads the refusal field as a content-filter finish with the refusal as its text', async () => {
    const body = RESPONSE_SHAPES.openaiChat('');
    const choice = body.choices[0]!;
    server.reply({
      status: 200,
      body: { ...body, choices: [{ ...choice, message: { role: 'assistant', content: null, refusal: "I'm sorry, I cannot help with that." } }] },
    });
    expect(await model().generate(judged)).toMatchObject({ text: "I'm sorry, I cannot help with that.", finishReason: 'content-filter' });
  });
});

describe("pmiyc's own client without a schema", () => {
  it('sends exactly the bytes it sent before reply schemas existed', async () => {
    server.reply({ status: 200, body: RESPONSE_SHAPES.openaiChat('ok') });
    await direct().generate(request);
    expect(server.requests[0]!.rawBody).toBe(
      '{"model":"m","messages":[{"role":"system","content":"You label persuasion techniques."},{"role":"user","content":"Label this turn."}],' +
        '"temperature":0,"max_tokens":300,"seed":42}',
    );
  });
});

describe('a server that refuses structured output', () => {
  const refusal = {
    status: 400,
    body: RESPONSE_SHAPES.openaiError("Invalid value for 'response_format': json_schema is not supported", 'invalid_request_error', null),
  };

  it('fails the call, not retried, naming the setting that turns structured output off', async () => {
    server.reply(refusal);
    const error = await failureOf(direct().generate(judged));
    expect(error).toMatchObject({ statusCode: 400, retryable: false, reason: 'api' });
    expect(error.message).toContain('set structuredOutput: false for vllm/m in the config');
  });

  it('does not blame structured output for a request that did not ask for it', async () => {
    server.reply(refusal);
    expect((await failureOf(direct().generate(request))).message).not.toContain('structuredOutput');
  });

  it('is asked in plain text under structuredOutput: false, as the same request as one without a schema', async () => {
    const seen: string[] = [];
    const model = createChatModel(settingsFor('vllm', '/v1', { structuredOutput: false }), {
      decorate: [
        (next) => async (sent) => {
          seen.push(JSON.stringify(sent.responseFormat ?? null));
          return next(sent);
        },
      ],
    }).model;
    server.reply({ status: 200, body: RESPONSE_SHAPES.openaiChat(JSON.stringify(ANSWER)) });
    expect((await model.generate(judged)).text).toBe(JSON.stringify(ANSWER));
    expect(server.requests[0]!.body).not.toHaveProperty('response_format');
    // The layers inside the model's settings (the call cache) see no schema: the request is hashed as sent.
    expect(seen).toEqual(['null']);
  });
});

describe('Anthropic messages with a reply schema', () => {
  it('forces a tool whose input is the schema and returns the tool input as JSON text', async () => {
    server.reply({ status: 200, body: RESPONSE_SHAPES.anthropicToolUse('json', ANSWER) });
    const reply = await sdk('anthropic', '/v1').generate(judged);
    expect(reply).toMatchObject({ text: JSON.stringify(ANSWER), finishReason: 'stop', usage: { inputTokens: 612, outputTokens: 41 } });
    const sent = server.requests[0]!.body;
    // Anthropic takes the schema whole as a tool's input.
    expect(sent['tools']).toEqual([{ name: 'json', description: expect.any(String), input_schema: SCHEMA }]);
    // The one tool, which it must call (`any` of one).
    expect(sent['tool_choice']).toEqual({ type: 'any', disable_parallel_tool_use: true });
    expect(sent).not.toHaveProperty('output_config');
  });

  it('names structuredOutput: false when the model refuses the forced tool', async () => {
    server.reply({
      status: 400,
      body: RESPONSE_SHAPES.anthropicError('invalid_request_error', 'tool_choice forces tool use, which this model does not support'),
    });
    const error = await failureOf(sdk('anthropic', '/v1').generate(judged));
    expect(error).toMatchObject({ statusCode: 400, retryable: false });
    expect(error.message).toContain('set structuredOutput: false for anthropic/m in the config');
  });

  it('sends no tool for a request without a schema', async () => {
    server.reply({ status: 200, body: RESPONSE_SHAPES.anthropicMessage('ok') });
    expect((await sdk('anthropic', '/v1').generate(request)).text).toBe('ok');
    expect(server.requests[0]!.body).not.toHaveProperty('tools');
    expect(server.requests[0]!.body).not.toHaveProperty('tool_choice');
  });
});

describe('Google Gemini with a reply schema', () => {
  it('asks for JSON in the schema', async () => {
    server.reply({ status: 200, body: RESPONSE_SHAPES.geminiContent(JSON.stringify(ANSWER)) });
    expect((await sdk('google', '/v1beta').generate(judged)).text).toBe(JSON.stringify(ANSWER));
    expect(server.requests[0]!.body['generationConfig']).toMatchObject({ responseMimeType: 'application/json', responseSchema: expect.any(Object) });
  });
});
