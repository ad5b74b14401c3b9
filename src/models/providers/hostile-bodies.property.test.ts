import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeProviderServer, RESPONSE_SHAPES } from '../../../test/support/fake-provider-server.js';
import { fuzzRuns } from '../../../test/support/fuzz-runs.js';
import { everyPlaceIn, hostileJson, nestedJson } from '../../../test/support/hostile-json.js';
import type { ChatModel, GenerateRequest } from '../chat-model.js';
import { isModelCallError } from '../model-call-error.js';
import { createAiSdkChatModel } from './ai-sdk/ai-sdk-adapter.js';
import { OpenAiChatModel } from './openai-chat-model.js';
import { findProvider } from './provider-catalog.js';

// A server's body with a deep, wide or huge value at any place of a real reply's shape (a 200 or an
// error): each adapter gives a reply or a ModelCallError, which the retry layer and the studies know
// how to handle, never another error. A stack overflow (the AI SDK turns Anthropic's tool input back
// into text with JSON.stringify) would end the study that made the call.

let server: FakeProviderServer;
beforeAll(async () => {
  server = await FakeProviderServer.start();
});
afterAll(() => server.close());

const runs = fuzzRuns(1);
const judged: GenerateRequest = {
  messages: [
    { role: 'system', content: 'You label persuasion techniques.' },
    { role: 'user', content: 'Label this turn.' },
  ],
  temperature: 0,
  maxOutputTokens: 300,
  seed: 42,
  responseFormat: { name: 'turn_labels', schema: { type: 'object', properties: { techniques: { type: 'array', items: { type: 'string' } } } } },
};
const ANSWER = { techniques: ['logos'] };

const sdk = (provider: string, path: string) =>
  createAiSdkChatModel(
    findProvider(provider)!,
    { name: `${provider}/m`, provider, model: 'm', baseURL: `${server.url}${path}`, timeoutMs: 10_000, maxRetries: 0 },
    { apiKey: 'test-key' },
  );

const ADAPTERS: ReadonlyArray<readonly [string, () => ChatModel, readonly unknown[]]> = [
  [
    'the direct OpenAI client',
    () => new OpenAiChatModel({ name: 'vllm/m', provider: 'vllm', model: 'm', baseURL: `${server.url}/v1`, timeoutMs: 10_000 }),
    [RESPONSE_SHAPES.openaiChat(JSON.stringify(ANSWER)), RESPONSE_SHAPES.openaiError('bad', 'invalid_request_error', null)],
  ],
  ['the AI SDK on OpenAI', () => sdk('openai', '/v1'), [RESPONSE_SHAPES.openaiChat(JSON.stringify(ANSWER))]],
  [
    'the AI SDK on Anthropic',
    () => sdk('anthropic', '/v1'),
    [RESPONSE_SHAPES.anthropicToolUse('json', ANSWER), RESPONSE_SHAPES.anthropicMessage('ok'), RESPONSE_SHAPES.anthropicError('invalid_request_error', 'bad')],
  ],
  ['the AI SDK on Gemini', () => sdk('google', '/v1beta'), [RESPONSE_SHAPES.geminiContent(JSON.stringify(ANSWER))]],
];

/** What one call came to: a reply's text, a ModelCallError, or anything else (what must not happen), named. */
async function outcomeOf(model: ChatModel): Promise<string> {
  try {
    const reply = await model.generate(judged);
    return typeof reply.text === 'string' ? 'reply' : `a reply without text: ${typeof reply.text}`;
  } catch (error) {
    if (isModelCallError(error)) return 'model call error';
    return error instanceof Error ? `${error.name}: ${error.message}` : `a throw of ${typeof error}`;
  }
}

describe.each(ADAPTERS)('%s on a body holding a deep, wide or huge value', (_name, adapter, shapes) => {
  it('gives a reply or a ModelCallError wherever the value sits, as a 200 or a 400', async () => {
    await fc.assert(
      fc.asyncProperty(hostileJson, async (values) => {
        const bodies = values.flatMap((value) => shapes.flatMap((shape) => everyPlaceIn(shape, value)));
        for (const raw of bodies) {
          for (const status of [200, 400]) {
            server.reply({ raw, status });
            expect(['reply', 'model call error']).toContain(await outcomeOf(adapter()));
          }
        }
      }),
      { numRuns: runs },
    );
  });
});

it("gives Anthropic's tool input nested 100,000 deep back as a reply pmiyc cannot read, retryable", async () => {
  const body = everyPlaceIn(RESPONSE_SHAPES.anthropicToolUse('json', ANSWER), nestedJson(100_000, 'list')).find((text) => text.includes('"input":[['));
  server.reply({ raw: body!, status: 200 });
  const error = await sdk('anthropic', '/v1')
    .generate(judged)
    .catch((thrown: unknown) => thrown);
  expect(isModelCallError(error)).toBe(true);
  expect(error).toMatchObject({ retryable: true, message: expect.stringContaining('nest more than 128 deep') });
});
