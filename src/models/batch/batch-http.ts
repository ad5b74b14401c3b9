import { parseBoundedJson } from '../../domain/bounded-json.js';
import { type HttpAnswer, HttpTransport } from '../../http/http-transport.js';
import { TransportFailure } from '../../http/transport-failure.js';
import { watchAbort } from '../abort-watch.js';
import { ModelCallError } from '../model-call-error.js';
import { type ModelCredentials, secretsOf } from '../model-secrets.js';
import { type ErrorContext, httpErrorToModelCallError } from '../providers/errors/http-error.js';
import { bodyText, serverText } from '../providers/errors/server-text.js';
import { transportFailureToModelCallError } from '../providers/errors/transport-error.js';

/** Who is asking, for error messages and the typed error's fields, and the credentials its requests carry, which no message repeats. */
export interface BatchCaller extends ModelCredentials {
  readonly name: string;
  readonly provider: string;
  readonly model: string;
  readonly timeoutMs: number;
  readonly now: () => number;
  /** The run stopping: a poll or a download in flight is cancelled (a submission is let finish, so the ledger learns its id). */
  readonly abortSignal?: AbortSignal;
}

/**
 * The largest answer read from a batch service: a results file is read whole into one string, and
 * V8's strings stop at 512 MiB. 256 MiB is twice a full 50,000-line OpenAI batch of pmiyc's replies
 * at the default 400 output tokens (~2.5 KB a line), and 10x a batch of the default 10,000 lines.
 */
const MAX_BATCH_ANSWER_BYTES = 256 * 2 ** 20;
/** A results file may take this many times `timeoutMs` in all (256 MiB at 0.2 MB/s by default); between chunks, still `timeoutMs`. */
const FILE_TIMEOUT_FACTOR = 10;

function errorContext(caller: BatchCaller): ErrorContext {
  return {
    name: caller.name,
    provider: caller.provider,
    model: caller.model,
    nowMs: caller.now(),
    secrets: secretsOf(caller),
    ...(caller.apiKeyEnv ? { apiKeyEnv: caller.apiKeyEnv } : {}),
  };
}

/** A batch endpoint's answer that pmiyc cannot use: worth asking again, as for a direct call. */
export function unreadableAnswer(caller: BatchCaller, what: string): ModelCallError {
  return new ModelCallError(`${caller.name}: the batch service sent a reply pmiyc cannot read (${what})`, {
    provider: caller.provider,
    model: caller.model,
    reason: 'api',
    retryable: true,
  });
}

/** What else a batch request needs: whether it may be cancelled by the run stopping, and whether it reads a results file. */
export interface BatchRequestOptions {
  readonly body?: string | Buffer;
  /** Cancelled when the run stops (`BatchCaller.abortSignal`): polls and downloads, never a submission. */
  readonly cancellable?: boolean;
  /** A results file: `FILE_TIMEOUT_FACTOR` x `timeoutMs` in all. */
  readonly file?: boolean;
}

/**
 * A batch service's HTTP exchanges (on one keep-alive transport per adapter): the body text of a 2xx
 * answer, or a ModelCallError mapped exactly as a direct call's (http-error.ts, transport-error.ts):
 * retryable by status, with Retry-After and remedies.
 */
export class BatchHttp {
  private readonly transport: HttpTransport;

  constructor(private readonly caller: BatchCaller) {
    this.transport = new HttpTransport({ timeoutMs: caller.timeoutMs, maxResponseBytes: MAX_BATCH_ANSWER_BYTES });
  }

  async send(url: URL, method: 'GET' | 'POST', headers: Record<string, string>, options: BatchRequestOptions = {}): Promise<string> {
    const { caller } = this;
    const abortSignal = options.cancellable ? caller.abortSignal : undefined;
    if (abortSignal?.aborted) throw abortSignal.reason;
    const call = this.transport.request({
      method,
      url,
      headers,
      ...(options.body === undefined ? {} : { body: options.body }),
      ...(options.file ? { timeoutMs: caller.timeoutMs * FILE_TIMEOUT_FACTOR } : {}),
    });
    const stopWatching = abortSignal ? watchAbort(abortSignal, () => call.cancel(abortSignal.reason)) : undefined;
    let answer: HttpAnswer;
    try {
      answer = await call.answer;
    } catch (error) {
      if (!(error instanceof TransportFailure)) throw error;
      throw transportFailureToModelCallError(
        error,
        { ...caller, secrets: secretsOf(caller) },
        {
          peer: 'batch service',
          timeoutSetting: options.file ? `${FILE_TIMEOUT_FACTOR} x timeoutMs, for a results file` : 'timeoutMs',
          tooLargeRemedy: ': set a smaller batch size for this model (batch: { size } in the config)',
        },
      );
    } finally {
      stopWatching?.();
    }
    if (answer.statusCode >= 300) {
      const text = bodyText(answer.body);
      throw httpErrorToModelCallError({ statusCode: answer.statusCode, headers: answer.headers, body: text, message: text }, errorContext(caller));
    }
    return answer.body.toString('utf8');
  }
}

/** The JSON of an answer, or a retryable error saying it is not JSON (or nests too deep to be walked safely). */
export function parseJson(caller: BatchCaller, text: string): unknown {
  const reading = parseBoundedJson(text);
  if (reading.ok) return reading.value;
  if (reading.problem === 'too-deep') throw unreadableAnswer(caller, reading.detail);
  throw unreadableAnswer(caller, `not JSON: ${serverText(text, secretsOf(caller), 80)}`);
}

/** The JSON lines of a results file (blank lines skipped); a line that is not JSON is an unreadable answer. */
export function parseJsonLines(caller: BatchCaller, text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => parseJson(caller, line));
}

/** A line's failure from the HTTP status and error body the provider recorded for it. */
export function lineError(caller: BatchCaller, statusCode: number, body: unknown): ModelCallError {
  const text = JSON.stringify(body ?? {});
  return httpErrorToModelCallError({ statusCode, body: text, message: text }, errorContext(caller));
}
