import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createSecureServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Http1Connections, headerLines } from './http1-connections.js';

const TLS_FIXTURES = new URL('../../../test/fixtures/tls/', import.meta.url);
const servers: Server[] = [];
const pools: Http1Connections[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) pool.close();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

/** A loopback server that counts the connections it accepted. */
async function serve(handle: Handler, secure = false): Promise<{ url: URL; connections: () => number; sockets: Set<Socket> }> {
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => handle(request, body, response));
  };
  const server = secure
    ? createSecureServer(
        { cert: readFileSync(new URL('localhost-cert.pem', TLS_FIXTURES)), key: readFileSync(new URL('localhost-key.pem', TLS_FIXTURES)) },
        listener,
      )
    : createServer(listener);
  const sockets = new Set<Socket>();
  let accepted = 0;
  server.on(secure ? 'secureConnection' : 'connection', (socket: Socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: new URL(`${secure ? 'https' : 'http'}://localhost:${port}/v1/chat/completions`), connections: () => accepted, sockets };
}

const echo: Handler = (request, body, response) => {
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify({ method: request.method, path: request.url, host: request.headers.host, auth: request.headers.authorization, body }));
};

function poolFor(url: URL, options: { ca?: string } = {}): Http1Connections {
  const pool = new Http1Connections({ url, ...options }, { 'content-type': 'application/json', authorization: 'Bearer k' });
  pools.push(pool);
  return pool;
}

/** What a response promise was rejected with (the test fails if it resolved). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(Error);
  return outcome as Error;
}

const json = async (pool: Http1Connections, body = '{"a":1}') => {
  const response = await pool.post('/v1/chat/completions', body).response;
  return { status: response.status, headers: response.headers, reply: JSON.parse(response.body.toString('utf8')) as Record<string, unknown> };
};

describe('Http1Connections', () => {
  it('POSTs with the headers given, and carries one call after another on one connection', async () => {
    const server = await serve(echo);
    const pool = poolFor(server.url);
    const first = await json(pool, '{"é":"ü"}');
    expect(first.reply).toEqual({ method: 'POST', path: '/v1/chat/completions', host: server.url.host, auth: 'Bearer k', body: '{"é":"ü"}' });
    for (let call = 0; call < 5; call++) await json(pool);
    expect(server.connections()).toBe(1);
  });

  it('opens connections as calls overlap, and reuses them after', async () => {
    const server = await serve((request, body, response) => setTimeout(() => echo(request, body, response), 20));
    const pool = poolFor(server.url);
    await Promise.all(Array.from({ length: 4 }, () => json(pool)));
    await Promise.all(Array.from({ length: 4 }, () => json(pool)));
    expect(server.connections()).toBe(4);
  });

  it('opens a new connection when the server closed the one that waited', async () => {
    const server = await serve(echo);
    const pool = poolFor(server.url);
    await json(pool);
    for (const socket of server.sockets) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await json(pool)).status).toBe(200);
    expect(server.connections()).toBe(2);
  });

  it('does not reuse a connection past the idle time the server announced, less a second', async () => {
    const server = await serve(echo);
    let clock = 0;
    const pool = new Http1Connections({ url: server.url }, {}, () => clock);
    pools.push(pool);
    const first = await json(pool);
    expect(first.headers['keep-alive']).toBe('timeout=5');
    clock = 3_900;
    await json(pool);
    expect(server.connections()).toBe(1);
    clock = 3_900 + 4_001;
    await json(pool);
    expect(server.connections()).toBe(2);
  });

  it('does not reuse a connection after "Connection: close", and reads a large chunked body whole', async () => {
    const big = 'x'.repeat(300_000);
    const server = await serve((_request, _body, response) => {
      response.setHeader('connection', 'close');
      for (let at = 0; at < big.length; at += 7_000) response.write(big.slice(at, at + 7_000));
      response.end();
    });
    const pool = poolFor(server.url);
    for (let call = 0; call < 3; call++) expect((await pool.post('/', '{}').response).body.toString()).toBe(big);
    expect(server.connections()).toBe(3);
  });

  it('says why a connection failed: refused, or closed before the reply', async () => {
    const closed = await serve((request) => request.socket.destroy());
    expect((await rejection(poolFor(closed.url).post('/', '{}').response)).message).toMatch(/closed before|ECONNRESET|socket hang up/);
    const gone = await serve(echo);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    expect((await rejection(poolFor(gone.url).post('/', '{}').response)).message).toMatch(/ECONNREFUSED/);
  });

  it('closes the connection of a call given up on, and the next call opens another', async () => {
    let hang = true;
    const server = await serve((request, body, response) => {
      if (!hang) echo(request, body, response);
    });
    const pool = poolFor(server.url);
    const exchange = pool.post('/', '{}');
    await new Promise((resolve) => setTimeout(resolve, 50));
    exchange.cancel();
    await expect(exchange.response).rejects.toThrow();
    hang = false;
    expect((await json(pool)).status).toBe(200);
    expect(server.connections()).toBe(2);
  });

  it('speaks https, checking the certificate against the CAs it trusts', async () => {
    const server = await serve(echo, true);
    const ca = readFileSync(new URL('localhost-cert.pem', TLS_FIXTURES), 'utf8');
    const pool = poolFor(server.url, { ca });
    expect((await json(pool)).reply).toMatchObject({ method: 'POST', body: '{"a":1}' });
    await json(pool);
    expect(server.connections()).toBe(1);
    const untrusted = poolFor(server.url);
    expect((await rejection(untrusted.post('/', '{}').response)).message).toMatch(/self[- ]signed certificate/);
  });

  it("sends a Host given among the headers instead of the URL's", async () => {
    const server = await serve(echo);
    const pool = new Http1Connections({ url: server.url }, { Host: 'api.example.test' });
    pools.push(pool);
    expect((await json(pool)).reply).toMatchObject({ host: 'api.example.test' });
  });

  it('refuses a header that would break the request apart or contradict its framing', () => {
    expect(() => headerLines({ 'x-note': 'a\r\nx-injected: 1' })).toThrow(/line break/);
    expect(() => headerLines({ 'x-note': 'café' })).toThrow(/not printable ASCII/);
    expect(() => headerLines({ 'bad name': 'v' })).toThrow(/not one HTTP allows/);
    expect(() => headerLines({ 'Content-Length': '5' })).toThrow(/set by pmiyc for each request/);
    expect(headerLines({ 'x-a': ' spaced ' })).toBe('x-a:  spaced \r\n');
  });
});
