import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeWithTestData, type TestData } from '../../../../test/support/test-data.js';
import type { Claim } from '../../../domain/claim.js';
import type { ConversationSpec } from '../../../domain/conversation.js';
import { runConversation } from '../../../engine/run-conversation.js';
import { parseTaggedReply } from '../../../protocol/tagged-reply.js';
import type { GenerateReply, GenerateRequest } from '../../chat-model.js';
import { ModelCallError } from '../../model-call-error.js';
import type { ModelSettings } from '../../model-settings.js';
import { buildReplyGrammar } from './llama-grammar.js';
import { LlamaChatModel } from './llama-model.js';

// stories260K (1.2 MB) writes children's stories and follows no instructions: every reply that
// parses below does so because of the grammar.
const settingsFor = (testData: Pick<TestData, 'models'>): ModelSettings => ({
  name: 'llama/stories260K',
  provider: 'llama',
  model: join(testData.models, 'stories260K.gguf'),
  timeoutMs: 120_000,
  maxRetries: 0,
  gpu: false,
});

/** Short messages keep each call well under a second on one thread. */
const OPTIONS = { maxMessageChars: 40 };
const MAX_OUTPUT_TOKENS = 120;

const claim: Claim = { index: 0, domain: 'subjective', claim: 'Cities should ban cars from their centres', origin: 'test', license: 'MIT' };

function requestWith(seed: number, overrides: Partial<GenerateRequest> = {}): GenerateRequest {
  return {
    messages: [
      { role: 'system', content: 'Once upon a time there was a debate.' },
      { role: 'user', content: 'Tell me a story about a cat.' },
    ],
    temperature: 0.7,
    maxOutputTokens: MAX_OUTPUT_TOKENS,
    seed,
    ...overrides,
  };
}

describeWithTestData('LlamaChatModel with stories260K', (testData) => {
  const settings = settingsFor(testData);
  let model: LlamaChatModel;
  let firstReply: GenerateReply;

  beforeAll(async () => {
    model = new LlamaChatModel(settings, OPTIONS);
    firstReply = await model.generate(requestWith(7)); // loads the model once for every test here
  });

  it('is a real model under the name the user wrote', () => {
    expect(model.name).toBe('llama/stories260K');
    expect(model.simulated).toBe(false);
  });

  it('replies in the tagged format within the message bound and reports usage', () => {
    const parsed = parseTaggedReply(firstReply.text);
    expect(parsed.ok, firstReply.text).toBe(true);
    if (parsed.ok) expect(parsed.message.length).toBeLessThanOrEqual(OPTIONS.maxMessageChars);
    expect(firstReply.finishReason).toBe('stop');
    expect(firstReply.usage?.inputTokens).toBeGreaterThan(10);
    expect(firstReply.usage?.outputTokens).toBeGreaterThan(5);
    expect(firstReply.usage?.outputTokens).toBeLessThanOrEqual(MAX_OUTPUT_TOKENS);
  });

  it('gives the same text for the same seed and varies with the seed', async () => {
    const again = await model.generate(requestWith(7));
    expect(again.text).toBe(firstReply.text);
    const others = [await model.generate(requestWith(8)), await model.generate(requestWith(9))];
    expect(new Set([firstReply.text, ...others.map((reply) => reply.text)]).size).toBeGreaterThan(1);
  });

  it('serialises concurrent calls, each depending only on its own request', async () => {
    const alone = await model.generate(requestWith(8));
    const other = new LlamaChatModel(settings, OPTIONS); // shares the loaded model
    const together = await Promise.all([other.generate(requestWith(7)), model.generate(requestWith(8)), other.generate(requestWith(7))]);
    expect(together.map((reply) => reply.text)).toEqual([firstReply.text, alone.text, firstReply.text]);
  });

  it('stops at the output-token limit and says so', async () => {
    const reply = await model.generate(requestWith(7, { maxOutputTokens: 4 }));
    expect(reply.finishReason).toBe('length');
    expect(reply.usage?.outputTokens).toBe(4);
    expect(parseTaggedReply(reply.text).ok).toBe(false);
  });

  it('refuses a prompt that does not fit the context instead of truncating it', async () => {
    const long = requestWith(7, { messages: [{ role: 'user', content: 'the cat sat on the mat. '.repeat(400) }] });
    const failure = await model.generate(long).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelCallError);
    expect(failure).toMatchObject({ provider: 'llama', reason: 'context', retryable: false });
  });

  it('does not start a call whose signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stopped by the user'));
    await expect(model.generate(requestWith(7, { abortSignal: controller.signal }))).rejects.toThrow('stopped by the user');
  });

  it('answers a request with a JSON Schema in JSON of that schema, under the schema grammar instead of the tagged one', async () => {
    const ids = ['logos', 'ethos', 'pathos'];
    const schema = {
      type: 'object',
      properties: { techniques: { type: 'array', items: { type: 'string', enum: ids }, uniqueItems: true }, refused: { type: 'boolean' } },
      required: ['techniques', 'refused'],
      additionalProperties: false,
    };
    for (const seed of [7, 8]) {
      const reply = await model.generate(requestWith(seed, { responseFormat: { name: 'turn_labels', schema } }));
      expect(reply.finishReason, reply.text).toBe('stop');
      const answer = JSON.parse(reply.text) as Record<string, unknown>;
      expect(Object.keys(answer).sort()).toEqual(['refused', 'techniques']);
      expect(typeof answer.refused).toBe('boolean');
      expect(Array.isArray(answer.techniques)).toBe(true);
      const techniques = answer.techniques as unknown[];
      // At most one of each id can fit: the grammar bounds the list by the enum's size.
      expect(techniques.length).toBeLessThanOrEqual(ids.length);
      for (const id of techniques) expect(ids).toContain(id);
    }
    // The tagged grammar is still the one for requests without a schema.
    expect(parseTaggedReply((await model.generate(requestWith(7))).text).ok).toBe(true);
  });

  it('runs a whole 3-turn conversation between two llama models, every turn parseable at the first attempt', async () => {
    const persuader = new LlamaChatModel({ ...settings, name: 'llama/persuader' }, OPTIONS);
    const persuadee = new LlamaChatModel({ ...settings, name: 'llama/persuadee' }, OPTIONS);
    const spec: ConversationSpec = { claim, persuaderModel: persuader.name, persuadeeModel: persuadee.name, turns: 3, repetition: 0, runSeed: 11 };
    const outcome = await runConversation({ spec, persuader, persuadee, sampling: { maxOutputTokens: MAX_OUTPUT_TOKENS, maxAttempts: 1 } });

    expect(outcome.status, JSON.stringify(outcome)).toBe('completed');
    expect(outcome.turns.map((turn) => turn.role)).toEqual(['persuadee', 'persuader', 'persuadee']);
    for (const turn of outcome.turns) {
      expect(turn.score).toBeGreaterThanOrEqual(1);
      expect(turn.score).toBeLessThanOrEqual(5);
      expect(parseTaggedReply(turn.raw)).toMatchObject({ ok: true, score: turn.score, message: turn.message });
      expect(turn.attempts[0]?.usage?.outputTokens).toBeGreaterThan(0);
    }
  });
});

describe('LlamaChatModel without a model file', () => {
  const settings = settingsFor({ models: '/nowhere' });
  it('says which path is missing and what to check', async () => {
    const missing = new LlamaChatModel({ ...settings, model: '/nowhere/missing.gguf' });
    const failure = await missing.generate(requestWith(1)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelCallError);
    expect(failure).toMatchObject({ reason: 'api', retryable: false, message: 'no GGUF file at /nowhere/missing.gguf: check the path after llama/' });
  });

  it('rejects a message bound that is not a positive integer at construction', () => {
    expect(() => new LlamaChatModel(settings, { maxMessageChars: 0 })).toThrow(RangeError);
  });
});

describe('buildReplyGrammar in llama.cpp', () => {
  it('is a grammar that node-llama-cpp accepts, at the default bound', async () => {
    const { getLlama, LlamaLogLevel } = await import('node-llama-cpp');
    const llama = await getLlama({ gpu: false, build: 'never', maxThreads: 1, logLevel: LlamaLogLevel.error });
    await expect(llama.createGrammar({ grammar: buildReplyGrammar() })).resolves.toBeDefined();
  });
});
