import { createRequire } from 'node:module';
import type * as Net from 'node:net';
import type * as Tls from 'node:tls';
import { isFramingHeader, isHeaderName, isHeaderValue } from './http-headers.js';
import { type Http1Response, Http1ResponseParser } from './http1-response.js';

// node:tls is loaded only when a URL is https; node:net the same way, for one style.
const require = createRequire(import.meta.url);
const net = require('node:net') as typeof Net;

/** One request in flight: its response, and a way to give up on it. */
export interface Http1Exchange {
  readonly response: Promise<Http1Response>;
  /** Gives up: the connection is closed and the response fails, unless it has already come. */
  cancel(): void;
}

/** What the connections of one origin need: where to connect, and for https, what to trust beyond the system's CAs. */
export interface Http1Origin {
  readonly url: URL;
  /** PEM certificates to trust for https (a private CA); the system's are used otherwise. */
  readonly ca?: string;
}

/**
 * Header lines for a request, checked: a name HTTP does not allow, a value that is not one line of
 * printable ASCII, or a header that frames the body (set by the client for each request) is refused here.
 */
export function headerLines(headers: Readonly<Record<string, string>>): string {
  let lines = '';
  for (const [name, value] of Object.entries(headers)) {
    if (!isHeaderName(name)) throw new RangeError(`the header name ${JSON.stringify(name)} is not one HTTP allows`);
    if (isFramingHeader(name)) throw new RangeError(`the header ${name} is set by pmiyc for each request`);
    if (!isHeaderValue(value)) throw new RangeError(`the header ${name} has a line break or a character that is not printable ASCII in its value`);
    lines += `${name}: ${value}\r\n`;
  }
  return lines;
}

/** The request a connection carries now: its reader and where its response goes. */
interface Exchange {
  readonly parser: Http1ResponseParser;
  readonly resolve: (response: Http1Response) => void;
  readonly reject: (error: Error) => void;
}

/** A connection and the request it carries, if any; its socket's listeners are set once and read this. */
interface Connection {
  readonly socket: Net.Socket;
  exchange?: Exchange;
  /** Given up on, or failed: never reused. */
  closed: boolean;
  /** While it waits: when (on the clock of `now`) the server said it would close it, less a second. */
  reuseUntil: number;
}

/**
 * How long a server keeps an idle connection open, from `Keep-Alive: timeout=N` (seconds), less a
 * second so that a request never meets the server closing it; Infinity without a hint.
 */
function reuseWindowMs(keepAlive: string | undefined): number {
  const seconds = /(?:^|[,\s])timeout=(\d+)/i.exec(keepAlive ?? '')?.[1];
  return seconds === undefined ? Number.POSITIVE_INFINITY : (Number(seconds) - 1) * 1000;
}

/**
 * HTTP/1.1 POSTs to one origin over keep-alive connections, on plain sockets: node:http's request and
 * response streams cost more CPU per call than the rest of a call's path in pmiyc (docs/design/model-layer.md).
 * A connection carries one request at a time (no pipelining); after a complete, reusable response it
 * waits, unreferenced (it never keeps the process alive), for the next request. A connection the server
 * closes while it waits, or that receives anything then, is dropped, and so is one about to reach the
 * idle time the server announced (`Keep-Alive: timeout=N`, as node's agent does). Connections are opened
 * as needed: the caller limits how many calls are in flight.
 */
export class Http1Connections {
  private readonly idle: Connection[] = [];
  private readonly secure: boolean;
  private readonly host: string;
  private readonly port: number;
  /** `Host` and the fixed headers, ready to follow the request line. */
  private readonly fixedHead: string;

  constructor(
    private readonly origin: Http1Origin,
    headers: Readonly<Record<string, string>>,
    private readonly now: () => number = () => performance.now(),
  ) {
    const { url } = origin;
    this.secure = url.protocol === 'https:';
    this.host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    this.port = Number(url.port || (this.secure ? 443 : 80));
    // A Host among the headers (a server reached by its address, named otherwise) replaces the URL's.
    const givesHost = Object.keys(headers).some((name) => name.toLowerCase() === 'host');
    this.fixedHead = `${givesHost ? '' : `Host: ${url.host}\r\n`}${headerLines(headers)}`;
  }

  /** Sends `body` to `path` with POST; the response comes whole. */
  post(path: string, body: string): Http1Exchange {
    const connection = this.takeIdle() ?? this.connect();
    let exchange!: Exchange;
    const response = new Promise<Http1Response>((resolve, reject) => {
      exchange = { parser: new Http1ResponseParser(), resolve, reject };
    });
    connection.exchange = exchange;
    connection.socket.write(`POST ${path} HTTP/1.1\r\n${this.fixedHead}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    // Once answered, the connection may carry another request: giving up then changes nothing.
    const cancel = () => {
      if (connection.exchange === exchange) this.fail(connection, new Error('cancelled'));
    };
    return { response, cancel };
  }

  /** Closes every waiting connection (those in use close when their exchange ends). */
  close(): void {
    for (const connection of this.idle.splice(0)) this.fail(connection, new Error('closed'));
  }

  private connect(): Connection {
    const socket = this.secure
      ? (require('node:tls') as typeof Tls).connect({
          host: this.host,
          port: this.port,
          ...(net.isIP(this.host) === 0 ? { servername: this.host } : {}),
          ALPNProtocols: ['http/1.1'],
          ...(this.origin.ca === undefined ? {} : { ca: this.origin.ca }),
        })
      : net.connect({ host: this.host, port: this.port });
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 60_000);
    const connection: Connection = { socket, closed: false, reuseUntil: Number.POSITIVE_INFINITY };
    socket.on('data', (chunk: Buffer) => this.received(connection, chunk));
    socket.on('end', () => this.ended(connection));
    socket.on('error', (error: Error) => this.fail(connection, error));
    socket.on('close', () => this.fail(connection, new Error('the connection closed before the reply ended')));
    return connection;
  }

  private received(connection: Connection, chunk: Buffer): void {
    const exchange = connection.exchange;
    // Bytes while no request is out (a waiting connection): the connection is out of step; drop it.
    if (!exchange) {
      this.fail(connection, new Error('the server sent bytes while no request was out'));
      return;
    }
    let response: Http1Response | undefined;
    try {
      response = exchange.parser.push(chunk);
    } catch (error) {
      this.fail(connection, error as Error);
      return;
    }
    if (!response) return;
    connection.exchange = undefined;
    const window = reuseWindowMs(response.headers['keep-alive']);
    if (response.reusable && window > 0) this.release(connection, window);
    else this.fail(connection, new Error('not reusable'));
    exchange.resolve(response);
  }

  /** The server closed its side: the end of a body framed by the close, or a failure. */
  private ended(connection: Connection): void {
    const exchange = connection.exchange;
    if (!exchange) {
      this.fail(connection, new Error('closed while waiting'));
      return;
    }
    let response: Http1Response;
    try {
      response = exchange.parser.close();
    } catch (error) {
      this.fail(connection, error as Error);
      return;
    }
    connection.exchange = undefined;
    this.fail(connection, new Error('ended'));
    exchange.resolve(response);
  }

  /** Ends a connection for good; the request it carried, if any, fails with `error`. */
  private fail(connection: Connection, error: Error): void {
    const exchange = connection.exchange;
    connection.exchange = undefined;
    connection.closed = true;
    connection.socket.destroy();
    exchange?.reject(error);
  }

  /** A waiting connection still open (and not about to be closed by the server), taken out of the idle list. */
  private takeIdle(): Connection | undefined {
    const now = this.now();
    for (let connection = this.idle.pop(); connection !== undefined; connection = this.idle.pop()) {
      if (connection.closed || connection.socket.destroyed || !connection.socket.writable) continue;
      if (now > connection.reuseUntil) {
        this.fail(connection, new Error('expired'));
        continue;
      }
      connection.socket.ref();
      return connection;
    }
    return undefined;
  }

  private release(connection: Connection, windowMs: number): void {
    connection.reuseUntil = this.now() + windowMs;
    connection.socket.unref();
    this.idle.push(connection);
  }
}
