import type { ModelSettings } from '../model-settings.js';
import { findProvider } from './provider-catalog.js';

/**
 * How a provider's prompt cache serves a model's requests, as far as pmiyc can tell before calling:
 * a request's prefix is served from the cache once it is at least `minTokens` long, and with
 * `writes` the provider bills what it stores at the cache-write price (Anthropic's `cache_control`).
 */
export interface PromptCacheRule {
  readonly minTokens: number;
  readonly writes: boolean;
}

/** OpenAI's and Anthropic's smallest cacheable prefix (Anthropic's Haiku models need 2,048: a dry run's estimate is then high). */
const MIN_CACHED_PREFIX_TOKENS = 1024;

/**
 * The prompt cache a model's provider applies: OpenAI and Azure cache long prefixes on their own;
 * Anthropic caches what pmiyc marks, unless `promptCache: false`. Undefined for the rest: other
 * servers may cache too, but nothing says so before they answer (their stored usage will).
 */
export function promptCacheRule(settings: Pick<ModelSettings, 'provider' | 'promptCache'>): PromptCacheRule | undefined {
  const kind = findProvider(settings.provider)?.kind;
  if (kind === 'openai' || kind === 'azure') return { minTokens: MIN_CACHED_PREFIX_TOKENS, writes: false };
  if (kind === 'anthropic' && settings.promptCache !== false) return { minTokens: MIN_CACHED_PREFIX_TOKENS, writes: true };
  return undefined;
}
