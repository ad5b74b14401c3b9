import type { ModelSettings } from './model-settings.js';
import { findProvider } from './providers/provider-catalog.js';

/**
 * Providers whose model name does not say which weights answer: the server decides (a vLLM or
 * Ollama server, any OpenAI-compatible one, an Azure resource's deployment).
 */
const SERVED_BY_ENDPOINT = new Set(['openai-compatible', 'ollama', 'vllm', 'azure']);

/** A base URL as it identifies a server: no credentials, no trailing slash, lower-case host. */
export function endpointOf(baseURL: string): string {
  const url = new URL(baseURL);
  url.username = '';
  url.password = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '');
}

/**
 * The replicas of a model as a set: normalised, sorted, each once. The order of the config's list
 * says nothing of the weights, so it must not change the identity; one replica is its one endpoint.
 */
function replicaEndpoints(baseURLs: readonly string[]): string[] {
  return [...new Set(baseURLs.map(endpointOf))].sort();
}

export interface ServedBy {
  /** For `llama/`: the sha256 of the GGUF file's content. */
  readonly fileSha256?: string;
}

/**
 * What a model is for the call cache: everything that decides its replies, never the alias the
 * user gave it. `provider/model`, then what serves it: the endpoint for self-hosted servers (and
 * for hosted providers reached through another base URL), the sorted set of endpoints for a model
 * served by replicas (so all replicas share one cache), the GGUF's content hash for `llama/`,
 * or the user's `revision` instead of either (two endpoints with the same weights, or a forced
 * fresh identity); then options that change replies. A model whose identity changes is asked
 * again: nothing stored under another identity is ever replayed for it.
 */
export function modelIdentity(settings: ModelSettings, served: ServedBy = {}): string {
  const options = settings.providerOptions ? ` ${JSON.stringify(settings.providerOptions)}` : '';
  const name = `${settings.provider}/${settings.model}`;
  if (settings.revision !== undefined) return `${name}@${settings.revision}${options}`;
  if (settings.provider === 'llama' && served.fileSha256) return `llama@sha256:${served.fileSha256}${options}`;
  if (settings.replicas !== undefined && settings.replicas.length > 1) return `${name} at ${replicaEndpoints(settings.replicas).join(', ')}${options}`;
  // One replica is one server: the identity it would have as a plain baseURL.
  const baseURL = settings.replicas?.length === 1 ? settings.replicas[0] : settings.baseURL;
  const provider = findProvider(settings.provider);
  const viaOtherEndpoint = baseURL !== undefined && baseURL !== provider?.defaultBaseURL;
  if (baseURL !== undefined && (SERVED_BY_ENDPOINT.has(settings.provider) || viaOtherEndpoint)) {
    return `${name} at ${endpointOf(baseURL)}${options}`;
  }
  return `${name}${options}`;
}
