import { type CallFailureReason, ModelCallError } from '../../model-call-error.js';
import type { ModelSecret } from '../../model-secrets.js';
import { retryAfterMsFromHeaders } from './retry-after.js';
import { serverText } from './server-text.js';

export interface ErrorContext {
  readonly name: string;
  readonly provider: string;
  readonly model: string;
  readonly apiKeyEnv?: string;
  readonly nowMs: number;
  /** The model's key and header values: replaced in whatever the server's text repeats of them (model-secrets.ts). */
  readonly secrets: readonly ModelSecret[];
  /** True when the request asked for structured output (its `responseFormat`): a refusal of it names the way out. */
  readonly structuredOutput?: boolean;
}

/** Statuses worth another try: timeouts, conflicts, rate limits, server errors. */
function isRetryableStatus(statusCode: number): boolean {
  return statusCode === 408 || statusCode === 409 || statusCode === 429 || statusCode >= 500;
}

interface ErrorBody {
  readonly code?: string;
  readonly type?: string;
  readonly message?: string;
}

/** The provider's structured error, if the body has one (`{ error: { code, type, message } }` or Gemini's `status`). */
function readErrorBody(responseBody: string | undefined): ErrorBody {
  try {
    const parsed = JSON.parse(responseBody ?? '') as {
      error?: { code?: unknown; type?: unknown; status?: unknown; message?: unknown; innererror?: { code?: unknown } };
    };
    const error = parsed.error ?? {};
    const code = [error.innererror?.code, error.code, error.status].find((value) => typeof value === 'string') as string | undefined;
    return {
      ...(code ? { code } : {}),
      ...(typeof error.type === 'string' ? { type: error.type } : {}),
      ...(typeof error.message === 'string' ? { message: error.message } : {}),
    };
  } catch {
    return {};
  }
}

const CONTEXT_CODES = new Set(['context_length_exceeded', 'string_above_max_length', 'request_too_large']);
const REFUSAL_CODES = new Set(['content_filter', 'content_policy_violation', 'ResponsibleAIPolicyViolation']);
/**
 * Providers without a structured code for "too long" (Anthropic, Gemini, vLLM) say it in words.
 * Used only to name the reason of a request that is already not retried.
 */
const CONTEXT_WORDS = /context length|context window|prompt is too long|too many tokens|input token count|maximum context/i;

/** The failure reason of a client error (4xx) that will not be retried. */
function clientErrorReason(statusCode: number, body: ErrorBody): CallFailureReason {
  if (statusCode === 413 || (body.code && CONTEXT_CODES.has(body.code))) return 'context';
  if (body.code && REFUSAL_CODES.has(body.code)) return 'refusal';
  if (body.message && CONTEXT_WORDS.test(body.message)) return 'context';
  return 'api';
}

/** What a server says when it does not take a JSON Schema for the reply (OpenAI-compatible servers, Anthropic's tool use). */
const STRUCTURED_OUTPUT_WORDS = /response_format|json_schema|structured output|tool_choice|tool use|tools/i;

function remedyFor(statusCode: number, context: ErrorContext, said: string): string {
  if (context.structuredOutput && (statusCode === 400 || statusCode === 422) && STRUCTURED_OUTPUT_WORDS.test(said)) {
    return `: the server does not take the reply's JSON Schema as structured output; set structuredOutput: false for ${context.name} in the config (its replies are then asked for as plain text and read as strictly)`;
  }
  if (statusCode === 401 || statusCode === 403) {
    return context.apiKeyEnv ? `: check ${context.apiKeyEnv} (and apiKeyEnv in the config)` : ': check the credentials for this server';
  }
  if (statusCode === 404) return `: check that "${context.model}" is a model (or deployment) this server has`;
  return '';
}

/** An HTTP error answer as a provider sent it: its status, headers and body text. */
export interface HttpErrorAnswer {
  readonly statusCode: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** What to say when the body has no message of its own (the body's text, or the library's message): cut to 200 characters here. */
  readonly message: string;
}

/** How much of an error body without a message of its own a ModelCallError repeats. */
const MAX_DETAIL_CHARACTERS = 200;

/**
 * A ModelCallError from an HTTP error status (300 and above), the same for every adapter: retryable
 * by status (408, 409, 429, 5xx) with the server's Retry-After, else the reason read from the
 * provider's error code (context length, content filter) and a remedy for 401/403/404. The server's
 * text in the message is printable and has the model's secrets replaced (`serverText`), and the
 * error has no cause: a library's error would carry the raw body to whoever logs it.
 */
export function httpErrorToModelCallError(answer: HttpErrorAnswer, context: ErrorContext): ModelCallError {
  const { statusCode } = answer;
  const retryAfterMs = retryAfterMsFromHeaders(answer.headers, context.nowMs);
  const retryable = isRetryableStatus(statusCode);
  const body = readErrorBody(answer.body);
  const reason = retryable ? 'api' : clientErrorReason(statusCode, body);
  const detail = body.message === undefined ? serverText(answer.message, context.secrets, MAX_DETAIL_CHARACTERS) : serverText(body.message, context.secrets);
  return new ModelCallError(`${context.name}: HTTP ${statusCode}: ${detail}${remedyFor(statusCode, context, answer.body ?? answer.message)}`, {
    provider: context.provider,
    model: context.model,
    reason,
    statusCode,
    retryable,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}
