import type { Environment } from '../../config/resolve-model-settings.js';
import type { BatchLedger } from '../../models/batch/batch-ledger.js';
import type { BatchWork } from '../../models/batch/batch-work.js';
import type { CallCache } from '../../models/call-cache.js';
import type { GenerateReply, GenerateRequest } from '../../models/chat-model.js';
import type { ChatModelMiddleware } from '../../models/decorate.js';
import { isModelCallError, type ModelCallError } from '../../models/model-call-error.js';
import type { ModelSettings } from '../../models/model-settings.js';
import type { ReplicaEvent } from '../../models/providers/replicas/replica-pool.js';
import type { SimulatedProtocol } from '../../models/sim/simulated-protocol.js';
import { cacheCalls } from '../../models/wrappers/with-call-cache.js';
import type { RetryDependencies, RetryEvent } from '../../models/wrappers/with-retry.js';
import { Semaphore } from '../../models/wrappers/with-shared-limit.js';
import { callErrorLabel, controlRun, refuseStoppedModel } from '../run-control.js';
import type { RunGate } from '../run-gate.js';
import type { RunMeter } from '../run-meter.js';
import type { SessionModels } from './check-models.js';
import { createModelRegistry, type ModelRegistry } from './model-registry.js';

/** Characters per token assumed for a budget: fewer than any common tokenizer on English, so the estimate errs high. */
const CAUTIOUS_CHARS_PER_TOKEN = 3;

/**
 * The most a request should cost with a model's prices: its input at a cautious token count plus its
 * whole output limit. A budget admits a call only when this still fits.
 */
function worstCaseCostUsd(settings: ModelSettings, request: GenerateRequest): number {
  const characters = request.messages.reduce((sum, message) => sum + message.content.length, 0);
  const inputTokens = Math.ceil(characters / CAUTIOUS_CHARS_PER_TOKEN);
  return (inputTokens * (settings.inputUsdPerMillion ?? 0) + request.maxOutputTokens * (settings.outputUsdPerMillion ?? 0)) / 1e6;
}

/**
 * Counts every request the run's work makes of a model, outermost (above the call cache): what the
 * cache answered (shared within the run, or replayed from an earlier run, which run control never
 * sees), the calls of the plan obtained (`planCallsDone`), and re-samples. A re-sample is a request
 * with the very `messages` array of an earlier one: the engine asks again with the same context
 * when a reply is unusable (engine/sample-turn.ts), while every new turn builds its own array.
 */
function countAsks(meter: RunMeter): ChatModelMiddleware {
  const asked = new WeakSet<GenerateRequest['messages']>();
  return (next, model) => async (request) => {
    const resample = asked.has(request.messages);
    if (resample) meter.resampled(model.name);
    else asked.add(request.messages);
    let reply: GenerateReply;
    try {
      reply = await next(request);
    } catch (error) {
      if (!resample && isModelCallError(error)) meter.planCallDone(model.name, true);
      throw error;
    }
    if (reply.replayedFrom !== undefined) meter.callReplayed(reply.replayedFrom);
    else if (reply.cached) meter.callsShared += 1;
    if (!resample && (!reply.cached || reply.replayedFrom !== undefined)) meter.planCallDone(model.name, !reply.cached);
    return reply;
  };
}

export interface RunModelOptions {
  /** The run's call cache, scoped to what it may reuse (`--no-cache`: only its own calls). */
  readonly cache: CallCache;
  readonly gate: RunGate;
  readonly meter: RunMeter;
  readonly concurrency: number;
  /** What serves each model, for the request hash (see models/model-identity.ts). */
  readonly identityOf: (settings: ModelSettings) => string;
  /** Request hashes never to replay (the failed turns of --retry-failed). */
  readonly refresh?: ReadonlySet<string>;
  readonly onRetry?: (model: string, event: RetryEvent) => void;
  readonly onModelBlocked?: (model: string, error: ModelCallError) => void;
  /** A model was stopped: its calls failed with a lasting cause several times in a row (see `RunGate.modelFailedLastingly`). */
  readonly onModelStopped?: (model: string, error: ModelCallError) => void;
  /** A replica of a model served by several went out of its pool, or answers again. */
  readonly onReplicaEvent?: (model: string, event: ReplicaEvent) => void;
  readonly now: () => number;
  /** The retry layer's clock and randomness (the real ones unless given: tests pass their own). */
  readonly retry?: RetryDependencies;
  /**
   * Where batches are recorded, `--batch` (every model batched, not only those with `batch:` in the config), and
   * the run's batch work in flight, which the session waits for before the store closes.
   */
  readonly batch?: { readonly ledger: BatchLedger; readonly all: boolean; readonly work?: BatchWork };
  /** Ends every wait and the batches' polls: the run stopping or its session ending (the gate's stop unless given). */
  readonly waitSignal?: AbortSignal;
  /** The run's protocol's simulated replies, for its `sim/` agents (in the adapter: below the call cache). */
  readonly simulatedProtocol?: SimulatedProtocol;
}

/**
 * The models of a run: each behind the call cache (sharing, resume, replay), the run's gate
 * (stop, budget, refused credentials) and meter, with the run's global concurrency shared by all
 * of them; waits end when the run stops.
 */
export function createRunModels(models: SessionModels, env: Environment, options: RunModelOptions): ModelRegistry {
  const retries = new WeakMap<GenerateRequest, number>();
  return createModelRegistry(models.config, env, {
    settingsFor: models.settingsFor,
    sharedLimit: new Semaphore(options.concurrency),
    ...(options.batch
      ? {
          batch: {
            ledger: options.batch.ledger,
            all: options.batch.all,
            identityOf: options.identityOf,
            onBatch: (view) => options.meter.batchChanged(view),
            ...(options.batch.work ? { work: options.batch.work } : {}),
          },
        }
      : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.simulatedProtocol ? { simulatedProtocol: options.simulatedProtocol } : {}),
    waitSignal: options.waitSignal ?? options.gate.stopped,
    now: options.now,
    ...(options.onReplicaEvent ? { onReplicaEvent: options.onReplicaEvent } : {}),
    onRetry: (model, event) => {
      retries.set(event.request, (retries.get(event.request) ?? 0) + 1);
      const nowMs = options.now();
      options.meter.retried(model, { label: callErrorLabel(event.error, model), atMs: nowMs }, nowMs + event.waitMs, event.error.statusCode === 429);
      options.onRetry?.(model, event);
    },
    onTheWire: (model) => {
      const cameBack = options.meter.wireStarted(model, options.now());
      return () => cameBack(options.now());
    },
    // Outermost first: a stopped model's calls fail at once; count requests and what the cache answered; the cache
    // (sharing, resume, replay); run control for real calls.
    decorateFor: (settings) => [
      refuseStoppedModel(options.gate),
      countAsks(options.meter),
      cacheCalls(options.cache, {
        modelIdentity: options.identityOf(settings),
        ...(options.refresh ? { refresh: options.refresh } : {}),
        retriesOf: (request) => retries.get(request) ?? 0,
        now: options.now,
      }),
      controlRun({
        gate: options.gate,
        meter: options.meter,
        estimateCostUsd: (request) => worstCaseCostUsd(settings, request),
        now: options.now,
        ...(options.onModelBlocked ? { onModelBlocked: options.onModelBlocked } : {}),
        ...(options.onModelStopped ? { onModelStopped: options.onModelStopped } : {}),
      }),
    ],
  });
}
