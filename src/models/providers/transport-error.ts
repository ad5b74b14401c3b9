import type { TransportFailure } from '../../http/transport-failure.js';
import { ModelCallError } from '../model-call-error.js';
import type { ModelSecret } from '../model-secrets.js';
import { serverText } from './server-text.js';

/** Who asked, for the message and the typed error's fields. */
export interface TransportCaller {
  readonly name: string;
  readonly provider: string;
  readonly model: string;
  /** The model's key and header values, replaced wherever the failure's detail repeats them. */
  readonly secrets: readonly ModelSecret[];
}

/** How the message names the other side and, for the limits, the setting behind them. */
export interface TransportWording {
  /** "server", "batch service". */
  readonly peer: string;
  /** What the time limit is, e.g. "timeoutMs". */
  readonly timeoutSetting: string;
  /** What to do about a reply past the size limit, e.g. ": set a smaller batch size". */
  readonly tooLargeRemedy?: string;
}

const mebibytes = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;

/**
 * The ModelCallError a transport failure stands for, reason `api` and no status code. Every kind but
 * `too-large` is retryable: a connection refused or lost, a reply mangled or late may go through on
 * the next try, as after a 5xx. A reply past the size limit is not one the same request would stop
 * getting, and asking again pays for it again. The detail (what undici or the system said) goes
 * through `serverText`, and the failure is not kept as the cause: a parser's error holds the bytes
 * the server sent.
 */
export function transportFailureToModelCallError(failure: TransportFailure, caller: TransportCaller, wording: TransportWording): ModelCallError {
  const { name } = caller;
  const detail = serverText(failure.message, caller.secrets);
  const { origin, pathname } = failure.url;
  const limit = failure.details.limit ?? 0;
  const message = {
    unreachable: () => `${name}: cannot reach ${origin}${pathname} (${detail})`,
    closed: () => `${name}: ${origin} closed the connection before its reply was complete (${detail})`,
    malformed: () => `${name}: the ${wording.peer} sent a reply pmiyc cannot read (${detail})`,
    'too-large': () => `${name}: the ${wording.peer} sent a reply larger than ${mebibytes(limit)}, the most pmiyc reads from it${wording.tooLargeRemedy ?? ''}`,
    timeout: () => `${name}: no reply within ${limit} ms (${wording.timeoutSetting})`,
  }[failure.kind]();
  const fields = { provider: caller.provider, model: caller.model, reason: 'api' as const, retryable: failure.kind !== 'too-large' };
  return new ModelCallError(message, fields);
}
