import type { ChatModel } from '../chat-model.js';
import { secretsOf } from '../model-secrets.js';
import type { ModelSettings } from '../model-settings.js';
import { AiSdkChatModel } from './ai-sdk-model.js';
import { createLanguageModel } from './create-language-model.js';
import type { ProviderInfo } from './provider-catalog.js';

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
    secrets: secretsOf({ ...settings, ...(dependencies.apiKey ? { apiKey: dependencies.apiKey } : {}) }),
    ...(settings.apiKeyEnv ? { apiKeyEnv: settings.apiKeyEnv } : {}),
    ...(providerOptions ? { providerOptions } : {}),
    ...(dependencies.now ? { now: dependencies.now } : {}),
  });
}
