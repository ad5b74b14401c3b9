import { afterEach, describe, expect, it } from 'vitest';
import { FakeBatchServer, type LineFate } from '../../../test/support/fake-batch-server.js';
import { nestedJson } from '../../../test/support/hostile-json.js';
import type { GenerateRequest } from '../chat-model.js';
import { isModelCallError } from '../model-call-error.js';
import { AnthropicBatchProvider } from './anthropic-batch-provider.js';
import type { BatchProvider } from './batch-provider.js';
import { OpenAiBatchProvider } from './openai-batch-provider.js';

let server: FakeBatchServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const request = (text: string, seed = 1): GenerateRequest => ({
  messages: [
    { role: 'system', content: 'You are a persuadee.' },
    { role: 'user', content: text },
  ],
  temperature: 0.7,
  maxOutputTokens: 400,
  seed,
});
const hash = (letter: string) => letter.repeat(64);

const caller = { name: 'alpha', model: 'alpha-model', timeoutMs: 5000, now: () => 0, apiKeyEnv: 'TEST_KEY' };
const PROVIDERS = {
  openai: (url: string): BatchProvider => new OpenAiBatchProvider({ ...caller, provider: 'openai', baseURL: `${url}/v1`, apiKey: 'sk-test' }),
  anthropic: (url: string): BatchProvider => new AnthropicBatchProvider({ ...caller, provider: 'anthropic', baseURL: `${url}/v1`, apiKey: 'sk-ant-test' }),
};

describe.each(['openai', 'anthropic'] as const)('the %s batch adapter against a loopback fake', (format) => {
  async function start(fate?: (customId: string) => LineFate): Promise<BatchProvider> {
    server = await FakeBatchServer.start({ format, ...(fate ? { fate: (customId) => fate(customId) } : {}) });
    return PROVIDERS[format](server.url);
  }

  it('uploads and creates a batch whose lines are named by request hash and carry the request, polls it while pending, and reads replies once it ends', async () => {
    const provider = await start();
    server!.hold = true;
    const id = await provider.submit(
      [
        { customId: hash('a'), request: request('first') },
        { customId: hash('b'), request: request('second', 2) },
      ],
      'key-1',
    );
    expect(server!.batches[0]!.id).toBe(id);
    const lines = server!.batches[0]!.lines;
    expect(lines.map((line) => line.custom_id)).toEqual([hash('a'), hash('b')]);
    if (format === 'openai') {
      expect(lines[1]!.body).toEqual({
        model: 'alpha-model',
        messages: [
          { role: 'system', content: 'You are a persuadee.' },
          { role: 'user', content: 'second' },
        ],
        temperature: 0.7,
        max_tokens: 400,
        seed: 2,
      });
    } else {
      expect(lines[1]!.body).toEqual({
        model: 'alpha-model',
        max_tokens: 400,
        system: 'You are a persuadee.',
        messages: [{ role: 'user', content: 'second' }],
        temperature: 0.7,
      });
    }
    expect(await provider.poll(id)).toMatchObject({ ended: false, providerStatus: 'in_progress' });
    server!.hold = false;
    expect(await provider.poll(id)).toMatchObject({ ended: true, done: 2, total: 2 });
    const results = await provider.download(id);
    expect([...results.keys()].sort()).toEqual([hash('a'), hash('b')]);
    const first = results.get(hash('a'));
    expect(first?.status).toBe('succeeded');
    if (first?.status === 'succeeded') {
      expect(first.reply.text).toMatch(/^<message>Reply [0-9a-f]{8} from alpha-model\.<\/message>/);
      expect(first.reply.finishReason).toBe('stop');
      expect(first.reply.usage?.inputTokens).toBe(100);
    }
  });

  it('reads a partly failed batch line by line: a server error is retryable, a bad request is not, an expired line is left unanswered', async () => {
    const fates: Record<string, LineFate> = {
      [hash('b')]: { status: 500, errorType: format === 'openai' ? 'server_error' : 'api_error' },
      [hash('c')]: { status: 400, errorType: 'invalid_request_error' },
      [hash('d')]: 'expired',
    };
    const provider = await start((customId) => fates[customId] ?? 'succeeded');
    const id = await provider.submit(
      ['a', 'b', 'c', 'd'].map((letter) => ({ customId: hash(letter), request: request(letter) })),
      'key-2',
    );
    await provider.poll(id);
    const results = await provider.download(id);
    expect(results.get(hash('a'))?.status).toBe('succeeded');
    const serverError = results.get(hash('b'));
    const badRequest = results.get(hash('c'));
    expect(serverError?.status === 'failed' && serverError.error).toMatchObject({ retryable: true, reason: 'api' });
    expect(badRequest?.status === 'failed' && badRequest.error).toMatchObject({ retryable: false, statusCode: 400 });
    expect(results.has(hash('d'))).toBe(false);
  });

  it('reads results whose line holds a value nested 100,000 deep as an answer pmiyc cannot read (retryable), never a stack overflow', async () => {
    const provider = await start();
    const id = await provider.submit([{ customId: hash('a'), request: request('first') }], 'key-deep');
    await provider.poll(id);
    const deep = nestedJson(100_000, 'list');
    const line =
      format === 'openai'
        ? `{"custom_id":"${hash('a')}","response":{"status_code":400,"body":{"error":${deep}}},"error":null}`
        : `{"custom_id":"${hash('a')}","result":{"type":"succeeded","message":{"content":[{"type":"tool_use","name":"json","input":${deep}}]}}}`;
    server!.replaceResults(server!.batches[0]!, `${line}\n`);
    const error = await provider.download(id).catch((caught: unknown) => caught);
    expect(isModelCallError(error) && error).toMatchObject({ retryable: true, message: expect.stringContaining('nest more than') });
  });

  it('cancels a pending batch: it ends with its lines unanswered', async () => {
    const provider = await start();
    server!.hold = true;
    const id = await provider.submit([{ customId: hash('a'), request: request('first') }], 'key-3');
    await provider.cancel(id);
    expect((await provider.poll(id)).ended).toBe(true);
    expect((await provider.download(id)).size).toBe(0);
  });

  it('says a batch the provider does not know is gone for good (a typed error, not retried)', async () => {
    const provider = await start();
    const error = await provider.poll('batch_unknown').catch((caught: unknown) => caught);
    expect(isModelCallError(error) && error).toMatchObject({ statusCode: 404, retryable: false, provider: format });
  });
});

describe('batch lines of a request with a reply schema', () => {
  const schema = {
    type: 'object',
    properties: { techniques: { type: 'array', items: { type: 'string', enum: ['logos'] }, uniqueItems: true } },
    required: ['techniques'],
    additionalProperties: false,
  };
  const judged = (text: string): GenerateRequest => ({ ...request(text), responseFormat: { name: 'turn_labels', schema } });

  it('asks OpenAI for json_schema in strict mode, with the schema cut to the strict subset, as a direct call does', async () => {
    server = await FakeBatchServer.start({ format: 'openai' });
    const provider = PROVIDERS.openai(server.url);
    const id = await provider.submit([{ customId: hash('a'), request: judged('first') }], 'key-schema');
    expect(server.batches[0]!.lines[0]!.body['response_format']).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'turn_labels',
        strict: true,
        schema: {
          type: 'object',
          properties: { techniques: { type: 'array', items: { type: 'string', enum: ['logos'] } } },
          required: ['techniques'],
          additionalProperties: false,
        },
      },
    });
    await provider.poll(id);
    expect((await provider.download(id)).get(hash('a'))?.status).toBe('succeeded');
  });

  it('gives Anthropic the schema as the one tool it must call, and reads the tool input back as JSON text', async () => {
    server = await FakeBatchServer.start({ format: 'anthropic' });
    const provider = PROVIDERS.anthropic(server.url);
    const id = await provider.submit(
      [
        { customId: hash('a'), request: judged('first') },
        { customId: hash('b'), request: request('second') },
      ],
      'key-schema',
    );
    const [withSchema, without] = server.batches[0]!.lines;
    expect(withSchema!.body).toMatchObject({
      tools: [{ name: 'json', description: expect.any(String), input_schema: schema }],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
    });
    expect(without!.body).not.toHaveProperty('tools');
    expect(without!.body).not.toHaveProperty('tool_choice');
    await provider.poll(id);
    const results = await provider.download(id);
    const answered = results.get(hash('a'));
    expect(answered?.status).toBe('succeeded');
    if (answered?.status === 'succeeded') {
      expect(JSON.parse(answered.reply.text)).toEqual({ reply: expect.stringMatching(/^<message>Reply /) });
      expect(answered.reply.finishReason).toBe('stop');
    }
    const plain = results.get(hash('b'));
    expect(plain?.status === 'succeeded' && plain.reply.text).toMatch(/^<message>Reply /);
  });
});

it('finds an OpenAI batch by the submission key kept in its metadata (a batch whose id never reached the store)', async () => {
  server = await FakeBatchServer.start({ format: 'openai' });
  const provider = PROVIDERS.openai(server.url);
  const id = await provider.submit([{ customId: hash('a'), request: request('first') }], 'key-found');
  expect(await provider.recover?.('key-found')).toBe(id);
  expect(await provider.recover?.('key-other')).toBeUndefined();
});
