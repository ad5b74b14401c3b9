import type { ChatModelMiddleware } from '../decorate.js';
import type { ModelSettings } from '../model-settings.js';
import { findProvider } from '../providers/provider-catalog.js';
import type { Prices } from '../wrappers/with-cost.js';
import { AnthropicBatchProvider } from './anthropic-batch-provider.js';
import type { BatchLedger } from './batch-ledger.js';
import type { BatchProvider } from './batch-provider.js';
import { BatchQueue, type BatchSettings, type BatchView } from './batch-queue.js';
import type { BatchWork } from './batch-work.js';
import { OpenAiBatchProvider } from './openai-batch-provider.js';

const DEFAULT_BATCH_SIZE = 10_000;
const DEFAULT_POLL_SECONDS = 60;
const DEFAULT_QUIET_SECONDS = 5;

/** The providers whose batch service pmiyc speaks. */
export const BATCH_PROVIDERS: readonly string[] = ['openai', 'anthropic'];

/**
 * Whether a model's calls can be batched: its provider has a batch service pmiyc speaks, and it has
 * no `providerOptions` (AI SDK options, which a batch line cannot carry as they are).
 */
export function canBatch(settings: ModelSettings): boolean {
  return BATCH_PROVIDERS.includes(findProvider(settings.provider)?.kind ?? '') && settings.providerOptions === undefined;
}

/** A model's batch settings when its calls are batched (its `batch:` in the config, or `--batch` for all), else undefined. */
export function batchSettingsOf(settings: ModelSettings, batchAll: boolean): BatchSettings | undefined {
  const configured = settings.batch ?? (batchAll ? {} : undefined);
  if (configured === undefined) return undefined;
  return {
    size: configured.size ?? DEFAULT_BATCH_SIZE,
    pollMs: (configured.pollSeconds ?? DEFAULT_POLL_SECONDS) * 1000,
    quietMs: (configured.quietSeconds ?? DEFAULT_QUIET_SECONDS) * 1000,
    failedLines: configured.failedLines ?? 'retry',
  };
}

/**
 * What a batched call costs per million tokens: the configured batch prices, else half the direct
 * ones (OpenAI's and Anthropic's batch discount; `assumed` says the config did not give them).
 */
export function batchPricesOf(settings: ModelSettings): Prices & { assumed: boolean } {
  const half = (price: number | undefined) => (price === undefined ? undefined : price / 2);
  const input = settings.batchInputUsdPerMillion ?? half(settings.inputUsdPerMillion);
  const output = settings.batchOutputUsdPerMillion ?? half(settings.outputUsdPerMillion);
  const assumed =
    (settings.batchInputUsdPerMillion === undefined && settings.inputUsdPerMillion !== undefined) ||
    (settings.batchOutputUsdPerMillion === undefined && settings.outputUsdPerMillion !== undefined);
  // Cached and written input get the batch discount the plain input gets.
  const discount = input !== undefined && settings.inputUsdPerMillion ? input / settings.inputUsdPerMillion : 0.5;
  const discounted = (price: number | undefined) => (price === undefined ? undefined : price * discount);
  const cached = discounted(settings.cachedInputUsdPerMillion);
  const written = discounted(settings.cacheWriteUsdPerMillion);
  return {
    ...(input === undefined ? {} : { inputUsdPerMillion: input }),
    ...(output === undefined ? {} : { outputUsdPerMillion: output }),
    ...(cached === undefined ? {} : { cachedInputUsdPerMillion: cached }),
    ...(written === undefined ? {} : { cacheWriteUsdPerMillion: written }),
    assumed,
  };
}

function createBatchProvider(settings: ModelSettings, apiKey: string | undefined, now: () => number, waitSignal: AbortSignal | undefined): BatchProvider {
  const provider = findProvider(settings.provider);
  const caller = {
    name: settings.name,
    provider: settings.provider,
    model: settings.model,
    timeoutMs: settings.timeoutMs,
    now,
    ...(settings.apiKeyEnv ? { apiKeyEnv: settings.apiKeyEnv } : {}),
    ...(waitSignal ? { abortSignal: waitSignal } : {}),
  };
  const common = {
    ...caller,
    baseURL: (settings.baseURL ?? provider?.defaultBaseURL)!,
    ...(apiKey ? { apiKey } : {}),
    ...(settings.headers ? { headers: settings.headers } : {}),
  };
  if (provider?.kind === 'anthropic') return new AnthropicBatchProvider({ ...common, promptCache: settings.promptCache !== false });
  if (provider?.kind === 'openai') {
    return new OpenAiBatchProvider({
      ...common,
      supportsSeed: provider.supportsSeed,
    });
  }
  throw new RangeError(`${settings.name}: provider ${settings.provider} has no batch service pmiyc can use`);
}

export interface BatchDependencies {
  readonly ledger: BatchLedger;
  readonly modelIdentity: string;
  readonly settings: BatchSettings;
  readonly apiKey?: string;
  readonly now: () => number;
  readonly waitSignal?: AbortSignal;
  readonly onBatch?: (view: BatchView) => void;
  /** The run's batch work in flight, which its session waits for before the store closes. */
  readonly work?: BatchWork;
  /** The provider to use instead of the model's own (tests). */
  readonly provider?: BatchProvider;
}

/**
 * Sends a model's calls through its provider's batch service (docs/design/batches.md). It sits
 * below the call cache, where the retry and rate-limit layers would be: its `next` (retry, rate
 * limit, the adapter) is used only for failed lines when `failedLines: direct` says so.
 */
export function batchCalls(settings: ModelSettings, dependencies: BatchDependencies): ChatModelMiddleware {
  const provider = dependencies.provider ?? createBatchProvider(settings, dependencies.apiKey, dependencies.now, dependencies.waitSignal);
  return (next, model) => {
    const queue = new BatchQueue(
      {
        provider,
        providerName: settings.provider,
        ledger: dependencies.ledger,
        modelIdentity: dependencies.modelIdentity,
        settings: dependencies.settings,
        maxRetries: settings.maxRetries,
        now: dependencies.now,
        ...(dependencies.waitSignal ? { waitSignal: dependencies.waitSignal } : {}),
        ...(dependencies.onBatch ? { onBatch: dependencies.onBatch } : {}),
        ...(dependencies.work ? { work: dependencies.work } : {}),
      },
      next,
      model.name,
    );
    return (request) => queue.ask(request);
  };
}
