import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { failureOf } from '../../../test/support/call-failure.js';
import { RESPONSE_SHAPES } from '../../../test/support/fake-provider-server.js';
import { RawHttpServer, type RawHttpServer as RawServer, rawResponse, writeInPieces } from '../../../test/support/raw-http-server.js';
import type { GenerateRequest } from '../chat-model.js';
import { createChatModel } from '../create-chat-model.js';
import { OpenAiChatModel } from './openai-chat-model.js';

// What a user sees when a server answers the OpenAI chat path (on the HTTP transport, src/http/) well
// or badly: each reply below comes from a raw TCP server, byte for byte, and the tests assert the reply
// or the typed error (its message, whether it is retried), that nothing crashes, and that nothing
// waits past its time.

const REPLY = '<message>Fair point.</message>\n<support_ranking>Support</support_ranking>';
const COMPLETION = JSON.stringify(RESPONSE_SHAPES.openaiChat(REPLY));
const request: GenerateRequest = { messages: [{ role: 'user', content: 'Where do you stand?' }], temperature: 0.7, maxOutputTokens: 400, seed: 7 };

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: (request: { socket: Socket; index: number; connection: number }) => unknown): Promise<RawServer> {
  server = await RawHttpServer.start(script);
  return server;
}

const chatModel = (url: string, timeoutMs = 5000) =>
  new OpenAiChatModel({ name: 'local/m', provider: 'openai-compatible', model: 'm', baseURL: `${url}/v1`, timeoutMs });

/** The call's outcome and how long it took. */
async function timed<T>(promise: Promise<T>): Promise<{ outcome: T; elapsedMs: number }> {
  const started = performance.now();
  const outcome = await promise;
  return { outcome, elapsedMs: performance.now() - started };
}

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('what the OpenAI chat path makes of what a server sends', () => {
  it('reads a reply whose bytes come one at a time', async () => {
    const { url } = await serve(({ socket }) => writeInPieces(socket, rawResponse(JSON.stringify(RESPONSE_SHAPES.openaiChatWithoutUsage(REPLY))), 1));
    expect((await chatModel(url).generate(request)).text).toBe(REPLY);
  });

  it('reads a chunked reply with chunk extensions and trailers, split across many writes', async () => {
    const bytes = Buffer.from(COMPLETION);
    const body = `20;name=value\r\n${bytes.subarray(0, 32).toString()}\r\n${(bytes.length - 32).toString(16)}\r\n${bytes.subarray(32).toString()}\r\n0\r\nX-Trailer: t\r\n\r\n`;
    const { url } = await serve(({ socket }) => writeInPieces(socket, rawResponse(body, { 'Transfer-Encoding': 'chunked' }), 7));
    const model = chatModel(url);
    expect((await model.generate(request)).text).toBe(REPLY);
    expect((await model.generate(request)).text).toBe(REPLY);
  });

  it('reads a reply that ends with the connection, and does not reuse that connection', async () => {
    const { url } = await serve(({ socket }) => {
      socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n${COMPLETION}`);
    });
    const model = chatModel(url);
    expect((await model.generate(request)).text).toBe(REPLY);
    expect((await model.generate(request)).text).toBe(REPLY);
    expect(server!.connections).toBe(2);
  });

  it('skips an informational answer (103) before the real one', async () => {
    const { url } = await serve(({ socket }) => socket.write(`HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n${rawResponse(COMPLETION)}`));
    expect((await chatModel(url).generate(request)).text).toBe(REPLY);
  });

  it.each([
    ['a garbage status line', 'SSH-2.0-OpenSSH_9.6\r\n\r\n'],
    ['bare LF line ends in the head', rawResponse(COMPLETION).replace(/\r\n/g, '\n')],
    ['a bare LF inside the headers', rawResponse(COMPLETION).replace('Content-Type: application/json\r\n', 'X-A: 1\nContent-Type: application/json\r\n')],
    ['an HTTP/2 status line', `HTTP/2 200\r\ncontent-length: 2\r\n\r\n{}`],
    ['a header line without a colon', rawResponse(COMPLETION).replace('Content-Type', 'Content Type')],
    ['two different Content-Lengths', `HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`],
    ['a chunk size that is not hex', `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`],
    ['a chunk longer than its size', `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{}\r\n0\r\n\r\n`],
    ['headers longer than 64 KiB', `HTTP/1.1 200 OK\r\nX-Long: ${'a'.repeat(70_000)}\r\nContent-Length: 2\r\n\r\n{}`],
    ['an unasked-for protocol switch', 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'],
    ['an unasked-for 100 Continue', `HTTP/1.1 100 Continue\r\n\r\n${rawResponse(COMPLETION)}`],
  ])('fails at once on %s: a reply the server sent and pmiyc cannot read, worth another try', async (_mode, wire) => {
    const { url } = await serve(({ socket }) => socket.write(wire));
    const { outcome: error, elapsedMs } = await timed(failureOf(chatModel(url).generate(request)));
    expect(error).toMatchObject({ provider: 'openai-compatible', model: 'm', reason: 'api', retryable: true });
    expect(error.statusCode).toBeUndefined();
    expect(error.message).toMatch(/^local\/m: the server sent a reply pmiyc cannot read \(/);
    expect(error.message).not.toMatch(/cannot reach/);
    expect(elapsedMs).toBeLessThan(2_000); // the call's time is 5 s: nothing waited it out
  });

  it('refuses an endless body once past 16 MiB, without reading the rest, and does not retry it', async () => {
    let written = 0;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const { url } = await serve(async ({ socket }) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${600 * 2 ** 20}\r\n\r\n`);
      // As fast as the client reads, for 600 MiB or until it hangs up.
      while (!socket.destroyed && written < 600 * 2 ** 20) {
        written += chunk.length;
        if (!socket.write(chunk)) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
      }
    });
    const built = createChatModel(
      { name: 'local/m', provider: 'openai-compatible', model: 'm', baseURL: `${url}/v1`, timeoutMs: 20_000, maxRetries: 2 },
      { retry: { sleep: async () => {}, random: () => 0 } },
    );
    const error = await failureOf(built.model.generate(request));
    expect(error).toMatchObject({ reason: 'api', retryable: false });
    expect(error.message).toBe('local/m: the server sent a reply larger than 16 MiB, the most pmiyc reads from it');
    expect(server!.requests).toHaveLength(1);
    expect(written).toBeLessThan(64 * 2 ** 20);
  });

  it('does not take a late duplicate reply, sent while the connection waits, for the next call', async () => {
    const { url } = await serve(({ socket, index }) => {
      if (index > 0) return void socket.write(rawResponse(JSON.stringify(RESPONSE_SHAPES.openaiChat('second'))));
      socket.write(rawResponse(COMPLETION));
      setTimeout(() => socket.write(rawResponse(JSON.stringify(RESPONSE_SHAPES.openaiChat('duplicate')))), 20);
    });
    const model = chatModel(url);
    expect((await model.generate(request)).text).toBe(REPLY);
    await later(100);
    expect((await model.generate(request)).text).toBe('second');
    expect(server!.connections).toBe(2);
  });

  it('does not take a duplicate reply that came in the same write as the first for the next call', async () => {
    const { url } = await serve(({ socket, index }) => {
      if (index > 0) return void socket.write(rawResponse(JSON.stringify(RESPONSE_SHAPES.openaiChat('second'))));
      socket.write(rawResponse(COMPLETION) + rawResponse(JSON.stringify(RESPONSE_SHAPES.openaiChat('duplicate'))));
    });
    const model = chatModel(url);
    expect((await model.generate(request)).text).toBe(REPLY);
    expect((await model.generate(request)).text).toBe('second');
  });

  it('fails retryably when the connection closes in the middle of the body, saying so', async () => {
    const { url } = await serve(({ socket }) => socket.end(rawResponse(COMPLETION).slice(0, -40)));
    const error = await failureOf(chatModel(url).generate(request));
    expect(error).toMatchObject({ reason: 'api', retryable: true });
    expect(error.message).toMatch(new RegExp(`^local/m: ${url} closed the connection before its reply was complete`));
  });

  it('fails retryably when the server closes the connection without a reply', async () => {
    const { url } = await serve(({ socket }) => socket.destroy());
    const error = await failureOf(chatModel(url).generate(request));
    expect(error).toMatchObject({ reason: 'api', retryable: true });
    expect(error.message).toMatch(/closed the connection before its reply was complete/);
  });

  it('opens a new connection when the server closed the one that waited', async () => {
    const { url } = await serve(({ socket }) => {
      socket.write(rawResponse(COMPLETION));
      setTimeout(() => socket.end(), 20);
    });
    const model = chatModel(url);
    for (let call = 0; call < 3; call++) {
      expect((await model.generate(request)).text).toBe(REPLY);
      await later(60);
    }
    expect(server!.connections).toBe(3);
  });

  it('reuses connections for calls one after another, and opens more as calls overlap', async () => {
    const { url } = await serve(({ socket }) => void setTimeout(() => socket.write(rawResponse(COMPLETION)), 20));
    const model = chatModel(url);
    // undici lets a connection rest for a turn of the event loop before it carries the next request
    // (bytes the server sent after its reply are seen then): a call made at once takes another one.
    for (let call = 0; call < 6; call++) await model.generate(request);
    expect(server!.connections).toBeLessThanOrEqual(2);
    await Promise.all(Array.from({ length: 4 }, () => model.generate(request)));
    expect(new Set(server!.requests.slice(6).map((sent) => sent.connection)).size).toBe(4);
  });

  it('does not reuse a connection past the idle time the server announced, less a second', async () => {
    const { url } = await serve(({ socket }) => socket.write(rawResponse(COMPLETION, { 'Keep-Alive': 'timeout=2' })));
    const model = chatModel(url);
    await model.generate(request);
    await later(300);
    await model.generate(request);
    expect(server!.connections).toBe(1);
    await later(1_300);
    await model.generate(request);
    expect(server!.connections).toBe(2);
  });

  it('gives up on a reply that never ends at timeoutMs, and closes its connection', async () => {
    let closedAtMs = 0;
    const { url } = await serve(({ socket }) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{`);
      const drip = setInterval(() => socket.write(' '), 50); // bytes keep coming, the reply never completes
      socket.on('close', () => {
        clearInterval(drip);
        closedAtMs = performance.now();
      });
    });
    const started = performance.now();
    const error = await failureOf(chatModel(url, 400).generate(request));
    expect(error).toMatchObject({ reason: 'api', retryable: true });
    expect(error.message).toBe('local/m: no reply within 400 ms (timeoutMs)');
    expect(performance.now() - started).toBeLessThan(1_500);
    await later(100);
    expect(closedAtMs).toBeGreaterThan(0);
  });

  it("cancels the request on the caller's abort: the caller's reason, at once, and the connection closed", async () => {
    let closed = false;
    const { url } = await serve(({ socket }) => void socket.on('close', () => (closed = true)));
    const controller = new AbortController();
    const pending = chatModel(url).generate({ ...request, abortSignal: controller.signal });
    await later(50);
    controller.abort(new Error('user pressed Ctrl-C'));
    await expect(pending).rejects.toThrow('user pressed Ctrl-C');
    await later(100);
    expect(closed).toBe(true);
  });

  it('says it cannot reach a server that refuses the connection', async () => {
    const { url } = await serve(() => {});
    await server!.close();
    server = undefined;
    const error = await failureOf(chatModel(url).generate(request));
    expect(error).toMatchObject({ reason: 'api', retryable: true });
    expect(error.message).toMatch(new RegExp(`^local/m: cannot reach ${url}/v1/chat/completions \\(.*ECONNREFUSED`));
  });

  it('retries what another try may fix and not what it cannot', async () => {
    const { url } = await serve(({ socket }) => socket.write('garbage\r\n\r\n'));
    const built = createChatModel(
      { name: 'local/m', provider: 'openai-compatible', model: 'm', baseURL: `${url}/v1`, timeoutMs: 5000, maxRetries: 2 },
      { retry: { sleep: async () => {}, random: () => 0 } },
    );
    expect(await failureOf(built.model.generate(request))).toMatchObject({ retryable: true });
    expect(server!.requests).toHaveLength(3);
  });
});
