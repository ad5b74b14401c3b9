import type { PmiycConfig } from '../../config/config-schema.js';
import { apiKeyFor, type Environment, resolveModelSettings } from '../../config/resolve-model-settings.js';
import type { ChatModel } from '../../models/chat-model.js';
import { type ChatModelDependencies, createChatModel } from '../../models/create-chat-model.js';
import type { ChatModelMiddleware } from '../../models/decorate.js';
import type { ModelSettings } from '../../models/model-settings.js';
import type { ReplicaPoolView } from '../../models/providers/replicas/replica-pool.js';
import type { RateLimitedChatModel } from '../../models/wrappers/with-rate-limit.js';

export interface ModelRegistry {
  /** The model behind a name or alias, built once and shared (so its rate limiter is shared too). */
  modelFor(name: string): ChatModel;
  settingsFor(name: string): ModelSettings;
  limiterFor(name: string): RateLimitedChatModel | undefined;
  /** For a model served by several replicas: its replicas now (calls, health) and its failovers so far. */
  replicasFor(name: string): ReplicaPoolView | undefined;
}

/**
 * Resolves names to models for one command. Every name is checked when first asked for, so bad
 * names and missing keys fail before any call is made; keys go from the environment to the
 * adapter and nowhere else.
 */
export function createModelRegistry(
  config: PmiycConfig,
  env: Environment,
  dependencies: Omit<ChatModelDependencies, 'apiKey' | 'decorate'> & {
    /** The caller's layers for a model (call cache, run control), placed just inside its own settings. */
    readonly decorateFor?: (settings: ModelSettings) => readonly ChatModelMiddleware[];
    /** Each model's settings, resolved once already (a session's models, `SessionModels`); else resolved from the config here. */
    readonly settingsFor?: (name: string) => ModelSettings;
  } = {},
): ModelRegistry {
  const { decorateFor, settingsFor = (name) => resolveModelSettings(name, config, env), ...shared } = dependencies;
  const built = new Map<string, { settings: ModelSettings; model: ChatModel; limiter?: RateLimitedChatModel; replicas?: () => ReplicaPoolView }>();
  const entryFor = (name: string) => {
    const existing = built.get(name);
    if (existing) return existing;
    const settings = settingsFor(name);
    const apiKey = apiKeyFor(settings, env);
    const decorate = decorateFor?.(settings);
    const entry = { settings, ...createChatModel(settings, { ...shared, ...(apiKey ? { apiKey } : {}), ...(decorate ? { decorate } : {}) }) };
    built.set(name, entry);
    return entry;
  };
  return {
    modelFor: (name) => entryFor(name).model,
    settingsFor: (name) => entryFor(name).settings,
    limiterFor: (name) => entryFor(name).limiter,
    replicasFor: (name) => entryFor(name).replicas?.(),
  };
}
