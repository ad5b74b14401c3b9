import type { ChatModel } from './chat-model.js';
import type { ModelSettings } from './model-settings.js';
import { AiSdkChatModel } from './providers/ai-sdk-model.js';
import { createLanguageModel } from './providers/create-language-model.js';
import { LlamaChatModel } from './providers/llama-model.js';
import { findProvider } from './providers/provider-catalog.js';
import { SimulatedAgent } from './sim/simulated-agent.js';
import { withCost } from './wrappers/with-cost.js';
import { type RateLimitDependencies, type RateLimitedChatModel, withRateLimit } from './wrappers/with-rate-limit.js';
import { type RetryDependencies, type RetryEvent, withRetry } from './wrappers/with-retry.js';
import { withSettings } from './wrappers/with-settings.js';
import { type Semaphore, withSharedLimit } from './wrappers/with-shared-limit.js';

export interface ChatModelDependencies {
  /** The API key for an HTTP model, already read from the environment (undefined when none is needed). */
  readonly apiKey?: string;
  readonly fetch?: typeof globalThis.fetch;
  readonly retry?: RetryDependencies;
  readonly rateLimit?: RateLimitDependencies;
  readonly onRetry?: (model: string, event: RetryEvent) => void;
  readonly now?: () => number;
  /** The run's global concurrency, shared by every model (held innermost, only while a call is on the wire). */
  readonly sharedLimit?: Semaphore;
  /** Ends waits that are not calls (retry back-off, rate-limit queue) when the run stops. */
  readonly waitSignal?: AbortSignal;
  /**
   * Layers of the caller's (call cache, run control, progress) placed just inside the model's own
   * settings, so that they see the request exactly as it is sent.
   */
  readonly decorate?: (model: ChatModel) => ChatModel;
}

export interface BuiltChatModel {
  /** The model to call: settings, cost, retry and rate limit wrapped around the adapter. */
  readonly model: ChatModel;
  /** The limiter, for progress displays (absent for simulated agents). */
  readonly limiter?: RateLimitedChatModel;
}

function createAdapter(settings: ModelSettings, dependencies: ChatModelDependencies): ChatModel {
  const provider = findProvider(settings.provider);
  if (!provider) throw new RangeError(`unknown provider ${settings.provider}`);
  if (provider.kind === 'sim') return new SimulatedAgent(settings.name, `sim/${settings.model}`);
  if (provider.kind === 'llama') return new LlamaChatModel(settings);
  const { languageModel, providerOptions } = createLanguageModel(provider, settings, dependencies.apiKey, dependencies.fetch);
  return new AiSdkChatModel(languageModel, {
    name: settings.name,
    provider: settings.provider,
    model: settings.model,
    timeoutMs: settings.timeoutMs,
    ...(settings.apiKeyEnv ? { apiKeyEnv: settings.apiKeyEnv } : {}),
    ...(providerOptions ? { providerOptions } : {}),
    ...(dependencies.now ? { now: dependencies.now } : {}),
  });
}

/**
 * A ready-to-call model from its resolved settings. Behaviour is layered by wrapping, outermost
 * first: the model's own temperature and token limit; the caller's layers (`decorate`: call cache,
 * run control); cost from its prices; the one retry layer; the per-model rate limiter (so every
 * retry passes the limiter and a 429 slows the whole model down); the run's shared concurrency
 * limit; the adapter. Simulated agents skip retry and rate limiting.
 */
export function createChatModel(settings: ModelSettings, dependencies: ChatModelDependencies = {}): BuiltChatModel {
  const adapter = createAdapter(settings, dependencies);
  const prices = {
    ...(settings.inputUsdPerMillion === undefined ? {} : { inputUsdPerMillion: settings.inputUsdPerMillion }),
    ...(settings.outputUsdPerMillion === undefined ? {} : { outputUsdPerMillion: settings.outputUsdPerMillion }),
  };
  const override = {
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
    ...(settings.maxTokens === undefined ? {} : { maxTokens: settings.maxTokens }),
  };
  const decorate = dependencies.decorate ?? ((model: ChatModel) => model);
  const base = dependencies.sharedLimit ? withSharedLimit(adapter, dependencies.sharedLimit) : adapter;
  if (adapter.simulated) return { model: withSettings(decorate(withCost(base, prices)), override) };

  const limiter = withRateLimit(
    base,
    {
      ...(settings.maxConcurrency === undefined ? {} : { maxConcurrency: settings.maxConcurrency }),
      ...(settings.requestsPerMinute === undefined ? {} : { requestsPerMinute: settings.requestsPerMinute }),
      ...(settings.tokensPerMinute === undefined ? {} : { tokensPerMinute: settings.tokensPerMinute }),
    },
    dependencies.rateLimit,
    dependencies.waitSignal,
  );
  const onRetry = dependencies.onRetry;
  const retried = withRetry(
    limiter,
    {
      maxRetries: settings.maxRetries,
      ...(settings.maxRetryAfterMs === undefined ? {} : { maxRetryAfterMs: settings.maxRetryAfterMs }),
      ...(onRetry ? { onRetry: (event: RetryEvent) => onRetry(settings.name, event) } : {}),
      ...(dependencies.waitSignal ? { waitSignal: dependencies.waitSignal } : {}),
    },
    dependencies.retry,
  );
  return { model: withSettings(decorate(withCost(retried, prices)), override), limiter };
}
