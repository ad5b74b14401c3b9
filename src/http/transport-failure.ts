/**
 * What went wrong below HTTP's status codes:
 * - `unreachable`: no connection (refused, no such host, connect timeout, a certificate not trusted);
 * - `closed`: the connection ended before the reply was complete;
 * - `malformed`: the bytes are not an HTTP/1.1 reply (a garbage status line, bare LF line ends, a
 *   malformed chunk, a body that does not match its Content-Length, an unrequested protocol switch
 *   or 100 Continue);
 * - `too-large`: the body went past the transport's limit, or its Content-Length says it would;
 * - `head-too-large`: the status line and headers went past their limit (64 KiB);
 * - `timeout`: no complete reply within the exchange's time.
 */
export type TransportFailureKind = 'unreachable' | 'closed' | 'malformed' | 'too-large' | 'head-too-large' | 'timeout';

/** An HTTP exchange that produced no answer; `message` is the detail (what the library or the system said). */
export class TransportFailure extends Error {
  override readonly name = 'TransportFailure';

  constructor(
    readonly kind: TransportFailureKind,
    /** Where the request went. */
    readonly url: URL,
    message: string,
    readonly details: {
      /** For `too-large` and `head-too-large`: the limit in bytes; for `timeout`: the time given, in ms. */
      readonly limit?: number;
      /** The system's or undici's code, when there is one (ECONNREFUSED, UND_ERR_SOCKET, ...). */
      readonly code?: string;
      readonly cause?: unknown;
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }
}
