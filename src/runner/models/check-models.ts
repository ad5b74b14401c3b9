import type { PmiycConfig } from '../../config/config-schema.js';
import { type Environment, resolveModelSettings } from '../../config/resolve-model-settings.js';
import { InputError } from '../../domain/errors/input-error.js';
import { BATCH_PROVIDERS, batchSettingsOf, canBatch } from '../../models/batch/with-batch.js';
import type { ModelSettings } from '../../models/model-settings.js';
import type { SimulatedProtocol } from '../../models/sim/simulated-protocol.js';
import { createModelRegistry } from './model-registry.js';

/**
 * A session's models, set up once: the names the run calls them by and each one's settings, resolved
 * from the config when first asked for and then kept. Every step of a session (the check before it,
 * what serves each model, the models it calls) reads them from here rather than from the config again.
 */
export interface SessionModels {
  readonly config: PmiycConfig;
  readonly names: readonly string[];
  settingsFor(name: string): ModelSettings;
}

/** The models of a checked session: their settings as stored with the run, and which are batched. */
export interface CheckedModels extends SessionModels {
  /** Each model's settings as stored with the run (no keys, no header values). */
  readonly stored: Record<string, ModelSettings>;
  /** The models whose calls go through their provider's batch service (empty unless batching was checked). */
  readonly batched: readonly string[];
}

/** What to check of a session's models besides that each is known and keyed. */
export interface ModelChecks {
  /** With a budget, every real model needs prices. */
  readonly maxCostUsd?: number | undefined;
  /** Check that the batched models can batch (`all`: every model is, `--batch`); unchecked, none is counted as batched. */
  readonly batching?: { readonly all: boolean };
  /** The run's protocol's simulated replies: its `sim/` agents' keys of its namespace are checked by it, any other refused. */
  readonly simulatedProtocol?: SimulatedProtocol | undefined;
}

/** A session's models over the config, each one's settings resolved when first asked for and kept (no check made). */
export function sessionModelsOf(config: PmiycConfig, env: Environment, names: readonly string[]): SessionModels {
  const resolved = new Map<string, ModelSettings>();
  const settingsFor = (name: string) => {
    let settings = resolved.get(name);
    if (settings === undefined) {
      settings = resolveModelSettings(name, config, env);
      resolved.set(name, settings);
    }
    return settings;
  };
  return { config, names, settingsFor };
}

/** A model's settings as stored with a run: header values are secrets and never stored. */
function redactSettings(settings: ModelSettings): ModelSettings {
  if (!settings.headers) return settings;
  return { ...settings, headers: Object.fromEntries(Object.keys(settings.headers).map((name) => [name, '<redacted>'])) };
}

/**
 * Sets up a session's models once: every model named is built now, so that bad names and missing keys
 * fail before any call (and before a store is made); with a budget, every real model needs prices; with
 * `batching`, every batched model must be able to batch. Each step refuses with an InputError.
 */
export function setUpSessionModels(config: PmiycConfig, env: Environment, names: readonly string[], checks: ModelChecks = {}): CheckedModels {
  const models = sessionModelsOf(config, env, names);
  const registry = createModelRegistry(config, env, {
    settingsFor: models.settingsFor,
    ...(checks.simulatedProtocol ? { simulatedProtocol: checks.simulatedProtocol } : {}),
  });
  for (const name of names) registry.modelFor(name);
  if (checks.maxCostUsd !== undefined) refuseUnpriced(names.map(registry.settingsFor));
  const batched = checks.batching ? batchedModels(names.map(registry.settingsFor), checks.batching.all) : [];
  const stored = Object.fromEntries(names.map((name) => [name, redactSettings(registry.settingsFor(name))]));
  return { ...models, stored, batched };
}

/**
 * Every model named, built now, so that bad names and missing keys fail before any call (and
 * before a store is made); with a budget, every real model needs prices. Returns the models'
 * settings as stored with the run (no keys, no header values).
 */
export function checkModels(config: PmiycConfig, env: Environment, names: readonly string[], maxCostUsd?: number): Record<string, ModelSettings> {
  return setUpSessionModels(config, env, names, { maxCostUsd }).stored;
}

function refuseUnpriced(models: readonly ModelSettings[]): void {
  const unpriced = models.filter(
    (settings) => settings.provider !== 'sim' && (settings.inputUsdPerMillion === undefined || settings.outputUsdPerMillion === undefined),
  );
  if (unpriced.length > 0)
    throw new InputError(
      `--max-cost needs prices for every model: set inputUsdPerMillion and outputUsdPerMillion for ${unpriced.map((settings) => settings.name).join(', ')} in the config`,
    );
}

/**
 * The models whose calls are batched (`batch:` in the config, or all with `--batch`); a model that
 * should be batched but whose provider has no batch service pmiyc speaks is an input error naming it.
 */
function batchedModels(models: readonly ModelSettings[], batchAll: boolean): string[] {
  const batched = models.filter((settings) => batchSettingsOf(settings, batchAll) !== undefined);
  const unable = batched.filter((settings) => !canBatch(settings));
  if (unable.length > 0) {
    const why = unable
      .map((settings) =>
        settings.providerOptions === undefined ? `${settings.name} (provider ${settings.provider})` : `${settings.name} (it has providerOptions)`,
      )
      .join(', ');
    const remedy = batchAll
      ? 'run without --batch and set batch: under the models that can batch in the config'
      : 'remove batch: from these models in the config';
    throw new InputError(`${why} cannot batch: only ${BATCH_PROVIDERS.join(' and ')} models without providerOptions can; ${remedy}`);
  }
  return batched.map((settings) => settings.name);
}
