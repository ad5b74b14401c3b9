import { ModelCallError } from '../model-call-error.js';
import { type ErrorContext, httpErrorToModelCallError } from '../providers/http-error.js';
import { http, https } from '../providers/node-http.js';
import { flatHeaders } from '../providers/openai-chat-model.js';

/** Who is asking, for error messages and the typed error's fields. */
export interface BatchCaller {
  readonly name: string;
  readonly provider: string;
  readonly model: string;
  readonly apiKeyEnv?: string;
  readonly timeoutMs: number;
  readonly now: () => number;
}

interface HttpAnswer {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

function errorContext(caller: BatchCaller): ErrorContext {
  return {
    name: caller.name,
    provider: caller.provider,
    model: caller.model,
    nowMs: caller.now(),
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

/**
 * One HTTP exchange with a batch endpoint: the body text of a 2xx answer, or a ModelCallError mapped
 * exactly as a direct call's (http-error.ts): retryable by status, with Retry-After and remedies.
 */
export function sendBatchRequest(
  caller: BatchCaller,
  url: URL,
  method: 'GET' | 'POST',
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? https.request : http.request;
    const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const outgoing = send(url, { method, headers: { ...headers, ...length } });
    const fail = (error: Error) =>
      reject(
        new ModelCallError(
          `${caller.name}: cannot reach ${url.origin}${url.pathname} (${error.message})`,
          { provider: caller.provider, model: caller.model, reason: 'api', retryable: true },
          { cause: error },
        ),
      );
    outgoing.setTimeout(caller.timeoutMs, () => outgoing.destroy(new Error(`no reply within ${caller.timeoutMs} ms (timeoutMs)`)));
    outgoing.on('error', fail);
    outgoing.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', fail);
      response.on('end', () => {
        const answer: HttpAnswer = { statusCode: response.statusCode ?? 0, headers: flatHeaders(response), body: Buffer.concat(chunks).toString('utf8') };
        if (answer.statusCode >= 300) {
          reject(httpErrorToModelCallError({ ...answer, message: answer.body.slice(0, 200) }, errorContext(caller)));
        } else resolve(answer.body);
      });
    });
    outgoing.end(body);
  });
}

/** The JSON of an answer, or a retryable error saying it is not JSON. */
export function parseJson(caller: BatchCaller, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw unreadableAnswer(caller, `not JSON: ${text.slice(0, 80)}`);
  }
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
  return httpErrorToModelCallError({ statusCode, body: text, message: text.slice(0, 200) }, errorContext(caller));
}
