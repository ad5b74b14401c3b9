import { parseBoundedJson } from '../../domain/bounded-json.js';
import type { FinishReason } from '../../domain/conversation.js';
import { InputError } from '../../domain/errors/input-error.js';
import { type HttpAnswer, HttpTransport } from '../../http/http-transport.js';
import { TransportFailure } from '../../http/transport-failure.js';
import { watchAbort } from '../abort-watch.js';
import type { ChatMessage, ChatModel, GenerateReply, GenerateRequest } from '../chat-model.js';
import { ModelCallError } from '../model-call-error.js';
import { type ModelSecret, secretsOf } from '../model-secrets.js';
import { DEFAULT_MAX_REPLY_BYTES } from '../model-settings.js';
import { type ErrorContext, httpErrorToModelCallError } from './errors/http-error.js';
import { bodyText, serverText } from './errors/server-text.js';
import { CHAT_WORDING, transportFailureToModelCallError } from './errors/transport-error.js';
import { checkRequestHeaders } from './http-headers.js';
import { strictResponseSchema } from './response-schema.js';

export interface OpenAiChatOptions {
  readonly name: string;
  readonly provider: string;
  readonly model: string;
  /** The API root, e.g. https://api.openai.com/v1 (the request goes to `<baseURL>/chat/completions`). */
  readonly baseURL: string;
  readonly apiKey?: string;
  readonly apiKeyEnv?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** The largest reply body read, in bytes (the model's `maxReplyBytes`); 8 MiB unless given. */
  readonly maxReplyBytes?: number;
  /** Extra body fields (an OpenAI-compatible server's own options, e.g. chat_template_kwargs). */
  readonly extraBody?: Readonly<Record<string, unknown>>;
  /** False: the provider takes no seed (it still identifies the call). */
  readonly supportsSeed?: boolean;
  readonly now?: () => number;
}

const FINISH_REASONS: Record<string, FinishReason> = { stop: 'stop', length: 'length', content_filter: 'content-filter' };

/** One system message first (several are joined), then the turns: what the AI SDK sends for the same request. */
function toWireMessages(messages: readonly ChatMessage[]): Array<{ role: string; content: string }> {
  let system: string | undefined;
  for (const message of messages) if (message.role === 'system') system = system === undefined ? message.content : `${system}\n\n${message.content}`;
  // One array built the same way whatever the request holds: an array spread of another shape made
  // V8 throw away this function's optimized code and compile it again.
  const wire: Array<{ role: string; content: string }> = system === undefined ? [] : [{ role: 'system', content: system }];
  for (const { role, content } of messages) if (role !== 'system') wire.push({ role, content });
  return wire;
}

interface ChatCompletion {
  readonly choices?: ReadonlyArray<{
    readonly message?: { readonly content?: string | null; readonly refusal?: string | null };
    readonly finish_reason?: string | null;
  }>;
  readonly usage?: {
    readonly prompt_tokens?: number;
    readonly completion_tokens?: number;
    /** Of the prompt tokens, those served from OpenAI's prompt cache (automatic above ~1,024 tokens). */
    readonly prompt_tokens_details?: { readonly cached_tokens?: number } | null;
  } | null;
}

/**
 * The reply in a chat completion body (parsed JSON), or what is wrong with it. Shared by the direct
 * client and the batch adapter, whose output lines carry the same body.
 */
export function chatCompletionReply(body: unknown): GenerateReply | string {
  const completion = body as ChatCompletion | null;
  const choice = completion?.choices?.[0];
  if (!choice || typeof choice !== 'object') return 'no choices in the reply';
  const content = choice.message?.content;
  if (content !== undefined && content !== null && typeof content !== 'string') return 'the message content is not text';
  const usage = completion?.usage ?? undefined;
  const inputTokens = typeof usage?.prompt_tokens === 'number' ? usage.prompt_tokens : undefined;
  const outputTokens = typeof usage?.completion_tokens === 'number' ? usage.completion_tokens : undefined;
  const cached = usage?.prompt_tokens_details?.cached_tokens;
  const cachedInputTokens = typeof cached === 'number' && cached > 0 ? cached : undefined;
  // Under structured output a model that declines says so in `refusal` instead of the content: a refusal, as a
  // content filter is (what the AI SDK reads too).
  const refusal = choice.message?.refusal;
  const refused = !content && typeof refusal === 'string' && refusal !== '';
  const finishReason = FINISH_REASONS[choice.finish_reason ?? ''] ?? 'other';
  return {
    text: refused ? refusal : (content ?? ''),
    finishReason: refused && finishReason === 'stop' ? 'content-filter' : finishReason,
    usage: {
      ...(inputTokens === undefined ? {} : { inputTokens }),
      ...(outputTokens === undefined ? {} : { outputTokens }),
      ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
    },
  };
}

/**
 * The chat completions request body for one request (without the model's extra body fields). A
 * request with a `responseFormat` asks for structured output in strict mode, with the schema cut
 * to the keywords strict mode takes (response-schema.ts); one without has no `response_format`.
 */
export function chatCompletionBody(model: string, request: GenerateRequest, supportsSeed: boolean | undefined): Record<string, unknown> {
  const format = request.responseFormat;
  return {
    model,
    messages: toWireMessages(request.messages),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    max_tokens: request.maxOutputTokens,
    ...(supportsSeed === false ? {} : { seed: request.seed }),
    ...(format === undefined
      ? {}
      : { response_format: { type: 'json_schema', json_schema: { name: format.name, strict: true, schema: strictResponseSchema(format.schema) } } }),
  };
}

/**
 * A ChatModel for the OpenAI chat completions API and every server that speaks it (vLLM, SGLang,
 * ollama, OpenRouter, Together, ...), on pmiyc's HTTP transport (undici, keep-alive): the AI SDK's
 * generality (a prompt schema built and validated per call, fetch and its streams) costs more CPU
 * per call than the rest of pmiyc together (docs/design/model-layer.md). One HTTP call per
 * `generate`, no retries of its own, a per-call timeout, and every failure a typed ModelCallError
 * with the same mapping as the SDK path.
 */
export class OpenAiChatModel implements ChatModel {
  readonly simulated = false;
  readonly name: string;
  private readonly url: URL;
  private readonly headers: Readonly<Record<string, string>>;
  private readonly transport: HttpTransport;
  /** The key and header values, replaced in any error message that repeats them. */
  private readonly secrets: readonly ModelSecret[];

  constructor(private readonly options: OpenAiChatOptions) {
    this.name = options.name;
    this.secrets = secretsOf(options);
    this.url = new URL(`${options.baseURL.replace(/\/+$/, '')}/chat/completions`);
    this.headers = {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      ...options.headers,
    };
    try {
      checkRequestHeaders(this.headers);
    } catch (error) {
      throw new InputError(`${options.name}: ${(error as Error).message}: correct its headers in the config`);
    }
    this.transport = new HttpTransport({ timeoutMs: options.timeoutMs, maxResponseBytes: options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES });
  }

  async generate(request: GenerateRequest): Promise<GenerateReply> {
    const body = JSON.stringify({ ...chatCompletionBody(this.options.model, request, this.options.supportsSeed), ...this.options.extraBody });
    const answer = await this.post(body, request.abortSignal);
    if (answer.statusCode >= 300) {
      const text = bodyText(answer.body);
      const context = { ...this.errorContext(), ...(request.responseFormat ? { structuredOutput: true } : {}) };
      throw httpErrorToModelCallError({ statusCode: answer.statusCode, headers: answer.headers, body: text, message: text }, context);
    }
    return this.readCompletion(answer.body);
  }

  /** One POST; a caller's abort cancels it and rejects with the caller's reason, as the SDK path does. */
  private async post(body: string, abortSignal: AbortSignal | undefined): Promise<HttpAnswer> {
    if (abortSignal?.aborted) throw abortSignal.reason;
    const call = this.transport.request({ method: 'POST', url: this.url, headers: this.headers, body });
    const stopWatching = abortSignal ? watchAbort(abortSignal, () => call.cancel(abortSignal.reason)) : undefined;
    try {
      return await call.answer;
    } catch (error) {
      if (error instanceof TransportFailure) throw transportFailureToModelCallError(error, this.fields(), CHAT_WORDING);
      throw error;
    } finally {
      stopWatching?.();
    }
  }

  private readCompletion(body: Buffer): GenerateReply {
    const reading = parseBoundedJson(body.toString('utf8'));
    if (!reading.ok) throw this.unreadable(reading.problem === 'too-deep' ? reading.detail : `not JSON: ${serverText(bodyText(body), this.secrets, 80)}`);
    const reply = chatCompletionReply(reading.value);
    if (typeof reply === 'string') throw this.unreadable(reply);
    return reply;
  }

  private fields() {
    return { name: this.name, provider: this.options.provider, model: this.options.model, secrets: this.secrets };
  }

  private errorContext(): ErrorContext {
    return {
      ...this.fields(),
      nowMs: (this.options.now ?? Date.now)(),
      ...(this.options.apiKeyEnv ? { apiKeyEnv: this.options.apiKeyEnv } : {}),
    };
  }

  private unreadable(what: string): ModelCallError {
    return new ModelCallError(`${this.name}: the server sent a reply pmiyc cannot read (${what})`, {
      provider: this.options.provider,
      model: this.options.model,
      reason: 'api',
      retryable: true,
    });
  }
}
