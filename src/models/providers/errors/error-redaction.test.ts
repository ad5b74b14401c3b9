import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOf } from '../../../../test/support/call-failure.js';
import { FakeProviderServer, type FakeResponse, type RecordedRequest } from '../../../../test/support/fake-provider-server.js';
import { lineError } from '../../batch/batch-http.js';
import { OpenAiBatchProvider } from '../../batch/openai-batch-provider.js';
import type { GenerateRequest } from '../../chat-model.js';
import { createChatModel } from '../../create-chat-model.js';
import type { ModelSettings } from '../../model-settings.js';

const KEY = 'sk-live-3f9a0c77e1b24d5b8a6e';
const HEADER_SECRET = 'gateway-secret-5566778899';
const ESCAPES = '\u001b]0;pwned\u0007\u001b[2J\u001b]52;c;aGVsbG8=\u0007';

let server: FakeProviderServer;
beforeAll(async () => {
  server = await FakeProviderServer.start();
});
afterAll(() => server.close());

const request: GenerateRequest = { messages: [{ role: 'user', content: 'Where do you stand?' }], temperature: 0, maxOutputTokens: 10, seed: 1 };

/** What a careless gateway says: the credentials it was sent, and escape sequences. */
const echo = (sent: RecordedRequest) =>
  `upstream failed for ${sent.headers['authorization'] ?? sent.headers['x-api-key']} (${sent.headers['x-gateway']}) ${ESCAPES}`;

function settingsFor(provider: string): ModelSettings {
  return {
    name: 'alpha',
    provider,
    model: 'm',
    baseURL: `${server.url}/v1`,
    apiKeyEnv: 'SECRET_KEY',
    headers: { 'x-gateway': HEADER_SECRET },
    timeoutMs: 5000,
    maxRetries: 0,
  };
}

function expectClean(message: string): void {
  expect(message).not.toContain(KEY);
  expect(message).not.toContain(HEADER_SECRET);
  expect(message).not.toContain('\u001b');
  expect(message).not.toContain('\u0007');
}

// openai-compatible goes through pmiyc's own client, anthropic through the AI SDK.
describe.each(['openai-compatible', 'anthropic'])('a %s model whose server repeats its credentials and escape sequences', (provider) => {
  const model = () => createChatModel(settingsFor(provider), { apiKey: KEY }).model;

  it.each<[string, (sent: RecordedRequest) => FakeResponse]>([
    ['a 500 with a JSON error message', (sent) => ({ status: 500, body: { error: { message: echo(sent) } } })],
    ['a 401 with a JSON error message', (sent) => ({ status: 401, body: { error: { message: echo(sent) } } })],
    ['a 502 with a text body', (sent) => ({ status: 502, raw: echo(sent), headers: { 'content-type': 'text/plain' } })],
    ['a 200 that is not JSON', (sent) => ({ status: 200, raw: echo(sent) })],
  ])('fails with a message that shows neither, for %s', async (_what, respond) => {
    server.answerWith(respond);
    const error = await failureOf(model().generate(request));
    expectClean(error.message);
    expect(error.cause).toBeUndefined();
  });

  it('names what was redacted', async () => {
    server.answerWith((sent) => ({ status: 500, body: { error: { message: echo(sent) } } }));
    const error = await failureOf(model().generate(request));
    expect(error.message).toContain('[redacted: SECRET_KEY]');
    expect(error.message).toContain('([redacted: header x-gateway])');
  });
});

describe("pmiyc's own client", () => {
  it('says "<binary body, N bytes>" for a gzip error body', async () => {
    const body = gzipSync(Buffer.from(JSON.stringify({ error: { message: 'hidden' } })));
    server.answerWith(() => ({ status: 500, raw: body as unknown as string, headers: { 'content-type': 'application/json' } }));
    const error = await failureOf(createChatModel(settingsFor('openai-compatible'), { apiKey: KEY }).model.generate(request));
    expect(error.message).toBe(`alpha: HTTP 500: <binary body, ${body.length} bytes>`);
  });
});

describe('a batch service that repeats the credentials', () => {
  const caller = { name: 'alpha', provider: 'openai', model: 'm', apiKey: KEY, apiKeyEnv: 'SECRET_KEY', timeoutMs: 5000, now: () => 0 };

  it("fails a line with the line's error message, redacted", () => {
    const error = lineError(caller, 401, { error: { message: `Incorrect API key provided: ${KEY}${ESCAPES}` } });
    expect(error.message).toBe('alpha: HTTP 401: Incorrect API key provided: [redacted: SECRET_KEY]: check SECRET_KEY (and apiKeyEnv in the config)');
  });

  it('fails a poll with a message that shows neither them nor its escape sequences', async () => {
    server.answerWith((sent) => ({ status: 503, body: { error: { message: echo(sent) } } }));
    const provider = new OpenAiBatchProvider({ ...caller, baseURL: `${server.url}/v1`, headers: { 'x-gateway': HEADER_SECRET } });
    const error = await failureOf(provider.poll('batch_1'));
    expectClean(error.message);
    expect(error.message).toContain('[redacted: SECRET_KEY]');
  });
});
