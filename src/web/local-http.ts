import type { Server, ServerResponse } from 'node:http';
import { InputError } from '../domain/input-error.js';

/** The only address pmiyc's local servers listen on: what they serve is for this machine only. */
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
export function isOwnHost(host: string | undefined, port: number): boolean {
  return host === `${LOCAL_HOST}:${port}` || host === `localhost:${port}`;
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

/** Listens on 127.0.0.1; a port in use is a usage error that says what to do. */
export function listenLocally(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' ? new InputError(`port ${port} on ${LOCAL_HOST} is in use: pass --port with another number (0 picks a free one)`) : error,
      ),
    );
    server.listen(port, LOCAL_HOST, () => resolve());
  });
}
