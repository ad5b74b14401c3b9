import { readFileSync } from 'node:fs';
import { createServer as createSecureServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RawHttpServer, rawResponse } from '../../test/support/raw-http-server.js';
import { type BodyProgress, HttpTransport } from './http-transport.js';
import { TransportFailure } from './transport-failure.js';

// The transport's own contract; what each kind of failure means to a user is in
// src/models/providers/http-replies.test.ts (the chat path) and src/models/batch/batch-http.test.ts.

const TLS = new URL('../../test/fixtures/tls/', import.meta.url);
let server: RawHttpServer | undefined;
const transports: HttpTransport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close()));
  await server?.close();
  server = undefined;
});

function transport(options: { maxResponseBytes?: number; ca?: string; timeoutMs?: number } = {}): HttpTransport {
  const made = new HttpTransport({
    timeoutMs: options.timeoutMs ?? 2000,
    maxResponseBytes: options.maxResponseBytes ?? 1024,
    ...(options.ca ? { ca: options.ca } : {}),
  });
  transports.push(made);
  return made;
}

/** What an answer promise was rejected with (the test fails if it resolved). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  const outcome = await promise.then(
    () => new Error('resolved'),
    (error: unknown) => error,
  );
  expect(outcome).not.toEqual(new Error('resolved'));
  return outcome;
}

async function secureServer(): Promise<{ url: URL; close: () => Promise<void> }> {
  const https: Server = createSecureServer(
    { cert: readFileSync(new URL('localhost-cert.pem', TLS)), key: readFileSync(new URL('localhost-key.pem', TLS)) },
    (_request, response) => response.end('{"ok":true}'),
  );
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  const { port } = https.address() as AddressInfo;
  return {
    url: new URL(`https://localhost:${port}/v1/files`),
    close: () => {
      https.closeAllConnections();
      return new Promise((resolve) => https.close(() => resolve()));
    },
  };
}

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('HttpTransport', () => {
  it('speaks https, checking the certificate against the CAs it trusts', async () => {
    const secure = await secureServer();
    try {
      const ca = readFileSync(new URL('localhost-cert.pem', TLS), 'utf8');
      const answer = await transport({ ca }).request({ method: 'GET', url: secure.url, headers: {} }).answer;
      expect({ status: answer.statusCode, body: answer.body.toString() }).toEqual({ status: 200, body: '{"ok":true}' });
      const untrusted = await rejection(transport().request({ method: 'GET', url: secure.url, headers: {} }).answer);
      expect(untrusted).toBeInstanceOf(TransportFailure);
      expect(untrusted).toMatchObject({ kind: 'unreachable', message: expect.stringMatching(/self[- ]signed certificate/) });
    } finally {
      await secure.close();
    }
  });

  it("sends a Host given among the headers instead of the URL's, and the body with its length", async () => {
    server = await RawHttpServer.start(({ socket }) => socket.write(rawResponse('{}')));
    await transport().request({ method: 'POST', url: new URL(`${server.url}/v1/batches?x=1`), headers: { host: 'api.example.test' }, body: '{"é":1}' }).answer;
    const sent = server.requests[0]!;
    expect(sent.head).toMatch(/^POST \/v1\/batches\?x=1 HTTP\/1.1\r\n/);
    expect(sent.head).toMatch(/^host: api\.example\.test$/im);
    expect(sent.head).toMatch(/^content-length: 8$/im);
    expect(sent.body).toBe('{"é":1}');
  });

  it('answers with the status, the headers in lower case (repeated ones joined) and the body, whatever the status', async () => {
    server = await RawHttpServer.start(({ socket }) =>
      socket.write(rawResponse('{"error":{}}', { 'X-A': '1', 'x-a': '2', 'Retry-After': '3' }, 'HTTP/1.1 429 Too Many Requests')),
    );
    const answer = await transport().request({ method: 'GET', url: new URL(`${server.url}/`), headers: {} }).answer;
    expect(answer.statusCode).toBe(429);
    expect(answer.headers).toMatchObject({ 'x-a': '1, 2', 'retry-after': '3' });
    expect(answer.body.toString()).toBe('{"error":{}}');
  });

  it('tells how much of the body has come, against its Content-Length', async () => {
    server = await RawHttpServer.start(async ({ socket }) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nabc');
      await later(20);
      socket.write('def');
    });
    const told: BodyProgress[] = [];
    const answer = await transport().request({ method: 'GET', url: new URL(`${server.url}/data.csv`), headers: {}, onBody: (progress) => told.push(progress) })
      .answer;
    expect(answer.body.toString()).toBe('abcdef');
    expect(told).toEqual([
      { statusCode: 200, receivedBytes: 3, totalBytes: 6 },
      { statusCode: 200, receivedBytes: 6, totalBytes: 6 },
    ]);
  });

  it('holds each transport to its own size limit: a chunked body that goes on fails as too large', async () => {
    server = await RawHttpServer.start(async ({ socket }) => {
      socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
      while (!socket.destroyed) {
        socket.write(`100\r\n${'y'.repeat(256)}\r\n`);
        await later(1);
      }
    });
    const failure = await rejection(
      transport({ maxResponseBytes: 4096 }).request({ method: 'GET', url: new URL(`${server.url}/results`), headers: {} }).answer,
    );
    expect(failure).toMatchObject({ kind: 'too-large', details: { limit: 4096, code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' } });
  });

  it('refuses a body whose Content-Length is past the limit as soon as the head is read, and closes its connection', async () => {
    let closed = false;
    server = await RawHttpServer.start(({ socket }) => {
      socket.on('close', () => (closed = true));
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 4097\r\n\r\n'); // and never a byte of the body
    });
    const failure = await rejection(
      transport({ maxResponseBytes: 4096, timeoutMs: 5000 }).request({ method: 'GET', url: new URL(`${server.url}/results`), headers: {} }).answer,
    );
    expect(failure).toMatchObject({ kind: 'too-large', message: 'its Content-Length is 4097 bytes', details: { limit: 4096 } });
    await later(100);
    expect(closed).toBe(true);
  });

  it('rejects with the reason given to cancel, before or after the request is under way, and sends nothing once cancelled', async () => {
    server = await RawHttpServer.start(() => {});
    const http = transport();
    const early = http.request({ method: 'GET', url: new URL(`${server.url}/early`), headers: {} });
    early.cancel(new Error('stopped before it started'));
    await expect(early.answer).rejects.toThrow('stopped before it started');
    const underWay = http.request({ method: 'GET', url: new URL(`${server.url}/late`), headers: {} });
    await later(50);
    underWay.cancel(new Error('stopped'));
    await expect(underWay.answer).rejects.toThrow('stopped');
    await later(50);
    expect(server.requests.map((request) => request.head.split(' ')[1])).toEqual(['/late']);
  });

  it('times out at its timeoutMs unless the exchange gives its own', async () => {
    server = await RawHttpServer.start(() => {});
    const http = transport({ timeoutMs: 150 });
    const started = performance.now();
    expect(await rejection(http.request({ method: 'GET', url: new URL(`${server.url}/`), headers: {} }).answer)).toMatchObject({
      kind: 'timeout',
      details: { limit: 150 },
    });
    expect(await rejection(http.request({ method: 'GET', url: new URL(`${server.url}/`), headers: {}, timeoutMs: 300 }).answer)).toMatchObject({
      kind: 'timeout',
      details: { limit: 300 },
    });
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});
