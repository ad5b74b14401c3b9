import { isModelCallError } from './model-call-error.js';

/**
 * Why every call of a model would fail the same way until someone changes something outside the run:
 * - `unreachable`: no connection could be made to its server (refused, no such host, connect timeout,
 *   a certificate not trusted);
 * - `credentials`: the server refused the key (401, 403);
 * - `no-such-model`: the server has no such model or path (404).
 * A 5xx, a 429, a timeout or a connection lost mid-reply are not lasting: the next call may well go through.
 */
export type LastingCause = 'unreachable' | 'credentials' | 'no-such-model';

/** The lasting cause of a failed call, read from the error's typed fields (never its message); undefined: none. */
export function lastingCauseOf(error: unknown): LastingCause | undefined {
  if (!isModelCallError(error)) return undefined;
  if (error.transportFailure === 'unreachable') return 'unreachable';
  if (error.statusCode === 401 || error.statusCode === 403) return 'credentials';
  if (error.statusCode === 404) return 'no-such-model';
  return undefined;
}
