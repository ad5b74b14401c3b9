import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESPONSE_SHAPES } from '../../../test/support/fake-provider-server.js';
import { parseConfig } from '../../config/parse-config.js';
import { sampleTurn } from '../../engine/sample-turn.js';
import { MemoryCallCache } from '../../models/call-cache.js';
import type { ChatMessage } from '../../models/chat-model.js';
import { RunGate } from '../run-gate.js';
import { RunMeter } from '../run-meter.js';
import { sessionModelsOf } from './check-models.js';
import { createRunModels } from './run-models.js';

const REPLY = '<message>Fine.</message>\n<support_ranking>Neutral</support_ranking>';

/** A provider on loopback that holds every request until the test answers it. */
const held: Array<{ body: { messages: ChatMessage[] }; answer: (status: number, body: unknown, headers?: Record<string, string>) => void }> = [];
const server = createServer((request, response: ServerResponse) => {
  let text = '';
  request.on('data', (chunk: Buffer) => (text += chunk.toString()));
  request.on('end', () =>
    held.push({
      body: JSON.parse(text) as { messages: ChatMessage[] },
      answer: (status, body, headers = {}) => response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body)),
    }),
  );
});
let baseURL = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** The run's models over `models:` (YAML entries under the loopback server), with a clock that says 1000. */
function runModels(entries: string, concurrency = 8) {
  const config = parseConfig('test.yaml', `models:\n${entries.replaceAll('{server}', baseURL)}`);
  const meter = new RunMeter();
  const registry = createRunModels(
    sessionModelsOf(config, {}, []),
    {},
    {
      cache: new MemoryCallCache(),
      gate: new RunGate(),
      meter,
      concurrency,
      identityOf: (settings) => settings.name,
      now: () => 1_000,
      retry: { sleep: async () => {}, random: () => 0 },
    },
  );
  return { meter, registry };
}

const ask = (content: string) => ({ messages: [{ role: 'user' as const, content }], maxOutputTokens: 50, seed: 1 });

describe('the run meter of the run models', () => {
  it("counts a call on the wire only once it is past its model's limit; the others are waiting", async () => {
    held.length = 0;
    const { meter, registry } = runModels('  local: { provider: openai-compatible, model: m, baseURL: "{server}", maxConcurrency: 1, maxRetries: 0 }\n');
    const model = registry.modelFor('local');
    const replies = [model.generate(ask('one')), model.generate(ask('two')), model.generate(ask('three'))];
    await until(() => held.length === 1);
    expect(meter.trafficOf('local')).toMatchObject({ started: 3, onTheWire: 1 });
    held[0]!.answer(200, RESPONSE_SHAPES.openaiChat(REPLY));
    await until(() => held.length === 2);
    expect(meter.trafficOf('local')).toMatchObject({ started: 2, onTheWire: 1 });
    held[1]!.answer(200, RESPONSE_SHAPES.openaiChat(REPLY));
    await until(() => held.length === 3);
    held[2]!.answer(200, RESPONSE_SHAPES.openaiChat(REPLY));
    await Promise.all(replies);
    expect(meter.trafficOf('local')).toMatchObject({ started: 0, onTheWire: 0 });
    expect(meter.callsMade).toBe(3);
  });

  it("counts a call waiting for one of the run's shared slots as waiting, not on the wire", async () => {
    held.length = 0;
    const { meter, registry } = runModels(
      '  first: { provider: openai-compatible, model: m1, baseURL: "{server}", maxRetries: 0 }\n  second: { provider: openai-compatible, model: m2, baseURL: "{server}", maxRetries: 0 }\n',
      1,
    );
    const replies = [registry.modelFor('first').generate(ask('one')), registry.modelFor('second').generate(ask('two'))];
    await until(() => held.length === 1);
    expect([meter.trafficOf('first'), meter.trafficOf('second')]).toMatchObject([
      { started: 1, onTheWire: 1 },
      { started: 1, onTheWire: 0 },
    ]);
    held[0]!.answer(200, RESPONSE_SHAPES.openaiChat(REPLY));
    await until(() => held.length === 2);
    held[1]!.answer(200, RESPONSE_SHAPES.openaiChat(REPLY));
    await Promise.all(replies);
  });

  it('counts retries and keeps the last error, with when it came, per model', async () => {
    held.length = 0;
    const { meter, registry } = runModels('  local: { provider: openai-compatible, model: m, baseURL: "{server}", maxRetries: 3 }\n');
    const reply = registry.modelFor('local').generate(ask('one'));
    await until(() => held.length === 1);
    held[0]!.answer(429, RESPONSE_SHAPES.openaiError('Rate limit reached', 'requests', 'rate_limit_exceeded'), { 'retry-after-ms': '5' });
    await until(() => held.length === 2);
    held[1]!.answer(503, RESPONSE_SHAPES.openaiError('Overloaded', 'server_error', null));
    await until(() => held.length === 3);
    held[2]!.answer(200, RESPONSE_SHAPES.openaiChat(REPLY));
    await reply;
    expect(meter.trafficOf('local')).toMatchObject({ retries: 2, lastError: { label: 'HTTP 503', atMs: 1_000 }, started: 0, onTheWire: 0 });
    expect([meter.retries, meter.callsMade, meter.callsFailed, meter.planCallsDone]).toEqual([2, 1, 0, 1]);
  });

  it('counts a turn asked again after an unusable reply as a re-sample, not as a call of the plan; nor is an answer shared within the run', async () => {
    held.length = 0;
    const { meter, registry } = runModels('  local: { provider: openai-compatible, model: m, baseURL: "{server}", maxRetries: 0 }\n');
    const model = registry.modelFor('local');
    const turn = sampleTurn(model, [{ role: 'user', content: 'Argue.' }], { temperature: 0.7, maxOutputTokens: 50, maxAttempts: 3 }, (attempt) => attempt);
    await until(() => held.length === 1);
    held[0]!.answer(200, RESPONSE_SHAPES.openaiChat('no tags at all'));
    await until(() => held.length === 2);
    held[1]!.answer(200, RESPONSE_SHAPES.openaiChat(REPLY));
    expect((await turn).ok).toBe(true);
    // The same turn in another conversation (its own messages): both answers come from the run's calls, the unusable one
    // first, so it re-samples too; nothing reaches the server.
    const again = await sampleTurn(
      model,
      [{ role: 'user', content: 'Argue.' }],
      { temperature: 0.7, maxOutputTokens: 50, maxAttempts: 3 },
      (attempt) => attempt,
    );
    expect(again.ok).toBe(true);
    expect(held).toHaveLength(2);
    expect(meter.trafficOf('local').resamples).toBe(2);
    expect([meter.callsMade, meter.callsShared, meter.planCallsDone]).toEqual([2, 2, 1]);
  });
});
