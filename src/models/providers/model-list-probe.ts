import { InputError } from '../../domain/errors/input-error.js';
import { HttpTransport } from '../../http/http-transport.js';
import { TransportFailure } from '../../http/transport-failure.js';
import { watchAbort } from '../abort-watch.js';
import { secretsOf } from '../model-secrets.js';
import type { ModelSettings } from '../model-settings.js';
import { httpErrorToModelCallError } from './errors/http-error.js';
import { bodyText } from './errors/server-text.js';
import { CHAT_WORDING, transportFailureToModelCallError } from './errors/transport-error.js';
import { checkRequestHeaders } from './http-headers.js';
import { findProvider } from './provider-catalog.js';

/** The Anthropic API version its list of models is asked with (the batch adapter's too). */
const ANTHROPIC_VERSION = '2023-06-01';

/** A list of models is read up to this size (OpenRouter's is a few hundred KB). */
const MAX_LIST_BYTES = 8 * 2 ** 20;

/** The headers a provider's list of models is asked with: its key the way its calls send it, and the config's headers. */
function listHeaders(kind: string, settings: ModelSettings, apiKey: string | undefined): Record<string, string> | undefined {
  const key: Record<string, string> | undefined =
    kind === 'anthropic'
      ? { 'anthropic-version': ANTHROPIC_VERSION, ...(apiKey ? { 'x-api-key': apiKey } : {}) }
      : kind === 'openai' || kind === 'openai-compatible'
        ? apiKey
          ? { authorization: `Bearer ${apiKey}` }
          : {}
        : undefined;
  return key === undefined ? undefined : { accept: 'application/json', ...key, ...settings.headers };
}

/**
 * A request that tells whether a model's server answers and takes its key without paying for a call:
 * `GET <baseURL>/models`, which the OpenAI family and Anthropic answer with their lists of models, sent with
 * the model's key and headers on pmiyc's transport. It resolves once the server answers, whatever the answer
 * says (a server without the endpoint answered too), except a refused key (401, 403); that and a connection
 * that cannot be made throw the `ModelCallError` a call would (`cannot reach`, the key's variable named).
 * Undefined where there is no such request (Azure, Google: a one-token call tells instead; simulated and
 * in-process models) and for a model served by several replicas (ask each: give its base URL as the model's).
 */
export function modelListProbeOf(settings: ModelSettings, apiKey: string | undefined): ((abortSignal?: AbortSignal) => Promise<void>) | undefined {
  const provider = findProvider(settings.provider);
  if (provider === undefined || (settings.replicas !== undefined && settings.replicas.length > 1)) return undefined;
  const headers = listHeaders(provider.kind, settings, apiKey);
  const baseURL = settings.replicas?.[0] ?? settings.baseURL ?? provider.defaultBaseURL;
  if (headers === undefined || baseURL === undefined) return undefined;
  try {
    checkRequestHeaders(headers);
  } catch (error) {
    throw new InputError(`${settings.name}: ${(error as Error).message}: correct its headers in the config`);
  }
  const url = new URL(`${baseURL.replace(/\/+$/, '')}/models`);
  const secrets = secretsOf({
    ...(apiKey ? { apiKey } : {}),
    ...(settings.apiKeyEnv ? { apiKeyEnv: settings.apiKeyEnv } : {}),
    ...(settings.headers ? { headers: settings.headers } : {}),
  });
  const caller = { name: settings.name, provider: settings.provider, model: settings.model, secrets };
  const transport = new HttpTransport({ timeoutMs: settings.timeoutMs, maxResponseBytes: MAX_LIST_BYTES });
  return async (abortSignal) => {
    if (abortSignal?.aborted) throw abortSignal.reason;
    const call = transport.request({ method: 'GET', url, headers });
    const stopWatching = abortSignal ? watchAbort(abortSignal, () => call.cancel(abortSignal.reason)) : undefined;
    try {
      const answer = await call.answer;
      if (answer.statusCode !== 401 && answer.statusCode !== 403) return;
      const text = bodyText(answer.body);
      const context = { ...caller, nowMs: Date.now(), ...(settings.apiKeyEnv ? { apiKeyEnv: settings.apiKeyEnv } : {}) };
      throw httpErrorToModelCallError({ statusCode: answer.statusCode, headers: answer.headers, body: text, message: text }, context);
    } catch (error) {
      if (error instanceof TransportFailure) throw transportFailureToModelCallError(error, caller, CHAT_WORDING);
      throw error;
    } finally {
      stopWatching?.();
    }
  };
}
