import type { PmiycConfig } from '../config/config-schema.js';
import { apiKeyFor, type Environment, resolveModelSettings } from '../config/resolve-model-settings.js';
import { createChatModel } from '../models/create-chat-model.js';
import { isModelCallError } from '../models/model-call-error.js';
import { endpointOf } from '../models/model-identity.js';
import type { ModelSettings } from '../models/model-settings.js';

const CHECK_TIMEOUT_MS = 30_000;

/** What a one-token call to a model found: reachable (and how fast), or why not. */
type ProbeResult =
  | { readonly ok: true; readonly durationMs: number; readonly outputTokens?: number; readonly simulated: boolean }
  | { readonly ok: false; readonly reason: string; readonly detail: string };

/** What to probe for a model: the model, or each of its replicas on its own (a pool would hide a dead one by failing over). */
export interface ProbeTarget {
  /** The model's name, and for a replica its endpoint: "qwen (http://gpu-1:8000/v1)". */
  readonly label: string;
  readonly result: ProbeResult;
}

/**
 * One tiny call to a model, or to each of its replicas when it has several. Never throws: a name
 * that does not resolve is one failed target.
 */
export async function probeModelTargets(name: string, config: PmiycConfig, env: Environment, nowMs: () => number): Promise<ProbeTarget[]> {
  let replicas: readonly string[] | undefined;
  try {
    replicas = resolveModelSettings(name, config, env).replicas;
  } catch {
    // probeModel says why.
  }
  if (replicas === undefined || replicas.length < 2) return [{ label: name, result: await probeModel(name, config, env, nowMs) }];
  return Promise.all(
    replicas.map(async (baseURL) => ({ label: `${name} (${endpointOf(baseURL)})`, result: await probeModel(name, config, env, nowMs, baseURL) })),
  );
}

/**
 * One tiny call, without retries and with a short timeout, to see whether a model answers (with
 * `replica`: whether that one of its replicas does). Never throws.
 */
async function probeModel(name: string, config: PmiycConfig, env: Environment, nowMs: () => number, replica?: string): Promise<ProbeResult> {
  const started = nowMs();
  try {
    const resolved = resolveModelSettings(name, config, env);
    const { replicas: _replicas, ...oneServer } = resolved;
    const served: ModelSettings = replica === undefined ? resolved : { ...oneServer, baseURL: replica };
    const settings: ModelSettings = { ...served, maxRetries: 0, timeoutMs: Math.min(resolved.timeoutMs, CHECK_TIMEOUT_MS) };
    const apiKey = apiKeyFor(settings, env);
    const { model } = createChatModel(settings, apiKey ? { apiKey } : {});
    const reply = await model.generate({
      messages: [{ role: 'user', content: 'Reply with the single word OK.' }],
      maxOutputTokens: 1,
      seed: 0,
      temperature: 0,
    });
    return {
      ok: true,
      durationMs: nowMs() - started,
      simulated: model.simulated,
      ...(reply.usage?.outputTokens === undefined ? {} : { outputTokens: reply.usage.outputTokens }),
    };
  } catch (error) {
    return { ok: false, reason: isModelCallError(error) ? error.reason : 'error', detail: error instanceof Error ? error.message : String(error) };
  }
}
