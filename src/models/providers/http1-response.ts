import { isHeaderName } from './http-headers.js';

/** A server's answer to one request: status, headers (names in lower case, repeated ones joined with ", ") and body. */
export interface Http1Response {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** The connection may carry the next request (HTTP/1.1, no `Connection: close`, the body's end known from its framing). */
  readonly reusable: boolean;
}

/** The server's bytes are not an HTTP/1.1 response pmiyc can read. */
class Http1ProtocolError extends Error {
  override readonly name = 'Http1ProtocolError';
}

/** Longest status line and headers accepted: far more than any API sends. */
const MAX_HEAD_BYTES = 64 * 1024;
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: [^\r\n]*)?$/;
const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');

type Framing = { readonly kind: 'length'; remaining: number } | { readonly kind: 'chunked' } | { readonly kind: 'until-close' };

/**
 * Reads one HTTP/1.1 response from a connection's bytes as they come (`push` each chunk; `close` when
 * the server closes): the head, informational (1xx) answers skipped, then a body framed by
 * Content-Length, by chunked transfer coding (extensions and trailers read and dropped) or by the
 * connection's end. Strict where a lenient reader could be fooled: CRLF line ends only, no folded
 * headers, one Content-Length. Pure: no I/O.
 */
export class Http1ResponseParser {
  private pending: Buffer = Buffer.alloc(0);
  private head?: { status: number; headers: Record<string, string>; reusable: boolean };
  private framing?: Framing;
  private readonly parts: Buffer[] = [];
  /** In a chunked body: the bytes of the current chunk still to come, then its CRLF. */
  private chunkLeft = -1;
  private inTrailers = false;
  private result?: Http1Response;

  /** Takes the next bytes; returns the response once it is complete (and after that, ignores nothing: more bytes are an error). */
  push(chunk: Buffer): Http1Response | undefined {
    if (this.result) throw new Http1ProtocolError('the server sent bytes after its reply');
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    this.advance();
    if (this.result && this.pending.length > 0) throw new Http1ProtocolError('the server sent bytes after its reply');
    return this.result;
  }

  /** The server closed the connection: the response if it was complete or ended by the close, else an error. */
  close(): Http1Response {
    if (this.result) return this.result;
    if (this.head && this.framing?.kind === 'until-close') {
      this.parts.push(this.pending);
      this.pending = Buffer.alloc(0);
      return this.complete(false);
    }
    throw new Http1ProtocolError(this.head ? 'the connection closed before the reply ended' : 'the connection closed before a reply');
  }

  private advance(): void {
    for (;;) {
      if (!this.head) {
        if (!this.readHead()) return;
        continue;
      }
      const framing = this.framing!;
      if (framing.kind === 'until-close') {
        this.parts.push(this.pending);
        this.pending = Buffer.alloc(0);
        return;
      }
      if (framing.kind === 'length') {
        const taken = Math.min(framing.remaining, this.pending.length);
        this.parts.push(this.pending.subarray(0, taken));
        this.pending = this.pending.subarray(taken);
        framing.remaining -= taken;
        if (framing.remaining === 0) this.complete(this.head.reusable);
        return;
      }
      this.readChunked();
      return;
    }
  }

  /** Reads the head when it has all come; skips a 1xx answer. False when more bytes are needed. */
  private readHead(): boolean {
    const end = this.pending.indexOf(HEAD_END);
    if (end < 0) {
      if (this.pending.length > MAX_HEAD_BYTES) throw new Http1ProtocolError(`the reply's headers are longer than ${MAX_HEAD_BYTES} bytes`);
      return false;
    }
    if (end > MAX_HEAD_BYTES) throw new Http1ProtocolError(`the reply's headers are longer than ${MAX_HEAD_BYTES} bytes`);
    const lines = this.pending.toString('latin1', 0, end).split('\r\n');
    this.pending = this.pending.subarray(end + HEAD_END.length);
    const statusLine = STATUS_LINE.exec(lines[0]!);
    if (!statusLine) throw new Http1ProtocolError(`not an HTTP/1.x status line: ${JSON.stringify(lines[0]!.slice(0, 80))}`);
    const status = Number(statusLine[2]);
    const fields = new Map<string, string>();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, Math.max(colon, 0)).toLowerCase();
      if (!isHeaderName(name) || /[\r\n\0]/.test(line)) throw new Http1ProtocolError(`a malformed header line: ${JSON.stringify(line.slice(0, 80))}`);
      const value = line.slice(colon + 1).trim();
      const earlier = fields.get(name);
      fields.set(name, earlier === undefined ? value : `${earlier}, ${value}`);
    }
    // Own properties only, whatever the names (a header called __proto__ stays a header).
    const headers: Record<string, string> = Object.fromEntries(fields);
    if (status >= 100 && status < 200) {
      if (status === 101) throw new Http1ProtocolError('the server switched protocols');
      return true; // An informational answer (100 Continue, 103 Early Hints): the real one follows.
    }
    const keepAlive = statusLine[1] === '1' && !/(?:^|,)\s*close\s*(?:,|$)/i.test(headers['connection'] ?? '');
    this.head = { status, headers, reusable: keepAlive };
    this.framing = this.framingOf(status, headers);
    return true;
  }

  private framingOf(status: number, headers: Record<string, string>): Framing {
    if (status === 204 || status === 304) return { kind: 'length', remaining: 0 };
    const coding = headers['transfer-encoding'];
    if (coding !== undefined) {
      // RFC 9112 6.3: with a transfer coding, Content-Length is ignored; a body not chunked last ends with the connection.
      const codings = coding.split(',').map((entry) => entry.trim().toLowerCase());
      if (codings.at(-1) === 'chunked') return { kind: 'chunked' };
      this.head!.reusable = false;
      return { kind: 'until-close' };
    }
    const length = headers['content-length'];
    if (length !== undefined) {
      const values = new Set(length.split(',').map((entry) => entry.trim()));
      const [only] = values;
      if (values.size !== 1 || !/^\d{1,15}$/.test(only!)) throw new Http1ProtocolError(`an unreadable Content-Length: ${JSON.stringify(length.slice(0, 40))}`);
      return { kind: 'length', remaining: Number(only) };
    }
    this.head!.reusable = false;
    return { kind: 'until-close' };
  }

  /** Reads the chunks that have come, then the trailers, completing the response at their end. */
  private readChunked(): void {
    for (;;) {
      if (this.inTrailers) {
        const end = this.pending.indexOf(CRLF);
        if (end < 0) {
          if (this.pending.length > MAX_HEAD_BYTES) throw new Http1ProtocolError('a trailer line without an end');
          return;
        }
        this.pending = this.pending.subarray(end + CRLF.length);
        if (end === 0) {
          this.complete(this.head!.reusable);
          return;
        }
        continue;
      }
      if (this.chunkLeft < 0) {
        const end = this.pending.indexOf(CRLF);
        if (end < 0) {
          if (this.pending.length > MAX_HEAD_BYTES) throw new Http1ProtocolError('a chunk size line without an end');
          return;
        }
        const size = this.pending.toString('latin1', 0, end).split(';')[0]!.trim();
        if (!/^[0-9a-fA-F]{1,12}$/.test(size)) throw new Http1ProtocolError(`an unreadable chunk size: ${JSON.stringify(size.slice(0, 20))}`);
        this.pending = this.pending.subarray(end + CRLF.length);
        this.chunkLeft = Number.parseInt(size, 16);
        if (this.chunkLeft === 0) {
          this.inTrailers = true;
          this.chunkLeft = -1;
        }
        continue;
      }
      if (this.chunkLeft > 0) {
        const taken = Math.min(this.chunkLeft, this.pending.length);
        this.parts.push(this.pending.subarray(0, taken));
        this.pending = this.pending.subarray(taken);
        this.chunkLeft -= taken;
        if (this.chunkLeft > 0) return;
      }
      if (this.pending.length < CRLF.length) return;
      if (this.pending[0] !== 13 || this.pending[1] !== 10) throw new Http1ProtocolError('a chunk not followed by CRLF');
      this.pending = this.pending.subarray(CRLF.length);
      this.chunkLeft = -1;
    }
  }

  private complete(reusable: boolean): Http1Response {
    const { status, headers } = this.head!;
    this.result = { status, headers, body: this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts), reusable };
    return this.result;
  }
}
