import type { TransportFailure } from '../../../http/transport-failure.js';
import { ModelCallError } from '../../model-call-error.js';
import type { ModelSecret } from '../../model-secrets.js';
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
  /**
   * The model's config field that sets the size limit (`maxReplyBytes`): the message says to raise it,
   * and the error carries the limit as `replyLimitBytes`.
   */
  readonly limitSetting?: string;
}

/** How a chat call's failures are worded, on pmiyc's own client and the AI SDK's alike. */
export const CHAT_WORDING: TransportWording = { peer: 'server', timeoutSetting: 'timeoutMs', limitSetting: 'maxReplyBytes' };

/** 8 MiB, 64 KiB, 1500000 bytes: a limit exactly, in the largest unit that divides it. */
function sizeOf(bytes: number): string {
  if (bytes % 2 ** 20 === 0) return `${bytes / 2 ** 20} MiB`;
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

/**
 * The ModelCallError a transport failure stands for, reason `api` and no status code. Every kind but
 * the two limits is retryable: a connection refused or lost, a reply mangled or late may go through on
 * the next try, as after a 5xx. A reply past the size limit is not one the same request would stop
 * getting, and asking again pays for it again; nor is a head past 64 KiB, which no API sends. The
 * detail (what undici or the system said) goes through `serverText`, and the failure is not kept as
 * the cause: a parser's error holds the bytes the server sent.
 */
export function transportFailureToModelCallError(failure: TransportFailure, caller: TransportCaller, wording: TransportWording): ModelCallError {
  const { name } = caller;
  const detail = serverText(failure.message, caller.secrets);
  const { origin, pathname } = failure.url;
  const limit = failure.details.limit ?? 0;
  const message = {
    unreachable: () => `${name}: cannot reach ${origin}${pathname} (${detail})`,
    closed: () => `${name}: ${origin} closed the connection before its reply was complete (${detail})`,
    malformed: () => `${name}: the ${wording.peer}'s reply is not valid HTTP: ${detail}`,
    'too-large': () => tooLargeMessage(name, limit, wording),
    'head-too-large': () =>
      `${name}: the ${wording.peer}'s reply has a status line and headers longer than ${sizeOf(limit)}, the most pmiyc reads (a fixed limit: APIs send a few KiB): check that the base URL is the API's`,
    timeout: () => `${name}: no reply within ${limit} ms (${wording.timeoutSetting})`,
  }[failure.kind]();
  const retryable = failure.kind !== 'too-large' && failure.kind !== 'head-too-large';
  const overLimit = failure.kind === 'too-large' && wording.limitSetting !== undefined;
  const fields = {
    provider: caller.provider,
    model: caller.model,
    reason: 'api' as const,
    retryable,
    transportFailure: failure.kind,
    ...(overLimit ? { replyLimitBytes: limit } : {}),
  };
  return new ModelCallError(message, fields);
}

function tooLargeMessage(name: string, limit: number, wording: TransportWording): string {
  const size = `larger than ${sizeOf(limit)}`;
  if (wording.limitSetting === undefined)
    return `${name}: the ${wording.peer} sent a reply ${size}, the most pmiyc reads from it${wording.tooLargeRemedy ?? ''}`;
  const setting = wording.limitSetting;
  return `${name}: the ${wording.peer} sent a reply ${size}, this model's ${setting}; not retried: raise ${setting} for ${name} in the config to read larger replies`;
}
