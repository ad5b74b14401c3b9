import type { ChatModel } from '../../chat-model.js';
import { secretsOf } from '../../model-secrets.js';
import type { ModelSettings } from '../../model-settings.js';
import type { ProviderInfo } from '../provider-catalog.js';
import { AiSdkChatModel, type AiSdkModelOptions } from './ai-sdk-model.js';
import { createLanguageModel } from './create-language-model.js';

/** The AI SDK adapter of an HTTP model (loaded on first use by create-chat-model.ts). */
export function createAiSdkChatModel(
  provider: ProviderInfo,
  settings: ModelSettings,
  dependencies: { readonly apiKey?: string; readonly fetch?: typeof globalThis.fetch; readonly now?: () => number },
): ChatModel {
  const { languageModel, providerOptions } = createLanguageModel(provider, settings, dependencies.apiKey, dependencies.fetch);
  return new AiSdkChatModel(languageModel, {
    name: settings.name,
    provider: settings.provider,
    model: settings.model,
    timeoutMs: settings.timeoutMs,
    supportsSeed: provider.supportsSeed,
    ...structuredOutputOf(provider),
    promptCache: provider.kind === 'anthropic' && settings.promptCache !== false,
    secrets: secretsOf({ ...settings, ...(dependencies.apiKey ? { apiKey: dependencies.apiKey } : {}) }),
    ...(settings.apiKeyEnv ? { apiKeyEnv: settings.apiKeyEnv } : {}),
    ...(providerOptions ? { providerOptions } : {}),
    ...(dependencies.now ? { now: dependencies.now } : {}),
  });
}

/**
 * How each SDK provider is asked for a reply in a JSON Schema: Anthropic by a tool whose input is the
 * schema, which it must call (the SDK's `jsonTool` mode; a config's `structuredOutputMode` wins);
 * the others by their JSON-schema response format, with the schema cut to OpenAI's strict subset.
 */
function structuredOutputOf(provider: ProviderInfo): Pick<AiSdkModelOptions, 'structuredOutput'> {
  if (provider.kind === 'anthropic') return { structuredOutput: { schema: 'whole', providerOptions: { anthropic: { structuredOutputMode: 'jsonTool' } } } };
  return { structuredOutput: { schema: 'strict' } };
}
