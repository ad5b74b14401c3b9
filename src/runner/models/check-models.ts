import type { PmiycConfig } from '../../config/config-schema.js';
import type { Environment } from '../../config/resolve-model-settings.js';
import { InputError } from '../../domain/errors/input-error.js';
import { BATCH_PROVIDERS, batchSettingsOf, canBatch } from '../../models/batch/with-batch.js';
import type { ModelSettings } from '../../models/model-settings.js';
import { createModelRegistry } from './model-registry.js';

/** A model's settings as stored with a run: header values are secrets and never stored. */
function redactSettings(settings: ModelSettings): ModelSettings {
  if (!settings.headers) return settings;
  return { ...settings, headers: Object.fromEntries(Object.keys(settings.headers).map((name) => [name, '<redacted>'])) };
}

/**
 * Every model named, built now, so that bad names and missing keys fail before any call (and
 * before a store is made); with a budget, every real model needs prices. Returns the models'
 * settings as stored with the run (no keys, no header values).
 */
export function checkModels(config: PmiycConfig, env: Environment, names: readonly string[], maxCostUsd?: number): Record<string, ModelSettings> {
  const registry = createModelRegistry(config, env);
  for (const name of names) registry.modelFor(name);
  if (maxCostUsd !== undefined) {
    const unpriced = names.filter((name) => {
      const settings = registry.settingsFor(name);
      return settings.provider !== 'sim' && (settings.inputUsdPerMillion === undefined || settings.outputUsdPerMillion === undefined);
    });
    if (unpriced.length > 0)
      throw new InputError(`--max-cost needs prices for every model: set inputUsdPerMillion and outputUsdPerMillion for ${unpriced.join(', ')} in the config`);
  }
  return Object.fromEntries(names.map((name) => [name, redactSettings(registry.settingsFor(name))]));
}

/**
 * The models whose calls are batched (`batch:` in the config, or all with `--batch`); a model that
 * should be batched but whose provider has no batch service pmiyc speaks is an input error naming it.
 */
export function checkBatching(config: PmiycConfig, env: Environment, names: readonly string[], batchAll: boolean): string[] {
  const registry = createModelRegistry(config, env);
  const batched = names.filter((name) => batchSettingsOf(registry.settingsFor(name), batchAll) !== undefined);
  const unable = batched.filter((name) => !canBatch(registry.settingsFor(name)));
  if (unable.length > 0) {
    const why = unable
      .map((name) => {
        const settings = registry.settingsFor(name);
        return settings.providerOptions === undefined ? `${name} (provider ${settings.provider})` : `${name} (it has providerOptions)`;
      })
      .join(', ');
    const remedy = batchAll
      ? 'run without --batch and set batch: under the models that can batch in the config'
      : 'remove batch: from these models in the config';
    throw new InputError(`${why} cannot batch: only ${BATCH_PROVIDERS.join(' and ')} models without providerOptions can; ${remedy}`);
  }
  return batched;
}
