import { afterEach, describe, expect, it } from 'vitest';
import { failureOf } from '../../../test/support/call-failure.js';
import { RawHttpServer, rawResponse } from '../../../test/support/raw-http-server.js';
import type { BatchLedger } from './batch-ledger.js';
import { BatchQueue } from './batch-queue.js';
import { OpenAiBatchProvider } from './openai-batch-provider.js';

// The batch adapters reach their services through the same transport as direct calls: what a user
// sees when a batch service answers badly, and what a stopping run does to a request in flight.

let server: RawHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const caller = { name: 'alpha', provider: 'openai', model: 'alpha-model', timeoutMs: 5000, now: () => 0 };
const provider = (url: string, abortSignal?: AbortSignal) =>
  new OpenAiBatchProvider({ ...caller, baseURL: `${url}/v1`, apiKey: 'sk-test', ...(abortSignal ? { abortSignal } : {}) });
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('batch HTTP', () => {
  it('says a malformed answer from the batch service is not valid HTTP, worth another try', async () => {
    server = await RawHttpServer.start(({ socket }) => socket.write('HTTP/1.1 200 OK\nContent-Length: 2\n\n{}'));
    const error = await failureOf(provider(server.url).poll('batch_1'));
    expect(error).toMatchObject({ provider: 'openai', model: 'alpha-model', reason: 'api', retryable: true });
    expect(error.message).toBe("alpha: the batch service's reply is not valid HTTP: Missing expected CR after response line");
  });

  it('says it cannot reach a batch service that refuses the connection', async () => {
    server = await RawHttpServer.start(() => {});
    const { url } = server;
    await server.close();
    server = undefined;
    const error = await failureOf(provider(url).poll('batch_1'));
    expect(error).toMatchObject({ retryable: true });
    expect(error.message).toMatch(new RegExp(`^alpha: cannot reach ${url}/v1/batches/batch_1 \\(`));
  });

  it('cancels a poll in flight when the run stops, and lets a submission finish so its batch is not lost', async () => {
    const closed: string[] = [];
    server = await RawHttpServer.start(({ socket, head }) => {
      socket.on('close', () => closed.push(head.split('\r\n')[0]!));
      // Every answer comes late; the submission's two (file, batch) come whole.
      setTimeout(() => {
        if (socket.destroyed) return;
        socket.write(rawResponse(head.startsWith('POST /v1/files') ? '{"id":"file_1"}' : '{"id":"batch_1","status":"in_progress"}'));
      }, 150);
    });
    const stop = new AbortController();
    const batches = provider(server.url, stop.signal);
    const poll = batches.poll('batch_1');
    const submission = batches.submit(
      [{ customId: 'a'.repeat(64), request: { messages: [{ role: 'user', content: 'hi' }], maxOutputTokens: 10, seed: 1 } }],
      'key',
    );
    await later(50);
    stop.abort(new Error('the run stopped'));
    await expect(poll).rejects.toThrow('the run stopped');
    expect(await submission).toBe('batch_1');
    await later(50);
    expect(closed).toContain('GET /v1/batches/batch_1 HTTP/1.1');
  });

  it('lets a run stop while a poll is out: the poll is cancelled, its callers let go, and nothing is left to throw', async () => {
    server = await RawHttpServer.start(({ socket, head }) => {
      if (head.startsWith('GET ')) return; // the poll never comes back by itself
      socket.write(rawResponse(head.startsWith('POST /v1/files') ? '{"id":"file_1"}' : '{"id":"batch_1","status":"in_progress"}'));
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const stop = new AbortController();
      const ledger: BatchLedger = {
        openBatches: () => [],
        beginBatch: () => 1,
        batchSubmitted: () => {},
        linesRead: () => {},
        batchStatus: () => {},
      };
      const queue = new BatchQueue(
        {
          provider: provider(server.url, stop.signal),
          providerName: 'openai',
          ledger,
          modelIdentity: 'openai/alpha-model',
          settings: { size: 1, pollMs: 1, quietMs: 1, failedLines: 'retry' },
          maxRetries: 0,
          now: () => 0,
          waitSignal: stop.signal,
        },
        () => Promise.reject(new Error('no direct calls here')),
        'alpha',
      );
      const asked = queue.ask({ messages: [{ role: 'user', content: 'hi' }], maxOutputTokens: 10, seed: 1 });
      while (!server.requests.some((request) => request.head.startsWith('GET '))) await later(10);
      stop.abort(new Error('the run stopped'));
      await expect(asked).rejects.toThrow('the run stopped');
      await later(50);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
