import type { BatchLedger } from './batch/batch-ledger.js';
import type { BatchView } from './batch/batch-queue.js';
import type { BatchWork } from './batch/batch-work.js';
import { batchCalls, batchPricesOf, batchSettingsOf } from './batch/with-batch.js';
import type { ChatModel } from './chat-model.js';
import { type ChatModelMiddleware, decorate, toMiddleware } from './decorate.js';
import { endpointOf } from './model-identity.js';
import type { ModelSettings } from './model-settings.js';
import { LazyChatModel } from './providers/lazy-chat-model.js';
import { LlamaChatModel } from './providers/llama/llama-model.js';
import { OpenAiChatModel } from './providers/openai-chat-model.js';
import { findProvider, type ProviderInfo } from './providers/provider-catalog.js';
import { type ReplicaEvent, ReplicaPool, type ReplicaPoolView } from './providers/replicas/replica-pool.js';
import { SimulatedAgent } from './sim/simulated-agent.js';
import type { SimulatedProtocol } from './sim/simulated-protocol.js';
import { watchTheWire } from './wrappers/watch-the-wire.js';
import { addCost, type Prices } from './wrappers/with-cost.js';
import { limitRate, type RateLimitDependencies, type RateLimitedChatModel, type RateLimitOptions } from './wrappers/with-rate-limit.js';
import { type RetryDependencies, type RetryEvent, type RetryOptions, retryCalls } from './wrappers/with-retry.js';
import { applySettings, type SettingsOverride } from './wrappers/with-settings.js';
import { holdSharedLimit, type Semaphore } from './wrappers/with-shared-limit.js';

export interface ChatModelDependencies {
  /** The API key for an HTTP model, already read from the environment (undefined when none is needed). */
  readonly apiKey?: string;
  readonly fetch?: typeof globalThis.fetch;
  readonly retry?: RetryDependencies;
  readonly rateLimit?: RateLimitDependencies;
  readonly onRetry?: (model: string, event: RetryEvent) => void;
  /** The wall clock in ms (Retry-After dates; replica cool-downs); `Date.now` unless given. */
  readonly now?: () => number;
  /** Told when a replica of a model served by several goes out of its pool or answers again. */
  readonly onReplicaEvent?: (model: string, event: ReplicaEvent) => void;
  /** The run's global concurrency, shared by every model (held innermost, only while a call is on the wire). */
  readonly sharedLimit?: Semaphore;
  /**
   * The run stopping (a first Ctrl-C): ends waits that are not calls (retry back-off, rate-limit queue,
   * a free shared slot, a replica with room), and no call goes out after it: none waiting starts, no failed one
   * is tried again or sent to another replica. Calls already on the wire finish.
   */
  readonly waitSignal?: AbortSignal;
  /**
   * Told when a call of `model` goes out (past its rate limiter and the shared slot, every retry
   * anew); the function it returns is called when that call comes back. For "on the wire" counts.
   */
  readonly onTheWire?: (model: string) => () => void;
  /**
   * Layers of the caller's (call cache, run control, progress) placed just inside the model's own
   * settings, so that they see the request exactly as it is sent: a list of middlewares (first
   * outermost), or one decorator in function form.
   */
  readonly decorate?: readonly ChatModelMiddleware[] | ((model: ChatModel) => ChatModel);
  /** Where batches are recorded, for models whose calls go through their provider's batch service. */
  readonly batch?: ModelBatching;
  /** The run's protocol's simulated replies, for its `sim/` agents (none: they know PMIYC's requests alone). */
  readonly simulatedProtocol?: SimulatedProtocol;
}

/** What batching needs from the run: the ledger, each model's call identity, `--batch`, and who is told of each batch. */
interface ModelBatching {
  readonly ledger: BatchLedger;
  readonly identityOf: (settings: ModelSettings) => string;
  /** `--batch`: every model that can batch does, not only those with `batch:` in the config. */
  readonly all: boolean;
  readonly onBatch?: (view: BatchView) => void;
  /** The run's batch work in flight (submissions, polls), which its session waits for before the store closes. */
  readonly work?: BatchWork;
}

export interface BuiltChatModel {
  /** The model to call: settings, cost, retry and rate limit wrapped around the adapter. */
  readonly model: ChatModel;
  /**
   * The same model, also showing its rate limiter's state, for progress displays (absent for
   * simulated agents). Its `generate` is `model.generate`.
   */
  readonly limiter?: RateLimitedChatModel;
  /** For a model served by several replicas: each replica's calls and health now, and the failovers so far. */
  readonly replicas?: () => ReplicaPoolView;
}

/**
 * The adapter that calls the model: one server's, or, for a model served by several replicas, a
 * pool of one adapter per replica behind one ChatModel (providers/replicas/replica-pool.ts).
 */
function createServingAdapter(settings: ModelSettings, dependencies: ChatModelDependencies): { adapter: ChatModel; pool?: ReplicaPool } {
  const { replicas, ...oneServer } = settings;
  if (replicas === undefined || replicas.length === 0) return { adapter: createAdapter(oneServer, dependencies) };
  if (replicas.length === 1) return { adapter: createAdapter({ ...oneServer, baseURL: replicas[0]! }, dependencies) };
  const kind = findProvider(settings.provider)?.kind;
  if (kind === 'sim' || kind === 'llama') throw new RangeError(`${settings.name}: ${settings.provider}/ models run inside pmiyc and have no replicas`);
  const onReplicaEvent = dependencies.onReplicaEvent;
  const pool = new ReplicaPool({
    name: settings.name,
    replicas: replicas.map((baseURL) => ({ endpoint: endpointOf(baseURL), model: createAdapter({ ...oneServer, baseURL }, dependencies) })),
    now: dependencies.now ?? Date.now,
    ...(dependencies.waitSignal ? { stopSignal: dependencies.waitSignal } : {}),
    ...(settings.replicaConcurrency === undefined ? {} : { replicaConcurrency: settings.replicaConcurrency }),
    ...(onReplicaEvent ? { onReplicaEvent: (event: ReplicaEvent) => onReplicaEvent(settings.name, event) } : {}),
  });
  return { adapter: pool, pool };
}

function createAdapter(settings: ModelSettings, dependencies: ChatModelDependencies): ChatModel {
  const provider = findProvider(settings.provider);
  if (!provider) throw new RangeError(`unknown provider ${settings.provider}`);
  if (provider.kind === 'sim') return new SimulatedAgent(settings.name, `sim/${settings.model}`, dependencies.simulatedProtocol);
  if (provider.kind === 'llama') return new LlamaChatModel(settings);
  if (usesDirectClient(provider, settings, dependencies)) {
    return new OpenAiChatModel({
      name: settings.name,
      provider: settings.provider,
      model: settings.model,
      baseURL: (settings.baseURL ?? provider.defaultBaseURL)!,
      timeoutMs: settings.timeoutMs,
      supportsSeed: provider.supportsSeed,
      ...(settings.maxReplyBytes === undefined ? {} : { maxReplyBytes: settings.maxReplyBytes }),
      ...(dependencies.apiKey ? { apiKey: dependencies.apiKey } : {}),
      ...(settings.apiKeyEnv ? { apiKeyEnv: settings.apiKeyEnv } : {}),
      ...(settings.headers ? { headers: settings.headers } : {}),
      ...(settings.providerOptions ? { extraBody: settings.providerOptions } : {}),
      ...(dependencies.now ? { now: dependencies.now } : {}),
    });
  }
  // The AI SDK is loaded on the first call of such a model, not at start-up.
  return new LazyChatModel(settings.name, async () =>
    (await import('./providers/ai-sdk/ai-sdk-adapter.js')).createAiSdkChatModel(provider, settings, dependencies),
  );
}

/**
 * The OpenAI chat completions family goes through pmiyc's own adapter (openai-chat-model.ts, on the
 * HTTP transport): every OpenAI-compatible server, and OpenAI itself unless the config passes SDK
 * provider options. The other families (Azure, Anthropic, Google) and an injected fetch use the AI SDK.
 */
function usesDirectClient(provider: ProviderInfo, settings: ModelSettings, dependencies: ChatModelDependencies): boolean {
  if (dependencies.fetch !== undefined) return false;
  if (provider.kind === 'openai-compatible') return (settings.baseURL ?? provider.defaultBaseURL) !== undefined;
  return provider.kind === 'openai' && settings.providerOptions === undefined;
}

/**
 * A ready-to-call model from its resolved settings. Behaviour is layered by one list of
 * middlewares, outermost first: the model's own temperature and token limit; the caller's layers
 * (`decorate`: call cache, run control); cost from its prices; the one retry layer; the per-model
 * rate limiter (so every retry passes the limiter and a 429 slows the whole model down); the run's
 * shared concurrency limit (so a slot is held only while a call is on the wire); the watch that
 * counts calls on the wire (`onTheWire`); the adapter (for a model served by several replicas, a
 * pool of adapters that spreads the calls and fails over inside one try). A batched model (`batch:`
 * or `--batch`) has the batching layer just below cost (priced at batch prices): its calls go to
 * the provider's batch service, and only failed lines sent as direct calls pass the layers beneath.
 * Simulated agents skip retry and rate limiting.
 */
export function createChatModel(settings: ModelSettings, dependencies: ChatModelDependencies = {}): BuiltChatModel {
  const { adapter, pool } = createServingAdapter(settings, dependencies);
  const onTheWire = dependencies.onTheWire;
  const rateLimit = adapter.simulated ? undefined : limitRate(rateLimitOptionsOf(settings), dependencies.rateLimit, dependencies.waitSignal);
  const batching = adapter.simulated ? undefined : batchLayerOf(settings, dependencies);
  const model = decorate(adapter, [
    applySettings(settingsOverrideOf(settings)),
    ...callerLayersOf(dependencies.decorate),
    addCost(batching ? batchPricesOf(settings) : pricesOf(settings)),
    ...(batching ? [batching] : []),
    ...(rateLimit ? [retryCalls(retryOptionsOf(settings, dependencies), dependencies.retry), rateLimit] : []),
    ...(dependencies.sharedLimit ? [holdSharedLimit(dependencies.sharedLimit, dependencies.waitSignal)] : []),
    ...(onTheWire ? [watchTheWire(() => onTheWire(settings.name))] : []),
  ]);
  return {
    model,
    ...(rateLimit ? { limiter: { ...model, limiterState: rateLimit.limiterState } } : {}),
    ...(pool ? { replicas: () => pool.view() } : {}),
  };
}

/** The batching layer of a model whose calls are batched (its `batch:` or `--batch`), placed just below the cost layer. */
function batchLayerOf(settings: ModelSettings, dependencies: ChatModelDependencies): ChatModelMiddleware | undefined {
  const batching = dependencies.batch;
  const batchSettings = batching ? batchSettingsOf(settings, batching.all) : undefined;
  if (!batching || !batchSettings) return undefined;
  return batchCalls(settings, {
    ledger: batching.ledger,
    modelIdentity: batching.identityOf(settings),
    settings: batchSettings,
    now: dependencies.now ?? Date.now,
    ...(dependencies.apiKey ? { apiKey: dependencies.apiKey } : {}),
    ...(dependencies.waitSignal ? { waitSignal: dependencies.waitSignal } : {}),
    ...(batching.onBatch ? { onBatch: batching.onBatch } : {}),
    ...(batching.work ? { work: batching.work } : {}),
  });
}

function callerLayersOf(layers: ChatModelDependencies['decorate']): readonly ChatModelMiddleware[] {
  if (layers === undefined) return [];
  return typeof layers === 'function' ? [toMiddleware(layers)] : layers;
}

function settingsOverrideOf(settings: ModelSettings): SettingsOverride {
  return {
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
    ...(settings.maxTokens === undefined ? {} : { maxTokens: settings.maxTokens }),
    ...(settings.structuredOutput === undefined ? {} : { structuredOutput: settings.structuredOutput }),
  };
}

function pricesOf(settings: ModelSettings): Prices {
  return {
    ...(settings.inputUsdPerMillion === undefined ? {} : { inputUsdPerMillion: settings.inputUsdPerMillion }),
    ...(settings.outputUsdPerMillion === undefined ? {} : { outputUsdPerMillion: settings.outputUsdPerMillion }),
    ...(settings.cachedInputUsdPerMillion === undefined ? {} : { cachedInputUsdPerMillion: settings.cachedInputUsdPerMillion }),
    ...(settings.cacheWriteUsdPerMillion === undefined ? {} : { cacheWriteUsdPerMillion: settings.cacheWriteUsdPerMillion }),
  };
}

function rateLimitOptionsOf(settings: ModelSettings): RateLimitOptions {
  // Without a model-wide limit, the replicas' limits added up are the model's: more calls could only wait in the pool.
  const maxConcurrency = settings.maxConcurrency ?? (settings.replicaConcurrency ?? 0) * (settings.replicas?.length ?? 1);
  return {
    ...(maxConcurrency > 0 ? { maxConcurrency } : {}),
    ...(settings.requestsPerMinute === undefined ? {} : { requestsPerMinute: settings.requestsPerMinute }),
    ...(settings.tokensPerMinute === undefined ? {} : { tokensPerMinute: settings.tokensPerMinute }),
  };
}

function retryOptionsOf(settings: ModelSettings, dependencies: ChatModelDependencies): RetryOptions {
  const onRetry = dependencies.onRetry;
  return {
    maxRetries: settings.maxRetries,
    ...(settings.maxRetryAfterMs === undefined ? {} : { maxRetryAfterMs: settings.maxRetryAfterMs }),
    ...(onRetry ? { onRetry: (event: RetryEvent) => onRetry(settings.name, event) } : {}),
    ...(dependencies.waitSignal ? { waitSignal: dependencies.waitSignal } : {}),
  };
}
