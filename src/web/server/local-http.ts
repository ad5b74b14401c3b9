import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InputError } from '../../domain/errors/input-error.js';

/** The address pmiyc's servers listen on unless told otherwise (`pmiyc people serve --host`): what they serve is for this machine only. */
export const LOCAL_HOST = '127.0.0.1';

/** Headers of every response of a local server: no sniffing, caching, framing, referrers or cross-origin reads. */
export const COMMON_HEADERS = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? null : value));
  response
    .writeHead(status, {
      ...COMMON_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'content-security-policy': "default-src 'none'",
      'content-length': Buffer.byteLength(text),
    })
    .end(text);
}

export function sendHtml(response: ServerResponse, page: string, policy: string): void {
  response
    .writeHead(200, {
      ...COMMON_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': policy,
      'content-length': Buffer.byteLength(page),
    })
    .end(page);
}

/**
 * Whether a Host header (or an Origin without its scheme) names this server: 127.0.0.1 or
 * localhost on its port. Anything else is another site reaching it, e.g. through DNS rebinding.
 */
export function isOwnHost(host: string | undefined, port: number, alsoKnownAs: readonly string[] = []): boolean {
  return host === `${LOCAL_HOST}:${port}` || host === `localhost:${port}` || (host !== undefined && alsoKnownAs.includes(host));
}

/** A page's Content-Security-Policy: only its own inline style and script (by nonce), requests only to its server. */
export function pagePolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * A plain node:http server on 127.0.0.1 (or the host a command was explicitly given). A port in use is a usage error that says what to do; a
 * handler that throws answers 500 with the message (once nothing else has been sent).
 */
export class LocalHttpServer {
  private constructor(
    private readonly server: Server,
    readonly host: string,
  ) {}

  static async start(
    port: number,
    handle: (request: IncomingMessage, response: ServerResponse) => void | Promise<void>,
    host: string = LOCAL_HOST,
  ): Promise<LocalHttpServer> {
    const server = createServer();
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const fail = (error: unknown) => {
        if (!response.headersSent) sendJson(response, 500, { error: error instanceof Error ? error.message : String(error) });
      };
      try {
        Promise.resolve(handle(request, response)).catch(fail);
      } catch (error) {
        fail(error);
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'EADDRINUSE'
            ? new InputError(`port ${port} on ${host} is in use: pass --port with another number (0 picks a free one)`)
            : error.code === 'EADDRNOTAVAIL'
              ? new InputError(`${host} is not an address of this machine: pass --host with one of its addresses`)
              : error,
        ),
      );
      server.listen(port, host, () => resolve());
    });
    return new LocalHttpServer(server, host);
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://${this.host.includes(':') ? `[${this.host}]` : this.host}:${this.port}/`;
  }

  /** Stops accepting and drops open connections. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }
}
