import { generateText, type JSONSchema7, type LanguageModel, type ModelMessage, type OutputInterface, type SystemModelMessage } from 'ai';
import type { FinishReason } from '../../../domain/conversation.js';
import { transportFailureIn } from '../../../http/transport-fetch.js';
import type { ChatMessage, ChatModel, GenerateReply, GenerateRequest, ResponseFormat } from '../../chat-model.js';
import { ModelCallError } from '../../model-call-error.js';
import type { ModelSecret } from '../../model-secrets.js';
import { toModelCallError } from '../errors/provider-error.js';
import { CHAT_WORDING, transportFailureToModelCallError } from '../errors/transport-error.js';
import { strictResponseSchema } from '../response-schema.js';

// The AI SDK prints provider warnings (e.g. an unsupported setting) to the console; pmiyc
// records what matters itself and keeps the terminal for the user.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS ??= false;

export interface AiSdkModelOptions {
  readonly name: string;
  readonly provider: string;
  readonly model: string;
  readonly timeoutMs: number;
  readonly apiKeyEnv?: string;
  /** The model's key and header values (`secretsOf`), replaced in any error message that repeats them. */
  readonly secrets?: readonly ModelSecret[];
  /** AI SDK provider options, already keyed by the SDK provider name. */
  readonly providerOptions?: Record<string, Record<string, unknown>>;
  /**
   * False for a provider that takes no sampling seed (the catalog's `supportsSeed`): the seed is
   * then not passed to the SDK, which would drop it with a warning; it still identifies and
   * records the call. Absent: the seed is passed.
   */
  readonly supportsSeed?: boolean;
  /**
   * How a request's `responseFormat` is asked for: `strict` sends the schema cut to OpenAI's strict
   * subset (OpenAI, Azure, Google, OpenAI-compatible servers), `whole` sends it as it is (Anthropic,
   * as a tool's input). Provider options merged under the config's for such a request only.
   */
  readonly structuredOutput?: { readonly schema: 'strict' | 'whole'; readonly providerOptions?: Record<string, Record<string, unknown>> };
  /** Anthropic: mark the system prompt and the last message as cache breakpoints (`cache_control`). */
  readonly promptCache?: boolean;
  readonly now?: () => number;
}

const FINISH_REASONS: Record<string, FinishReason> = {
  stop: 'stop',
  length: 'length',
  'content-filter': 'content-filter',
  error: 'error',
};

/** Anthropic's cache breakpoint: the prompt up to and including the marked block is cached for 5 minutes. */
const CACHE_BREAKPOINT = { anthropic: { cacheControl: { type: 'ephemeral' } } };

/**
 * The SDK's messages. With `promptCache`, the system prompt (the same for every turn of a role) and
 * the last message are cache breakpoints: the next request of the conversation repeats this one as
 * its prefix (docs/design/model-layer.md), so it reads all of it from the cache.
 */
function toModelMessages(messages: readonly ChatMessage[], promptCache: boolean): { system?: string | SystemModelMessage; messages: ModelMessage[] } {
  const system = messages.filter((message) => message.role === 'system').map((message) => message.content);
  const rest = messages.filter((message) => message.role !== 'system') as Array<ChatMessage & { role: 'user' | 'assistant' }>;
  if (!promptCache) {
    return {
      ...(system.length > 0 ? { system: system.join('\n\n') } : {}),
      messages: rest.map((message) => ({ role: message.role, content: message.content })),
    };
  }
  const last = rest.length - 1;
  return {
    ...(system.length > 0 ? { system: { role: 'system', content: system.join('\n\n'), providerOptions: CACHE_BREAKPOINT } } : {}),
    messages: rest.map((message, index) => ({
      role: message.role,
      content: message.content,
      ...(index === last ? { providerOptions: CACHE_BREAKPOINT } : {}),
    })),
  };
}

/**
 * The SDK's output setting for a reply in `format`: the provider is asked for structured output, and
 * the reply's text comes back as it is, whatever it holds. The SDK's own object output would throw
 * on a reply that does not parse; the caller reads the text strictly and treats a bad one as a
 * malformed reply, like any other.
 */
function schemaOutput(format: ResponseFormat, schema: Record<string, unknown>): OutputInterface<string, string, never> {
  return {
    name: 'object',
    responseFormat: Promise.resolve({ type: 'json', schema: schema as JSONSchema7, name: format.name }),
    parseCompleteOutput: async ({ text }) => text,
    parsePartialOutput: async ({ text }) => ({ partial: text }),
    createElementStreamTransform: () => undefined,
  };
}

/** Provider options: the config's, under those a request with a schema adds (the config's win). */
function mergedOptions(
  extra: Record<string, Record<string, unknown>> | undefined,
  configured: Record<string, Record<string, unknown>> | undefined,
): Record<string, Record<string, unknown>> | undefined {
  if (!extra) return configured;
  const merged: Record<string, Record<string, unknown>> = { ...configured };
  for (const [key, values] of Object.entries(extra)) merged[key] = { ...values, ...configured?.[key] };
  return merged;
}

/**
 * A ChatModel over any AI SDK language model (OpenAI, Azure, Anthropic, Google, OpenAI-compatible).
 * One HTTP call per `generate`: the SDK's own retries are off (the retry wrapper is the only retry
 * layer), a per-request timeout applies, and every failure becomes a typed ModelCallError.
 */
export class AiSdkChatModel implements ChatModel {
  readonly simulated = false;
  readonly name: string;

  constructor(
    private readonly languageModel: LanguageModel,
    private readonly options: AiSdkModelOptions,
  ) {
    this.name = options.name;
  }

  async generate(request: GenerateRequest): Promise<GenerateReply> {
    // A timer and a listener that are both released when the call ends: AbortSignal.timeout and
    // AbortSignal.any would keep every call's signal alive for the whole timeout (or the run).
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`timed out after ${this.options.timeoutMs} ms`));
    }, this.options.timeoutMs);
    const forwardAbort = () => controller.abort(request.abortSignal?.reason);
    request.abortSignal?.addEventListener('abort', forwardAbort, { once: true });
    if (request.abortSignal?.aborted) forwardAbort();
    const abortSignal = controller.signal;
    const format = this.options.structuredOutput ? request.responseFormat : undefined;
    const structured = format ? this.options.structuredOutput : undefined;
    const providerOptions = mergedOptions(structured?.providerOptions, this.options.providerOptions);
    try {
      const result = await generateText({
        model: this.languageModel,
        ...toModelMessages(request.messages, this.options.promptCache === true),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        maxOutputTokens: request.maxOutputTokens,
        ...(this.options.supportsSeed === false ? {} : { seed: request.seed }),
        abortSignal,
        maxRetries: 0,
        ...(providerOptions ? { providerOptions: providerOptions as never } : {}),
        ...(format && structured
          ? { output: schemaOutput(format, structured.schema === 'strict' ? strictResponseSchema(format.schema) : { ...format.schema }) }
          : {}),
      });
      const { inputTokens, outputTokens, inputTokenDetails } = result.usage;
      const cachedInputTokens = inputTokenDetails?.cacheReadTokens;
      const cacheWriteTokens = inputTokenDetails?.cacheWriteTokens;
      return {
        text: result.text,
        finishReason: FINISH_REASONS[result.finishReason] ?? 'other',
        usage: {
          ...(inputTokens === undefined ? {} : { inputTokens }),
          ...(outputTokens === undefined ? {} : { outputTokens }),
          ...(cachedInputTokens ? { cachedInputTokens } : {}),
          ...(cacheWriteTokens ? { cacheWriteTokens } : {}),
        },
      };
    } catch (error) {
      throw this.translate(error, request, timedOut);
    } finally {
      clearTimeout(timer);
      request.abortSignal?.removeEventListener('abort', forwardAbort);
    }
  }

  private translate(error: unknown, request: GenerateRequest, timedOut: boolean): unknown {
    if (request.abortSignal?.aborted) return request.abortSignal.reason ?? error;
    const { name, provider, model } = this.options;
    if (timedOut) {
      return new ModelCallError(`${name}: no reply within ${this.options.timeoutMs} ms (timeoutMs)`, { provider, model, reason: 'api', retryable: true });
    }
    const secrets = this.options.secrets ?? [];
    const failure = transportFailureIn(error);
    if (failure) return transportFailureToModelCallError(failure, { name, provider, model, secrets }, CHAT_WORDING);
    const now = this.options.now ?? Date.now;
    const context = {
      name,
      provider,
      model,
      nowMs: now(),
      secrets,
      ...(request.responseFormat && this.options.structuredOutput ? { structuredOutput: true } : {}),
    };
    return toModelCallError(error, { ...context, ...(this.options.apiKeyEnv ? { apiKeyEnv: this.options.apiKeyEnv } : {}) }) ?? error;
  }
}
