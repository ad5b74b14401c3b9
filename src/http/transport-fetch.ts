import type { HttpAnswer, HttpTransport } from './http-transport.js';
import { TransportFailure } from './transport-failure.js';

/** Statuses whose answer has no body: a Response refuses one. */
const NO_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * A `fetch` on a transport, for the AI SDK's providers: their requests then go through the same
 * undici pools, size limit, header limit and parser as pmiyc's own (docs/design/model-layer.md, "The
 * HTTP transport"), instead of the global fetch, which reads a body of any size. It takes what the
 * SDK sends (a URL, GET or POST, headers, a text or byte body, a signal) and answers with the whole
 * body read. A failure below HTTP's status codes rejects with the transport's TransportFailure (the
 * SDK may wrap it as the cause of its own error); an abort rejects with the signal's reason.
 */
export function transportFetch(transport: HttpTransport): typeof globalThis.fetch {
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'POST') throw new TypeError(`transportFetch sends GET and POST, not ${method}`);
    const body = init.body ?? undefined;
    if (input instanceof Request || (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array))) {
      throw new TypeError('transportFetch takes a URL and a text or byte body');
    }
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    const call = transport.request({
      method,
      url,
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength) }),
    });
    const cancel = () => call.cancel(signal?.reason);
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      return responseOf(await call.answer, url);
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  };
}

function responseOf(answer: HttpAnswer, url: URL): Response {
  try {
    return new Response(NO_BODY_STATUSES.has(answer.statusCode) ? null : answer.body, { status: answer.statusCode, headers: answer.headers });
  } catch (error) {
    // A status or header value that the parser let through and the Fetch standard does not.
    throw new TransportFailure('malformed', url, `its status or headers are not ones fetch allows (${(error as Error).message})`, { cause: error });
  }
}

/** The transport's failure behind an error: the error itself, or one of its causes (the AI SDK wraps what fetch throws). */
export function transportFailureIn(error: unknown): TransportFailure | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; current = current.cause, depth++) {
    if (current instanceof TransportFailure) return current;
  }
  return undefined;
}
