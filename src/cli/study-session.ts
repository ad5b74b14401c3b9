import type { PmiycConfig } from '../config/config-schema.js';
import { InputError } from '../domain/input-error.js';
import type { ModelSettings } from '../models/model-settings.js';
import { RunGate } from '../runner/run-gate.js';
import { RunMeter } from '../runner/run-meter.js';
import type { ResultStore, RunInfo } from '../store/result-store.js';
import { createModelRegistry, type ModelRegistry } from './model-registry.js';
import { startProgressDisplay } from './progress-display.js';
import { redactSettings } from './run-design.js';
import { createRunModels } from './run-models.js';
import type { CliContext, RunSignals } from './terminal.js';

/**
 * Every model named, built now, so that bad names and missing keys fail before any call; with a
 * budget, every real model needs prices. Returns the models' settings as stored with the run.
 */
export function checkStudyModels(
  config: PmiycConfig,
  names: readonly string[],
  maxCost: number | undefined,
  context: CliContext,
): Record<string, ModelSettings> {
  const registry = createModelRegistry(config, context.env);
  for (const name of names) registry.modelFor(name);
  if (maxCost !== undefined) {
    const unpriced = names.filter((name) => {
      const settings = registry.settingsFor(name);
      return settings.provider !== 'sim' && (settings.inputUsdPerMillion === undefined || settings.outputUsdPerMillion === undefined);
    });
    if (unpriced.length > 0)
      throw new InputError(`--max-cost needs prices for every model: set inputUsdPerMillion and outputUsdPerMillion for ${unpriced.join(', ')} in the config`);
  }
  return Object.fromEntries(names.map((name) => [name, redactSettings(registry.settingsFor(name))]));
}

export interface StudySessionOptions {
  readonly store: ResultStore;
  readonly run: RunInfo;
  /** True when an earlier session of the run spent money already (--resume). */
  readonly resumed: boolean;
  readonly config: PmiycConfig;
  readonly names: readonly string[];
  readonly concurrency: number;
  readonly cache: boolean;
  readonly maxCost?: number;
  readonly progressIntervalMs?: number;
  /** What the progress line counts ("trials", "claims") and how many there are. */
  readonly unit: string;
  readonly total: number;
}

export interface StudySession {
  readonly registry: ModelRegistry;
  readonly gate: RunGate;
  readonly meter: RunMeter;
  /** Stops the progress display and stops listening for Ctrl-C. */
  end(): void;
}

/**
 * The machinery of a study session, shared with tournaments: models behind the run's call cache
 * (every call committed before use, replayed on resume), the run gate (first Ctrl-C, budget),
 * global concurrency, and the progress display.
 */
export function startStudySession(options: StudySessionOptions, context: CliContext, signals: RunSignals): StudySession {
  const { store, run } = options;
  const gate = new RunGate(options.maxCost, options.resumed ? store.spentUsd(run.id) : 0);
  const meter = new RunMeter();
  const registry = createRunModels(options.config, context.env, {
    cache: store.callCache(run.id),
    gate,
    meter,
    concurrency: options.concurrency,
    noCache: !options.cache,
    onRetry: (_model, message) => context.stderr.write(`pmiyc: ${message}; retrying\n`),
    now: () => context.now().getTime(),
  });
  const onStop = () => gate.stop('interrupted');
  signals.stop.addEventListener('abort', onStop, { once: true });
  const progress = startProgressDisplay(
    context.stderr,
    {
      meter,
      total: options.total,
      unit: options.unit,
      limiters: () => options.names.map((model) => ({ model, ...(registry.limiterFor(model) ? { state: registry.limiterFor(model)!.limiterState() } : {}) })),
      nowMs: () => context.now().getTime(),
    },
    options.progressIntervalMs,
  );
  return {
    registry,
    gate,
    meter,
    end() {
      signals.stop.removeEventListener('abort', onStop);
      progress.stop();
    },
  };
}
