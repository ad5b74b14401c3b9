import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { failureOf } from '../../../test/support/call-failure.js';
import { RESPONSE_SHAPES } from '../../../test/support/fake-provider-server.js';
import { RawHttpServer, type RawHttpServer as RawServer, rawResponse, writeInPieces } from '../../../test/support/raw-http-server.js';
import type { GenerateRequest } from '../chat-model.js';
import { createChatModel } from '../create-chat-model.js';
import { OpenAiChatModel } from './openai-chat-model.js';

// What a user sees when a server answers the OpenAI chat path (on the HTTP transport, src/http/) well
// or badly, and for the failures and limits the AI SDK's path too (on the transport's fetch): each reply
// below comes from a raw TCP server, byte for byte, and the tests assert the reply
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

async function serve(script: (request: { socket: Socket; index: number; connection: number; head: string }) => unknown): Promise<RawServer> {
  server = await RawHttpServer.start(script);
  return server;
}

const chatModel = (url: string, timeoutMs = 5000) =>
  new OpenAiChatModel({ name: 'local/m', provider: 'openai-compatible', model: 'm', baseURL: `${url}/v1`, timeoutMs });
/** The same server through the AI SDK (Anthropic's API), on the transport's fetch. */
const sdkModel = (url: string, timeoutMs = 5000) =>
  createChatModel({ name: 'local/claude', provider: 'anthropic', model: 'm', baseURL: `${url}/v1`, timeoutMs, maxRetries: 0 }, { apiKey: 'k' }).model;
/** A reply of `text` in the shape of the API the request went to (Anthropic's messages, or OpenAI's chat completions). */
const completionFor = (head: string, text: string) =>
  JSON.stringify(head.includes('/messages') ? RESPONSE_SHAPES.anthropicMessage(text) : RESPONSE_SHAPES.openaiChat(text));

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
    ['a garbage status line', 'SSH-2.0-OpenSSH_9.6\r\n\r\n', 'Expected HTTP/, RTSP/ or ICE/'],
    ['bare LF line ends in the head', rawResponse(COMPLETION).replace(/\r\n/g, '\n'), 'Missing expected CR after response line'],
    [
      'a bare LF inside the headers',
      rawResponse(COMPLETION).replace('Content-Type: application/json\r\n', 'X-A: 1\nContent-Type: application/json\r\n'),
      'Missing expected CR after header value',
    ],
    ['an HTTP/2 status line', `HTTP/2 200\r\ncontent-length: 2\r\n\r\n{}`, 'Expected dot'],
    ['a header line without a colon', rawResponse(COMPLETION).replace('Content-Type', 'Content Type'), 'Invalid header token'],
    ['two different Content-Lengths', `HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`, 'its body does not match its Content-Length'],
    ['a chunk size that is not hex', `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`, 'Invalid character in chunk size'],
    ['a chunk longer than its size', `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{}\r\n0\r\n\r\n`, 'Expected LF after chunk data'],
    [
      'an unasked-for protocol switch',
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n',
      'a switch of protocols nothing asked for',
    ],
    ['an unasked-for 100 Continue', `HTTP/1.1 100 Continue\r\n\r\n${rawResponse(COMPLETION)}`, 'a 100 Continue nothing asked for'],
  ])('fails at once on %s, saying the reply is not valid HTTP (worth another try), on both adapters', async (_mode, wire, problem) => {
    const { url } = await serve(({ socket }) => socket.write(wire));
    for (const model of [chatModel(url), sdkModel(url)]) {
      const error = await failureOf(model.generate(request));
      expect(error).toMatchObject({ model: 'm', reason: 'api', retryable: true });
      expect(error.statusCode).toBeUndefined();
      // This error and not the timeout's: the call did not wait out its time for a reply that had come.
      expect(error.message).toBe(`${model.name}: the server's reply is not valid HTTP: ${problem}`);
    }
  });

  it('fails at once, not retried, on a head longer than 64 KiB, naming the limit, on both adapters', async () => {
    const { url } = await serve(({ socket }) => socket.write(`HTTP/1.1 200 OK\r\nX-Long: ${'a'.repeat(70_000)}\r\nContent-Length: 2\r\n\r\n{}`));
    for (const model of [chatModel(url), sdkModel(url)]) {
      const error = await failureOf(model.generate(request));
      expect(error).toMatchObject({ reason: 'api', retryable: false });
      expect(error.message).toBe(
        `${model.name}: the server's reply has a status line and headers longer than 64 KiB, the most pmiyc reads (a fixed limit: APIs send a few KiB): check that the base URL is the API's`,
      );
    }
  });

  it("reads a head of 20 KiB, past the global fetch's 16 KiB, on both adapters", async () => {
    const { url } = await serve(({ socket, head }) => socket.write(rawResponse(completionFor(head, REPLY), { 'X-Long': 'a'.repeat(20_000) })));
    for (const model of [chatModel(url), sdkModel(url)]) expect((await model.generate(request)).text).toBe(REPLY);
  });

  it.each([
    ["pmiyc's client", 'openai-compatible'],
    ['the AI SDK', 'anthropic'],
  ])('refuses an endless body past maxReplyBytes through %s, without reading the rest, and does not retry it', async (_path, provider) => {
    let written = 0;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const { url } = await serve(async ({ socket }) => {
      // Chunked, so no Content-Length tells the size first: as fast as the client reads, for 600 MiB or until it hangs up.
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
      while (!socket.destroyed && written < 600 * 2 ** 20) {
        written += chunk.length;
        if (!socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
      }
    });
    const built = createChatModel(
      { name: 'big', provider, model: 'm', baseURL: `${url}/v1`, timeoutMs: 20_000, maxRetries: 2, maxReplyBytes: 2 * 2 ** 20 },
      { apiKey: 'k', retry: { sleep: async () => {}, random: () => 0 } },
    );
    const error = await failureOf(built.model.generate(request));
    expect(error).toMatchObject({ reason: 'api', retryable: false, replyLimitBytes: 2 * 2 ** 20 });
    expect(error.message).toBe(
      "big: the server sent a reply larger than 2 MiB, this model's maxReplyBytes; not retried: raise maxReplyBytes for big in the config to read larger replies",
    );
    expect(server!.requests).toHaveLength(1);
    expect(written).toBeLessThan(32 * 2 ** 20);
  });

  it('refuses a reply whose Content-Length is past the limit at once, before its body, on both adapters (8 MiB unless configured)', async () => {
    const { url } = await serve(({ socket }) => socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 999999999999999\r\n\r\n{'));
    for (const model of [chatModel(url), sdkModel(url)]) {
      // The body never comes: this error and not the timeout's says the Content-Length was enough.
      const error = await failureOf(model.generate(request));
      expect(error).toMatchObject({ retryable: false, replyLimitBytes: 8 * 2 ** 20 });
      expect(error.message).toMatch(/^local\/\w+: the server sent a reply larger than 8 MiB, this model's maxReplyBytes; not retried: raise maxReplyBytes/);
    }
  });

  it.each([
    ["pmiyc's client", chatModel],
    ['the AI SDK', sdkModel],
  ])('does not take a late duplicate reply, sent while the connection waits, for the next call (%s)', async (_path, modelAt) => {
    const { url } = await serve(({ socket, index, head }) => {
      if (index > 0) return void socket.write(rawResponse(completionFor(head, 'second')));
      socket.write(rawResponse(completionFor(head, REPLY)));
      setTimeout(() => socket.write(rawResponse(completionFor(head, 'duplicate'))), 20);
    });
    const model = modelAt(url);
    expect((await model.generate(request)).text).toBe(REPLY);
    await later(100);
    expect((await model.generate(request)).text).toBe('second');
    expect(server!.connections).toBe(2);
  });

  it.each([
    ["pmiyc's client", chatModel],
    ['the AI SDK', sdkModel],
  ])('does not take a duplicate reply that came in the same write as the first for the next call (%s)', async (_path, modelAt) => {
    const { url } = await serve(({ socket, index, head }) => {
      if (index > 0) return void socket.write(rawResponse(completionFor(head, 'second')));
      socket.write(rawResponse(completionFor(head, REPLY)) + rawResponse(completionFor(head, 'duplicate')));
    });
    const model = modelAt(url);
    expect((await model.generate(request)).text).toBe(REPLY);
    expect((await model.generate(request)).text).toBe('second');
  });

  it('fails retryably when the connection closes in the middle of the body, saying so, on both adapters', async () => {
    const { url } = await serve(({ socket }) => socket.end(rawResponse(COMPLETION).slice(0, -40)));
    for (const model of [chatModel(url), sdkModel(url)]) {
      const error = await failureOf(model.generate(request));
      expect(error).toMatchObject({ reason: 'api', retryable: true });
      expect(error.message).toMatch(new RegExp(`^${model.name}: ${url} closed the connection before its reply was complete`));
    }
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

  it('says it cannot reach a server that refuses the connection, on both adapters', async () => {
    const { url } = await serve(() => {});
    await server!.close();
    server = undefined;
    const error = await failureOf(chatModel(url).generate(request));
    expect(error).toMatchObject({ reason: 'api', retryable: true });
    expect(error.message).toMatch(new RegExp(`^local/m: cannot reach ${url}/v1/chat/completions \\(.*ECONNREFUSED`));
    const sdkError = await failureOf(sdkModel(url).generate(request));
    expect(sdkError).toMatchObject({ reason: 'api', retryable: true });
    expect(sdkError.message).toMatch(new RegExp(`^local/claude: cannot reach ${url}/v1/messages \\(.*ECONNREFUSED`));
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
