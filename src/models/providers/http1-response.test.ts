import { describe, expect, it } from 'vitest';
import { type Http1Response, Http1ResponseParser } from './http1-response.js';

const BODY = '{"choices":[{"message":{"content":"Fair point. \\u00e9t\\u00e9 — ok"}}]}';

/** Feeds `wire` in pieces cut at `cuts`, then (when `close`) the connection's end; the response, or what was thrown. */
function parse(wire: string | Buffer, cuts: readonly number[] = [], close = false): Http1Response {
  const bytes = typeof wire === 'string' ? Buffer.from(wire, 'utf8') : wire;
  const parser = new Http1ResponseParser();
  let response: Http1Response | undefined;
  let from = 0;
  for (const at of [...cuts, bytes.length]) {
    if (at > from) response = parser.push(bytes.subarray(from, at)) ?? response;
    from = at;
  }
  if (close) return parser.close();
  if (!response) throw new Error('incomplete');
  return response;
}

/** The same wire cut in two at every byte: a reader must not depend on where TCP splits it. */
function everySplit(wire: string, close = false): Http1Response[] {
  const length = Buffer.byteLength(wire);
  return Array.from({ length: length - 1 }, (_, at) => parse(wire, [at + 1], close));
}

const lengthFramed = `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(BODY)}\r\n\r\n${BODY}`;
const chunkSizes = (text: string) => {
  const bytes = Buffer.from(text);
  return `${(20).toString(16)};name=value\r\n${bytes.subarray(0, 20).toString('latin1')}\r\n${(bytes.length - 20).toString(16)}\r\n${bytes.subarray(20).toString('latin1')}\r\n0\r\nX-Trailer: t\r\n\r\n`;
};
const chunked = Buffer.concat([
  Buffer.from('HTTP/1.1 429 Too Many Requests\r\nTransfer-Encoding: chunked\r\nRetry-After: 2\r\n\r\n'),
  Buffer.from(chunkSizes(BODY), 'latin1'),
]);

describe('Http1ResponseParser', () => {
  it('reads a body framed by Content-Length, however the bytes are split', () => {
    const whole = parse(lengthFramed);
    expect(whole).toMatchObject({ status: 200, reusable: true, headers: { 'content-type': 'application/json' } });
    expect(whole.body.toString('utf8')).toBe(BODY);
    for (const response of everySplit(lengthFramed)) expect(response).toEqual(whole);
  });

  it('reads a chunked body with chunk extensions and trailers, however the bytes are split', () => {
    const whole = parse(chunked);
    expect(whole).toMatchObject({ status: 429, reusable: true, headers: { 'retry-after': '2' } });
    expect(whole.body.toString('utf8')).toBe(BODY);
    for (let at = 1; at < chunked.length; at++) expect(parse(chunked, [at])).toEqual(whole);
    expect(
      parse(
        chunked,
        Array.from({ length: chunked.length - 1 }, (_, at) => at + 1),
      ),
    ).toEqual(whole);
  });

  it('reads a body that ends with the connection, which is then not reused', () => {
    const wire = `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n${BODY}`;
    const response = parse(wire, [], true);
    expect(response).toMatchObject({ status: 200, reusable: false });
    expect(response.body.toString('utf8')).toBe(BODY);
    for (const split of everySplit(wire, true)) expect(split).toEqual(response);
  });

  it('skips informational answers before the real one', () => {
    const response = parse(`HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n${lengthFramed}`);
    expect(response.status).toBe(200);
    expect(response.headers).not.toHaveProperty('link');
  });

  it('joins repeated headers, lower-cases names, and keeps any name as a plain header', () => {
    const response = parse('HTTP/1.1 204 No Content\r\nX-A: 1\r\nx-a: 2\r\n__proto__: p\r\nConstructor: c\r\n\r\n');
    expect(response.headers['x-a']).toBe('1, 2');
    expect(Object.hasOwn(response.headers, '__proto__')).toBe(true);
    expect(response.headers['constructor']).toBe('c');
    expect(Object.getPrototypeOf(response.headers)).toBe(Object.prototype);
    expect(response.body.length).toBe(0);
  });

  it('does not reuse a connection the server closes, or an HTTP/1.0 one', () => {
    expect(parse(`HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok`).reusable).toBe(false);
    expect(parse(`HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok`).reusable).toBe(false);
    expect(parse(`HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok`).reusable).toBe(true);
  });

  it('lets a transfer coding win over Content-Length', () => {
    const wire = `HTTP/1.1 200 OK\r\nContent-Length: 999\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n`;
    expect(parse(wire).body.toString()).toBe('ok');
  });

  it.each([
    ['a status line that is not HTTP/1.x', 'HTTP/2 200\r\n\r\n', /not an HTTP\/1.x status line/],
    ['a folded header', 'HTTP/1.1 200 OK\r\nX-A: 1\r\n  more\r\nContent-Length: 0\r\n\r\n', /malformed header line/],
    ['a header line without a colon', 'HTTP/1.1 200 OK\r\nnonsense\r\n\r\n', /malformed header line/],
    ['a bare LF inside the head', 'HTTP/1.1 200 OK\r\nX-A: 1\nX-B: 2\r\nContent-Length: 0\r\n\r\n', /malformed header line/],
    ['two different lengths', 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok', /unreadable Content-Length/],
    ['a negative length', 'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n', /unreadable Content-Length/],
    ['a chunk size that is not hex', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nok\r\n0\r\n\r\n', /unreadable chunk size/],
    ['a chunk longer than its size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nok\r\n0\r\n\r\n', /chunk not followed by CRLF/],
    ['a protocol switch', 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n', /switched protocols/],
    ['bytes after the reply', 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA', /bytes after its reply/],
  ])('refuses %s', (_name, wire, message) => {
    expect(() => parse(wire)).toThrow(message);
  });

  it('refuses a head longer than 64 KB without waiting for its end', () => {
    const parser = new Http1ResponseParser();
    parser.push(Buffer.from('HTTP/1.1 200 OK\r\n'));
    expect(() => parser.push(Buffer.from(`X-Long: ${'a'.repeat(70_000)}`))).toThrow(/longer than 65536 bytes/);
  });

  it('says when the connection closed before the reply, or in its middle', () => {
    expect(() => parse('', [], true)).toThrow(/closed before a reply/);
    expect(() => parse('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc', [], true)).toThrow(/closed before the reply ended/);
    expect(() => parse('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab', [], true)).toThrow(/closed before the reply ended/);
  });
});
