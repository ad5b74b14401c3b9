import { createAnthropic } from '@ai-sdk/anthropic';
import { createAzure } from '@ai-sdk/azure';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { HttpTransport } from '../../../http/http-transport.js';
import { transportFetch } from '../../../http/transport-fetch.js';
import { DEFAULT_MAX_REPLY_BYTES, type ModelSettings } from '../../model-settings.js';
import type { ProviderInfo } from '../provider-catalog.js';
import { boundedJsonFetch } from './bounded-json-fetch.js';

export interface LanguageModelWithOptions {
  readonly languageModel: LanguageModel;
  /** The config's providerOptions, keyed the way this SDK provider reads them. */
  readonly providerOptions?: Record<string, Record<string, unknown>>;
}

type FetchFunction = typeof globalThis.fetch;

/**
 * Builds the AI SDK model for an HTTP provider. The key is passed in (read from the environment
 * by the CLI); the SDK never looks at the environment itself. OpenAI goes through the chat
 * completions API, which takes a seed. Its requests go through pmiyc's HTTP transport, with the
 * model's timeout and reply size limit, unless a fetch is given (tests); a body nested too deep for the
 * SDK to handle is refused either way (`bounded-json-fetch.ts`).
 */
export function createLanguageModel(
  provider: ProviderInfo,
  settings: ModelSettings,
  apiKey: string | undefined,
  fetch?: FetchFunction,
): LanguageModelWithOptions {
  const common = {
    ...(apiKey ? { apiKey } : {}),
    ...(settings.headers ? { headers: { ...settings.headers } } : {}),
    fetch: boundedJsonFetch(
      fetch ?? transportFetch(new HttpTransport({ timeoutMs: settings.timeoutMs, maxResponseBytes: settings.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES })),
    ),
  };
  const baseURL = settings.baseURL ? { baseURL: settings.baseURL } : {};
  const options = settings.providerOptions ? { ...settings.providerOptions } : undefined;
  const keyed = (key: string) => (options ? { providerOptions: { [key]: options } } : {});

  switch (provider.kind) {
    case 'openai':
      return { languageModel: createOpenAI({ ...common, ...baseURL }).chat(settings.model), ...keyed('openai') };
    case 'azure':
      return {
        languageModel: createAzure({
          ...common,
          ...baseURL,
          ...(settings.apiVersion ? { apiVersion: settings.apiVersion, useDeploymentBasedUrls: settings.apiVersion !== 'v1' } : {}),
        }).chat(settings.model),
        ...keyed('azure'),
      };
    case 'anthropic':
      return { languageModel: createAnthropic({ ...common, ...baseURL })(settings.model), ...keyed('anthropic') };
    case 'google':
      return { languageModel: createGoogleGenerativeAI({ ...common, ...baseURL })(settings.model), ...keyed('google') };
    case 'openai-compatible':
      return {
        languageModel: createOpenAICompatible({
          ...common,
          name: provider.name,
          baseURL: settings.baseURL ?? '',
          includeUsage: true,
          supportsStructuredOutputs: true,
        }).chatModel(settings.model),
        ...keyed(provider.name),
      };
    default:
      throw new RangeError(`${provider.name} is not an HTTP provider`);
  }
}
