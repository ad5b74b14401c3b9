import type { Dispatcher, Pool } from 'undici';
import { TransportFailure, type TransportFailureKind } from './transport-failure.js';

/** One request: where, how, and for how long. */
export interface HttpExchange {
  readonly method: 'GET' | 'POST';
  readonly url: URL;
  /** Checked by the caller; a `host` among them replaces the URL's. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  /** The whole exchange's time, from the call to the body's last byte; the transport's `timeoutMs` unless given. */
  readonly timeoutMs?: number;
  /** Told after each piece of the body: the answer's status, the bytes so far and the Content-Length if any. */
  readonly onBody?: (progress: BodyProgress) => void;
}

export interface BodyProgress {
  readonly statusCode: number;
  readonly receivedBytes: number;
  readonly totalBytes?: number;
}

/** A complete answer, whatever its status: headers in lower case (repeated ones joined with ", "), and the body. */
export interface HttpAnswer {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** An exchange under way: its answer, and a way to give up on it. */
export interface HttpCall {
  /** Rejects with a TransportFailure, or with the reason given to `cancel`. */
  readonly answer: Promise<HttpAnswer>;
  /** Gives up (a caller's abort): `answer` rejects with `reason` at once and the request's connection is closed. No effect once settled. */
  cancel(reason: unknown): void;
}

export interface HttpTransportOptions {
  /** An exchange's time unless it gives its own; also bounds connecting (at most 10 s). */
  readonly timeoutMs: number;
  /** The largest body read, in bytes: past it the exchange fails (`too-large`) and its connection is closed. */
  readonly maxResponseBytes: number;
  /** PEM certificates to trust for https beyond the system's (a private CA). */
  readonly ca?: string;
}

/** Status line and headers: far more than any API sends (node's default is 16 KiB). */
const MAX_HEADER_BYTES = 64 * 1024;
/** A server that has not accepted the connection by then is not going to. */
const MAX_CONNECT_MS = 10_000;
/** An idle connection is kept this long when the server announces no idle time of its own (undici's default). */
const KEEP_ALIVE_MS = 4_000;
/** A connection is not reused within this of the idle time the server announced (`Keep-Alive: timeout=N`), as node's agent does. */
const KEEP_ALIVE_MARGIN_MS = 1_000;

type Undici = typeof import('undici');
let undici: Undici | undefined;
let loadingUndici: Promise<Undici> | undefined;

/** undici, loaded on the first exchange: ~25 ms that the commands making no HTTP call do not pay. */
function loadUndici(): Promise<Undici> {
  loadingUndici ??= import('undici').then((module) => (undici = module));
  return loadingUndici;
}

/**
 * Every HTTP request pmiyc sends itself (the OpenAI-compatible chat path, the batch services, the
 * data downloads) goes through a transport: undici's HTTP/1.1 parser and connection pools, with
 * pmiyc's limits (docs/design/model-layer.md, "The HTTP transport"). One keep-alive pool per origin,
 * as many connections as requests in flight (pmiyc's limiters bound those), one request at a time on
 * each. An answer comes whole; a failure below HTTP's status codes rejects with a TransportFailure
 * saying which kind it is. Idle connections never keep the process alive.
 */
export class HttpTransport {
  private readonly pools = new Map<string, Pool>();

  constructor(private readonly options: HttpTransportOptions) {}

  request(exchange: HttpExchange): HttpCall {
    let handler: ExchangeHandler | undefined;
    let cancelled: { reason: unknown } | undefined;
    const answer = new Promise<HttpAnswer>((resolve, reject) => {
      const start = () => {
        if (cancelled) return reject(cancelled.reason);
        handler = new ExchangeHandler(exchange, exchange.timeoutMs ?? this.options.timeoutMs, this.options.maxResponseBytes, resolve, reject);
        this.poolFor(exchange.url).dispatch(handler.options(), handler);
      };
      if (undici) start();
      else loadUndici().then(start, reject);
    });
    const cancel = (reason: unknown) => {
      if (handler) handler.giveUp(reason);
      else cancelled ??= { reason };
    };
    return { answer, cancel };
  }

  /** Closes every connection (tests; a process lets idle ones go by itself). */
  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.destroy()));
  }

  private poolFor(url: URL): Pool {
    let pool = this.pools.get(url.origin);
    if (pool === undefined) {
      pool = new undici!.Pool(url.origin, {
        connections: null,
        pipelining: 1,
        allowH2: false,
        maxResponseSize: this.options.maxResponseBytes,
        maxHeaderSize: MAX_HEADER_BYTES,
        keepAliveTimeout: KEEP_ALIVE_MS,
        keepAliveTimeoutThreshold: KEEP_ALIVE_MARGIN_MS,
        connect: { timeout: Math.min(MAX_CONNECT_MS, this.options.timeoutMs), ...(this.options.ca === undefined ? {} : { ca: this.options.ca }) },
      });
      this.pools.set(url.origin, pool);
    }
    return pool;
  }
}

/**
 * One exchange as undici reports it. Settles once: with the answer, with the first failure, or when
 * the caller gives up (its time, a cancel), which also aborts the request and so closes its connection.
 */
class ExchangeHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  /** Why the caller gave up, if it did before undici started the request. */
  private givenUp: Error | undefined;
  /** The request was handed to a connection: a failure after this is not "cannot reach". */
  private sent = false;
  private settled = false;
  private statusCode = 0;
  private headers: Record<string, string> = {};
  private totalBytes: number | undefined;
  private receivedBytes = 0;
  private readonly chunks: Buffer[] = [];
  private readonly timer: ReturnType<typeof setTimeout>;

  constructor(
    private readonly exchange: HttpExchange,
    private readonly timeoutMs: number,
    private readonly maxResponseBytes: number,
    private readonly resolve: (answer: HttpAnswer) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.timer = setTimeout(() => this.giveUp(this.failure('timeout', `no reply within ${timeoutMs} ms`, { limit: timeoutMs })), timeoutMs);
  }

  /** What undici sends: the path, the method, the headers and body, and the exchange's time for headers and between body pieces. */
  options(): Dispatcher.DispatchOptions {
    const { url, method, headers, body } = this.exchange;
    return { path: `${url.pathname}${url.search}`, method, headers, body: body ?? null, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs };
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.sent = true;
    if (this.givenUp) controller.abort(this.givenUp);
    else this.controller = controller;
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    if (statusCode < 200) return; // 103 Early Hints and the like: the real answer follows.
    this.statusCode = statusCode;
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
    this.headers = flat;
    const length = Number(flat['content-length']);
    this.totalBytes = Number.isSafeInteger(length) && length > 0 ? length : undefined;
    // A body announced past the limit, however many digits its length has, is refused now: undici
    // would read up to the limit first, or wait out the time for a body that never comes.
    if (length > this.maxResponseBytes) this.giveUp(this.tooLarge(`its Content-Length is ${flat['content-length']} bytes`));
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
    this.receivedBytes += chunk.length;
    const { statusCode, receivedBytes, totalBytes } = this;
    this.exchange.onBody?.({ statusCode, receivedBytes, ...(totalBytes === undefined ? {} : { totalBytes }) });
  }

  onResponseEnd(): void {
    if (!this.settle()) return;
    const body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.resolve({ statusCode: this.statusCode, headers: this.headers, body });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.settle()) this.reject(this.classify(error));
  }

  /** The caller stops waiting: the answer rejects now; the request is aborted now, or as soon as undici starts it. */
  giveUp(reason: unknown): void {
    if (!this.settle()) return;
    this.reject(reason);
    this.givenUp = reason instanceof Error ? reason : new Error(String(reason));
    this.controller?.abort(this.givenUp);
  }

  /** True the first time: the timer ends, and the caller is answered once. */
  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    clearTimeout(this.timer);
    return true;
  }

  private failure(kind: TransportFailureKind, message: string, details: { limit?: number; code?: string; cause?: unknown } = {}): TransportFailure {
    return new TransportFailure(kind, this.exchange.url, message, details);
  }

  /** The body is past the limit: undici stopped reading it (its error given), or its Content-Length says it would be. */
  private tooLarge(message: string, cause?: Error & { code?: string }): TransportFailure {
    const code = cause?.code;
    return this.failure('too-large', message, {
      limit: this.maxResponseBytes,
      ...(code === undefined ? {} : { code }),
      ...(cause === undefined ? {} : { cause }),
    });
  }

  /** The kind of an undici failure, by its code (undici's UND_ERR_* or the system's) or, for the parser's, its class. */
  private classify(error: Error & { code?: unknown }): TransportFailure {
    const code = typeof error.code === 'string' ? error.code : undefined;
    const failure = (kind: TransportFailureKind, message: string, limit?: number) =>
      this.failure(kind, message, { cause: error, ...(code === undefined ? {} : { code }), ...(limit === undefined ? {} : { limit }) });
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
      return failure('timeout', `no reply within ${this.timeoutMs} ms`, this.timeoutMs);
    if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return this.tooLarge(`more than ${this.maxResponseBytes} bytes`, error as Error & { code?: string });
    // llhttp's errors: the bytes are not HTTP/1.1 (undici leaves their code unset; the class has a marker).
    if (error instanceof undici!.errors.HTTPParserError) return failure('malformed', parserProblem(error.message));
    if (code === 'UND_ERR_HEADERS_OVERFLOW')
      return failure('head-too-large', `its status line and headers are longer than ${MAX_HEADER_BYTES} bytes`, MAX_HEADER_BYTES);
    // undici says this both for a body cut short by the server closing and for a parser error in a
    // reply with a Content-Length (two different ones, say): the body does not match its length in both.
    if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return failure('malformed', 'its body does not match its Content-Length');
    // undici's SocketError says "bad response" to a request answered by a 100 Continue it did not ask
    // for, and "bad upgrade" to one answered by a protocol switch; its other SocketErrors are closes.
    if (code === 'UND_ERR_SOCKET' && error.message === 'bad response') return failure('malformed', 'a 100 Continue nothing asked for');
    if (code === 'UND_ERR_SOCKET' && error.message === 'bad upgrade') return failure('malformed', 'a switch of protocols nothing asked for');
    return failure(this.sent ? 'closed' : 'unreachable', error.message || code || error.name);
  }
}

/** What llhttp found wrong, without undici's "Response does not match the HTTP/1.1 protocol" around it. */
function parserProblem(message: string): string {
  return /^Response does not match the HTTP\/1\.1 protocol \((.+)\)$/s.exec(message)?.[1] ?? message;
}
