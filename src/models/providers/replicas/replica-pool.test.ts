import { afterEach, describe, expect, it } from 'vitest';
import { failureOf } from '../../../../test/support/call-failure.js';
import { FakeProviderServer, type FakeResponse, RESPONSE_SHAPES } from '../../../../test/support/fake-provider-server.js';
import type { ChatModel, GenerateReply, GenerateRequest } from '../../chat-model.js';
import { createChatModel } from '../../create-chat-model.js';
import { ModelCallError } from '../../model-call-error.js';
import type { ModelSettings } from '../../model-settings.js';
import { type ReplicaEvent, ReplicaPool } from './replica-pool.js';

const REPLY = '<message>Fair point.</message>\n<support_ranking>Support</support_ranking>';
const OK: FakeResponse = { status: 200, body: RESPONSE_SHAPES.openaiChat(REPLY) };
const request: GenerateRequest = { messages: [{ role: 'user', content: 'Where do you stand?' }], temperature: 0.7, maxOutputTokens: 400, seed: 7 };

let servers: FakeProviderServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** Loopback replicas answering from their scripts (one script per replica). */
async function startReplicas(...scripts: FakeResponse[][]): Promise<FakeProviderServer[]> {
  const started = await Promise.all(scripts.map(() => FakeProviderServer.start()));
  servers.push(...started);
  for (const [index, server] of started.entries()) server.reply(...scripts[index]!);
  return started;
}

/** The address of a server that was started and closed: connections to it are refused. */
async function refusingURL(): Promise<string> {
  const server = await FakeProviderServer.start();
  const url = server.url;
  await server.close();
  return url;
}

/** A replicated vLLM model without retries: whatever succeeds did so by failing over, not by retrying. */
function pooledModel(urls: readonly string[], clock: { nowMs: number }, events: ReplicaEvent[] = [], overrides: Partial<ModelSettings> = {}) {
  const settings: ModelSettings = {
    name: 'qwen',
    provider: 'vllm',
    model: 'q',
    replicas: urls.map((url) => `${url}/v1`),
    timeoutMs: 2000,
    maxRetries: 0,
    ...overrides,
  };
  return createChatModel(settings, { now: () => clock.nowMs, onReplicaEvent: (_model, event) => events.push(event) });
}

describe('a model served by several replicas', () => {
  it('spreads concurrent calls over the replicas, fewest outstanding first', async () => {
    const replicas = await startReplicas([{ ...OK, delayMs: 40 }], [{ ...OK, delayMs: 40 }], [{ ...OK, delayMs: 40 }]);
    const built = pooledModel(
      replicas.map((server) => server.url),
      { nowMs: 0 },
    );
    const replies = await Promise.all(Array.from({ length: 9 }, () => built.model.generate(request)));
    expect(replies.every((reply) => reply.text === REPLY)).toBe(true);
    expect(replicas.map((server) => server.requests.length)).toEqual([3, 3, 3]);
    expect(built.replicas!().replicas.map((replica) => [replica.served, replica.inFlight, replica.status])).toEqual([
      [3, 0, 'up'],
      [3, 0, 'up'],
      [3, 0, 'up'],
    ]);
  });

  it('takes a replica that answers 500 out for a cool-down and gives its call to another, without a retry', async () => {
    const [failing, healthy] = await startReplicas([{ status: 500, body: RESPONSE_SHAPES.openaiError('The server had an error', 'server_error', null) }], [OK]);
    const clock = { nowMs: 1_000 };
    const events: ReplicaEvent[] = [];
    const built = pooledModel([failing!.url, healthy!.url], clock, events);
    for (let call = 0; call < 4; call += 1) expect((await built.model.generate(request)).text).toBe(REPLY);
    expect(failing!.requests).toHaveLength(1);
    expect(healthy!.requests).toHaveLength(4);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'out', endpoint: `${failing!.url}/v1`, outForMs: 10_000, error: { statusCode: 500 } });
    expect(built.replicas!()).toEqual({
      failovers: 1,
      replicas: [
        { endpoint: `${failing!.url}/v1`, status: 'out', outForMs: 10_000, inFlight: 0, served: 0, failed: 1, timesOut: 1 },
        { endpoint: `${healthy!.url}/v1`, status: 'up', inFlight: 0, served: 4, failed: 0, timesOut: 0 },
      ],
    });

    // After the cool-down it gets one call on trial; answering brings it back.
    failing!.reply(OK);
    clock.nowMs += 10_000;
    await built.model.generate(request);
    expect(failing!.requests).toHaveLength(1);
    expect(events.at(-1)).toEqual({ kind: 'back', endpoint: `${failing!.url}/v1` });
    expect(built.replicas!().replicas[0]!.status).toBe('up');
  });

  it('fails over from a replica that refuses connections', async () => {
    const [healthy] = await startReplicas([OK]);
    const events: ReplicaEvent[] = [];
    const built = pooledModel([await refusingURL(), healthy!.url], { nowMs: 0 }, events);
    for (let call = 0; call < 3; call += 1) expect((await built.model.generate(request)).text).toBe(REPLY);
    expect(healthy!.requests).toHaveLength(3);
    expect(events.map((event) => event.kind)).toEqual(['out']);
    const out = events[0] as Extract<ReplicaEvent, { kind: 'out' }>;
    expect(out.error).toMatchObject({ retryable: true, reason: 'api' });
    expect(out.error.statusCode).toBeUndefined();
  });

  it('gives the retry layer the typed error when every replica fails the call, each tried once', async () => {
    const unavailable: FakeResponse = { status: 503, body: { error: { message: 'overloaded' } } };
    const replicas = await startReplicas([unavailable], [unavailable]);
    const built = pooledModel(
      replicas.map((server) => server.url),
      { nowMs: 0 },
    );
    const error = await failureOf(built.model.generate(request));
    expect(error).toMatchObject({ statusCode: 503, retryable: true, reason: 'api' });
    expect(replicas.map((server) => server.requests.length)).toEqual([1, 1]);

    // Both out now: the next call still tries one (the first back), rather than failing untried.
    const again = await failureOf(built.model.generate(request));
    expect(again.statusCode).toBe(503);
    expect(replicas[0]!.requests.length + replicas[1]!.requests.length).toBe(3);
  });

  it('does not fail over a request the server refuses (4xx): every replica would refuse it', async () => {
    const tooLong: FakeResponse = {
      status: 400,
      body: RESPONSE_SHAPES.openaiError("This model's maximum context length is 32768 tokens.", 'invalid_request_error', 'context_length_exceeded'),
    };
    const replicas = await startReplicas([tooLong], [tooLong]);
    const built = pooledModel(
      replicas.map((server) => server.url),
      { nowMs: 0 },
    );
    expect(await failureOf(built.model.generate(request))).toMatchObject({ statusCode: 400, retryable: false, reason: 'context' });
    expect(replicas.map((server) => server.requests.length)).toEqual([1, 0]);
    expect(built.replicas!().replicas.every((replica) => replica.status === 'up')).toBe(true);
  });

  it('lets an abort go up as it is: not failed over, the replica still up', async () => {
    const replicas = await startReplicas(['hang'], [OK]);
    const built = pooledModel(
      replicas.map((server) => server.url),
      { nowMs: 0 },
    );
    const controller = new AbortController();
    const pending = built.model.generate({ ...request, abortSignal: controller.signal });
    while (replicas[0]!.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error('run stopped'));
    await expect(pending).rejects.toThrow('run stopped');
    expect(replicas[1]!.requests).toHaveLength(0);
    expect(built.replicas!()).toMatchObject({ failovers: 0, replicas: [{ status: 'up', failed: 0, inFlight: 0 }, { status: 'up' }] });
  });

  it('sends a 429 to another replica when one is free', async () => {
    const limited: FakeResponse = {
      status: 429,
      headers: { 'retry-after': '3' },
      body: RESPONSE_SHAPES.openaiError('Rate limit reached', 'requests', 'rate_limit_exceeded'),
    };
    const [busy, free] = await startReplicas([limited], [OK]);
    const events: ReplicaEvent[] = [];
    const built = pooledModel([busy!.url, free!.url], { nowMs: 0 }, events);
    expect((await built.model.generate(request)).text).toBe(REPLY);
    expect(events[0]).toMatchObject({ kind: 'out', outForMs: 3000 });
  });
});

/** A replica that holds each call until the test lets it go (with a reply, or failing), counting the most it held at once. */
class HeldReplica implements ChatModel {
  readonly name = 'held';
  readonly simulated = false;
  held: Array<(error?: ModelCallError) => void> = [];
  mostAtOnce = 0;
  async generate(): Promise<GenerateReply> {
    const error = await new Promise<ModelCallError | undefined>((resolve) => {
      this.held.push(resolve);
      this.mostAtOnce = Math.max(this.mostAtOnce, this.held.length);
    });
    if (error) throw error;
    return { text: REPLY, finishReason: 'stop' };
  }
  releaseAll(error?: ModelCallError): void {
    const held = this.held;
    this.held = [];
    for (const release of held) release(error);
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('replicaConcurrency', () => {
  it('keeps at most that many calls on each replica; the rest wait for a free one', async () => {
    const replicas = [new HeldReplica(), new HeldReplica()];
    const pool = new ReplicaPool({
      name: 'qwen',
      replicas: replicas.map((model, index) => ({ endpoint: `http://gpu-${index}/v1`, model })),
      replicaConcurrency: 2,
      now: () => 0,
    });
    const calls = Array.from({ length: 7 }, () => pool.generate(request));
    await settle();
    expect(replicas.map((replica) => replica.held.length)).toEqual([2, 2]);
    while (replicas.some((replica) => replica.held.length > 0)) {
      for (const replica of replicas) replica.releaseAll();
      await settle();
    }
    expect(await Promise.all(calls)).toHaveLength(7);
    expect(replicas.map((replica) => replica.mostAtOnce)).toEqual([2, 2]);
    expect(pool.view().replicas.map((replica) => replica.served)).toEqual([4, 3]);
  });

  it('sends a call that failed on a full pool on to the next free replica, after the calls that waited before it', async () => {
    const [steady, failing] = [new HeldReplica(), new HeldReplica()];
    const pool = new ReplicaPool({
      name: 'qwen',
      replicas: [
        { endpoint: 'http://gpu-0/v1', model: steady },
        { endpoint: 'http://gpu-1/v1', model: failing },
      ],
      replicaConcurrency: 1,
      now: () => 0,
    });
    const calls = [pool.generate(request), pool.generate(request), pool.generate(request)];
    await settle();
    expect([steady.held.length, failing.held.length]).toEqual([1, 1]);
    failing.releaseAll(new ModelCallError('qwen: HTTP 500: boom', { provider: 'vllm', model: 'q', reason: 'api', statusCode: 500, retryable: true }));
    await settle();
    for (let round = 0; round < 3; round += 1) {
      expect(steady.held.length).toBe(1);
      steady.releaseAll();
      await settle();
    }
    expect((await Promise.all(calls)).map((reply) => reply.text)).toEqual([REPLY, REPLY, REPLY]);
    expect(steady.mostAtOnce).toBe(1);
    expect(pool.view()).toMatchObject({ failovers: 1, replicas: [{ served: 3 }, { served: 0, failed: 1, status: 'out' }] });
  });

  it('stops a waiting call when its request is aborted', async () => {
    const replica = new HeldReplica();
    const pool = new ReplicaPool({ name: 'qwen', replicas: [{ endpoint: 'http://gpu-0/v1', model: replica }], replicaConcurrency: 1, now: () => 0 });
    const first = pool.generate(request);
    const controller = new AbortController();
    const second = pool.generate({ ...request, abortSignal: controller.signal });
    controller.abort(new Error('run stopped'));
    await expect(second).rejects.toThrow('run stopped');
    replica.releaseAll();
    await first;
    expect(pool.view().replicas[0]!.served).toBe(1);
  });
  it('once the run stops, sends no waiting call and fails nothing over: the failure goes up, the calls on the wire finish', async () => {
    const [steady, failing] = [new HeldReplica(), new HeldReplica()];
    const stopping = new AbortController();
    const pool = new ReplicaPool({
      name: 'qwen',
      replicas: [
        { endpoint: 'http://gpu-0/v1', model: steady },
        { endpoint: 'http://gpu-1/v1', model: failing },
      ],
      replicaConcurrency: 1,
      now: () => 0,
      stopSignal: stopping.signal,
    });
    const calls = [pool.generate(request), pool.generate(request), pool.generate(request)].map((call) => call.catch((error: unknown) => error));
    await settle();
    const reason = new Error('the run stopped');
    stopping.abort(reason);
    const fault = new ModelCallError('qwen: HTTP 500: boom', { provider: 'vllm', model: 'q', reason: 'api', statusCode: 500, retryable: true });
    failing.releaseAll(fault);
    steady.releaseAll();
    const [first, second, third] = await Promise.all(calls);
    expect((first as GenerateReply).text).toBe(REPLY);
    expect(second).toBe(fault);
    expect(third).toBe(reason);
    expect(pool.view()).toMatchObject({ failovers: 0, replicas: [{ served: 1 }, { served: 0, failed: 1 }] });
  });
});
