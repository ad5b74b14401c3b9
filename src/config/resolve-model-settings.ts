import { InputError } from '../domain/input-error.js';
import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, type ModelSettings } from '../models/model-settings.js';
import { findProvider, PROVIDER_NAMES, type ProviderInfo } from '../models/providers/provider-catalog.js';
import type { ModelEntry, PmiycConfig } from './config-schema.js';

export type Environment = Readonly<Record<string, string | undefined>>;

function splitModelName(name: string, config: PmiycConfig): { provider: ProviderInfo; model: string } {
  const slash = name.indexOf('/');
  const aliases = Object.keys(config.models);
  const aliasHint = aliases.length > 0 ? ` or a config alias (${aliases.join(', ')})` : '';
  if (slash <= 0 || slash === name.length - 1) {
    throw new InputError(`"${name}" is not a model name: write provider/model, e.g. openai/gpt-4o-mini or sim/eloquent${aliasHint}`);
  }
  const providerName = name.slice(0, slash);
  const provider = findProvider(providerName);
  if (!provider) {
    throw new InputError(`unknown provider "${providerName}" in "${name}": use one of ${PROVIDER_NAMES.join(', ')}${aliasHint}`);
  }
  return { provider, model: name.slice(slash + 1) };
}

function azureBaseURL(env: Environment): string | undefined {
  const resourceName = env['AZURE_RESOURCE_NAME'];
  return resourceName ? `https://${resourceName}.openai.azure.com/openai` : undefined;
}

function resolveBaseURL(provider: ProviderInfo, entry: Partial<ModelEntry>, env: Environment, name: string): string | undefined {
  const baseURL =
    entry.baseURL ??
    (provider.baseURLEnv ? env[provider.baseURLEnv] : undefined) ??
    (provider.kind === 'azure' ? azureBaseURL(env) : undefined) ??
    provider.defaultBaseURL;
  if (baseURL === undefined && (provider.baseURLRequired || provider.kind === 'azure')) {
    const variable = provider.kind === 'azure' ? 'AZURE_RESOURCE_NAME (or AZURE_BASE_URL)' : provider.baseURLEnv;
    throw new InputError(`${name} needs a base URL: set baseURL for it in the config, or export ${variable}`);
  }
  return baseURL;
}

/**
 * What a model name means: a config alias, or `provider/model` with the provider's defaults.
 * Pure: the environment is passed in. Keys are not read here, only the name of their variable.
 */
export function resolveModelSettings(name: string, config: PmiycConfig, env: Environment): ModelSettings {
  const aliased = config.models[name];
  const { provider, model } = aliased ? { provider: findProvider(aliased.provider)!, model: aliased.model } : splitModelName(name, config);
  const entry: Partial<ModelEntry> = aliased ?? {};
  const baseURL = provider.kind === 'llama' || provider.kind === 'sim' ? undefined : resolveBaseURL(provider, entry, env, name);
  const apiKeyEnv = entry.apiKeyEnv ?? provider.apiKeyEnv;
  const { provider: _provider, model: _model, baseURL: _baseURL, apiKeyEnv: _apiKeyEnv, timeoutMs, maxRetries, ...rest } = entry;
  return {
    ...rest,
    name,
    provider: provider.name,
    model,
    ...(baseURL ? { baseURL } : {}),
    ...(apiKeyEnv ? { apiKeyEnv } : {}),
    timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: maxRetries ?? DEFAULT_MAX_RETRIES,
  };
}

/**
 * The API key for a model from the environment, or a clear error when a required one is missing.
 * The key goes to the adapter and nowhere else.
 */
export function apiKeyFor(settings: ModelSettings, env: Environment): string | undefined {
  const provider = findProvider(settings.provider)!;
  const key = settings.apiKeyEnv ? env[settings.apiKeyEnv] : undefined;
  if (provider.apiKeyRequired && !key) {
    throw new InputError(`${settings.apiKeyEnv ?? 'the API key variable'} is not set: export it, or set apiKeyEnv for ${settings.name} in the config`);
  }
  return key || undefined;
}
