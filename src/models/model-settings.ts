/**
 * Everything pmiyc knows about one model after the config file and the model name are resolved:
 * which provider and model, where it lives, how to call it and what it costs. Keys are never
 * here: only the name of the environment variable that holds one.
 */
export interface ModelSettings {
  /** What the user wrote: a config alias or `provider/model`. Used in every output. */
  readonly name: string;
  readonly provider: string;
  /** The provider's model id (for `llama`, the .gguf path or `hf:` URI; for `sim`, the profile). */
  readonly model: string;
  /** The one server (absent with `replicas`). */
  readonly baseURL?: string;
  /**
   * The base URLs of the replicas that serve the model, two or more, distinct endpoints, in the
   * config's order (a one-entry list is `baseURL`). Calls are spread over them (docs/design/replicas.md).
   */
  readonly replicas?: readonly string[];
  /** With `replicas`: calls in flight at most per replica (none unless configured). */
  readonly replicaConcurrency?: number;
  /** The environment variable holding the API key (each provider has a default). */
  readonly apiKeyEnv?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Overrides the run's temperature for this model; null never sends one (reasoning models that reject it). */
  readonly temperature?: number | null;
  /** Overrides the run's output-token limit for this model. */
  readonly maxTokens?: number;
  /**
   * False: never ask this model's provider for structured output (a JSON Schema for the reply, e.g.
   * a judge's labels), for servers that refuse it; the reply is then asked for as plain text and read
   * as strictly. Absent or true: asked where the provider has it (docs/design/model-layer.md).
   */
  readonly structuredOutput?: boolean;
  /**
   * Anthropic: mark each request's stable prefix for the provider's prompt cache (`cache_control`
   * on the system prompt and on the last message), so the next turn of the conversation reads it at
   * the cached price. On unless false. Other providers cache on their own (OpenAI) or not at all.
   */
  readonly promptCache?: boolean;
  /** Per-request timeout; 120 s unless configured. */
  readonly timeoutMs: number;
  /**
   * The largest reply body read from the model's server, in bytes (8 MiB unless configured): past it,
   * or with a Content-Length past it, the call fails at once and is not retried.
   */
  readonly maxReplyBytes?: number;
  /** Retries of a retryable failure after the first try; 6 unless configured. */
  readonly maxRetries: number;
  /**
   * The longest Retry-After a server may ask for before a retry; a longer one fails the call as
   * rate-limited instead of waiting. 120 s unless configured.
   */
  readonly maxRetryAfterMs?: number;
  /**
   * Names the weights behind the model for the call cache, instead of its endpoint (or GGUF hash):
   * the same revision on two servers replays; a new revision is asked again.
   */
  readonly revision?: string;
  readonly maxConcurrency?: number;
  readonly requestsPerMinute?: number;
  readonly tokensPerMinute?: number;
  readonly inputUsdPerMillion?: number;
  readonly outputUsdPerMillion?: number;
  /** Prices of a batched call; half the direct prices unless configured. */
  readonly batchInputUsdPerMillion?: number;
  readonly batchOutputUsdPerMillion?: number;
  /** Input tokens read from the provider's prompt cache; priced as input unless configured. */
  readonly cachedInputUsdPerMillion?: number;
  /** Input tokens written to the prompt cache (Anthropic); 1.25 x the input price unless configured. */
  readonly cacheWriteUsdPerMillion?: number;
  /** Send this model's calls through its provider's batch service (docs/design/batches.md). */
  readonly batch?: BatchConfig;
  /**
   * Passed to the provider as it is: for OpenAI-compatible servers, extra body fields such as
   * `{ chat_template_kwargs: { enable_thinking: false } }`; for others, the AI SDK's provider options.
   */
  readonly providerOptions?: Readonly<Record<string, unknown>>;
  /** Azure only: a dated API version (e.g. 2024-10-21) selects the older deployment-based URLs. */
  readonly apiVersion?: string;
  /** In-process llama.cpp only: CPU threads (1 unless configured) and GPU use. */
  readonly threads?: number;
  readonly gpu?: 'auto' | false | 'cuda' | 'vulkan' | 'metal';
  /** In-process llama.cpp only: context size in tokens (the model's training size, at most 4096, unless configured). */
  readonly contextSize?: number;
}

/** A model's `batch:` in the config: every field optional (see models/batch/with-batch.ts for the defaults). */
interface BatchConfig {
  readonly size?: number;
  readonly pollSeconds?: number;
  readonly quietSeconds?: number;
  readonly failedLines?: 'retry' | 'direct';
}

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_RETRIES = 6;
export const DEFAULT_MAX_RETRY_AFTER_MS = 120_000;
/**
 * A chat reply's body at most, unless the model's `maxReplyBytes` says otherwise: the longest outputs
 * models allow (~128k tokens, ~0.5 MB of text, ~3 MB with JSON's escapes) with room to spare.
 */
export const DEFAULT_MAX_REPLY_BYTES = 8 * 2 ** 20;
/** The bounds of `maxReplyBytes`: a chat completion's JSON alone takes hundreds of bytes; a reply is read whole into memory. */
export const MIN_REPLY_BYTES = 1024;
export const MAX_REPLY_BYTES = 256 * 2 ** 20;
