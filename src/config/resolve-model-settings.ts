import { InputError } from '../domain/errors/input-error.js';
import { DEFAULT_MAX_RETRIES, DEFAULT_MAX_RETRY_AFTER_MS, DEFAULT_TIMEOUT_MS, type ModelSettings } from '../models/model-settings.js';
import { findProvider, PROVIDER_NAMES, type ProviderInfo } from '../models/providers/provider-catalog.js';
import type { ModelEntry, PmiycConfig } from './config-schema.js';

export type Environment = Readonly<Record<string, string | undefined>>;

function splitModelName(name: string, config: PmiycConfig): { provider: ProviderInfo; model: string } {
  const slash = name.indexOf('/');
  const aliases = Object.keys(config.models);
  const aliasHint = aliases.length > 0 ? ` or a config alias (${aliases.join(', ')})` : '';
  if (slash <= 0 || slash === name.length - 1) {
    const plus = name.lastIndexOf('+');
    const variantHint = plus > 0 ? `; if "${name.slice(plus + 1)}" is meant as a prompt variant, define it under variants: in the config` : '';
    const configHint =
      aliases.length > 0 ? aliasHint : ', or an alias defined under models: in a config file (./pmiyc.yaml, or the file --config or PMIYC_CONFIG names)';
    throw new InputError(`"${name}" is not a model name: write provider/model, e.g. openai/gpt-4o-mini or sim/eloquent${configHint}${variantHint}`);
  }
  if (name.includes('+')) {
    // Commands with prompt variants take model+variant apart first; a "+" left here is a typo or an id that needs an alias.
    throw new InputError(
      `"${name}" is not a model name: a "+" introduces a prompt variant (defined under variants: in the config, for pmiyc run and converse); a model id that contains "+" is named by an alias under models: in the config`,
    );
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

/** Where a model is served: one base URL, or the replicas' (a one-entry list is the plain URL: same calls, same identity). */
function resolveServers(provider: ProviderInfo, entry: Partial<ModelEntry>, env: Environment, name: string): Pick<ModelSettings, 'baseURL' | 'replicas'> {
  if (provider.kind === 'llama' || provider.kind === 'sim') return {};
  if (Array.isArray(entry.baseURL) && entry.baseURL.length > 1) {
    for (const url of entry.baseURL) refuseCredentialsIn(url, `baseURL of ${name}`);
    return { replicas: entry.baseURL };
  }
  const single = Array.isArray(entry.baseURL) ? entry.baseURL[0] : entry.baseURL;
  const baseURL = resolveBaseURL(provider, single, env, name);
  return baseURL ? { baseURL } : {};
}

function resolveBaseURL(provider: ProviderInfo, configured: string | undefined, env: Environment, name: string): string | undefined {
  const fromEnv = provider.baseURLEnv ? env[provider.baseURLEnv] : undefined;
  const baseURL = configured ?? fromEnv ?? (provider.kind === 'azure' ? azureBaseURL(env) : undefined) ?? provider.defaultBaseURL;
  if (baseURL === undefined && (provider.baseURLRequired || provider.kind === 'azure')) {
    const variable = provider.kind === 'azure' ? 'AZURE_RESOURCE_NAME (or AZURE_BASE_URL)' : provider.baseURLEnv;
    throw new InputError(`${name} needs a base URL: set baseURL for it in the config, or export ${variable}`);
  }
  if (baseURL !== undefined) refuseCredentialsIn(baseURL, configured === undefined && fromEnv !== undefined ? provider.baseURLEnv! : `baseURL of ${name}`);
  return baseURL;
}

/** A key in a URL ends up in logs and in the run's record: keys come only from environment variables. */
function refuseCredentialsIn(baseURL: string, where: string): void {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new InputError(`${where} is not a URL ("${baseURL}"): write it as http://host:port/v1`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new InputError(
      `${where} holds credentials (user:password@): remove them, and put the key in an environment variable named by apiKeyEnv (or in headers)`,
    );
  }
}

/**
 * What a model name means: a config alias, or `provider/model` with the provider's defaults.
 * Pure: the environment is passed in. Keys are not read here, only the name of their variable.
 */
export function resolveModelSettings(name: string, config: PmiycConfig, env: Environment): ModelSettings {
  const aliased = config.models[name];
  const { provider, model } = aliased ? { provider: findProvider(aliased.provider)!, model: aliased.model } : splitModelName(name, config);
  const entry: Partial<ModelEntry> = aliased ?? {};
  const servers = resolveServers(provider, entry, env, name);
  const apiKeyEnv = entry.apiKeyEnv ?? provider.apiKeyEnv;
  const { provider: _provider, model: _model, baseURL: _baseURL, apiKeyEnv: _apiKeyEnv, timeoutMs, maxRetries, maxRetryAfterMs, ...rest } = entry;
  return {
    ...rest,
    name,
    provider: provider.name,
    model,
    ...servers,
    ...(apiKeyEnv ? { apiKeyEnv } : {}),
    timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: maxRetries ?? DEFAULT_MAX_RETRIES,
    maxRetryAfterMs: maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS,
  };
}

/**
 * The API key for a model from the environment, or a clear error when a required one is missing.
 * The key goes to the adapter and nowhere else.
 */
export function apiKeyFor(settings: ModelSettings, env: Environment): string | undefined {
  const provider = findProvider(settings.provider)!;
  const key = settings.apiKeyEnv ? env[settings.apiKeyEnv] : undefined;
  // A variable the user named in the config is needed even where the provider needs no key.
  const named = settings.apiKeyEnv !== undefined && settings.apiKeyEnv !== provider.apiKeyEnv;
  if ((provider.apiKeyRequired || named) && !key) {
    throw new InputError(`${settings.apiKeyEnv ?? 'the API key variable'} is not set: export it, or set apiKeyEnv for ${settings.name} in the config`);
  }
  return key || undefined;
}
