import type { PmiycConfig } from '../../config/config-schema.js';
import { apiKeyFor, type Environment, resolveModelSettings } from '../../config/resolve-model-settings.js';
import { createChatModel } from '../../models/create-chat-model.js';
import { type LastingCause, lastingCauseOf } from '../../models/lasting-failure.js';
import { isModelCallError } from '../../models/model-call-error.js';
import { endpointOf } from '../../models/model-identity.js';
import type { ModelSettings } from '../../models/model-settings.js';
import { modelListProbeOf } from '../../models/providers/model-list-probe.js';

const CHECK_TIMEOUT_MS = 30_000;

/** What a probe of a model found: reachable (and how fast), or why not. */
type ProbeResult =
  | { readonly ok: true; readonly durationMs: number; readonly outputTokens?: number; readonly simulated: boolean }
  | {
      readonly ok: false;
      readonly reason: string;
      readonly detail: string;
      /** Set when the failure is one every call would meet until it is fixed (see `lastingCauseOf`). */
      readonly lastingCause?: LastingCause;
    };

/** What to probe for a model: the model, or each of its replicas on its own (a pool would hide a dead one by failing over). */
export interface ProbeTarget {
  /** The model's name, and for a replica its endpoint: "qwen (http://gpu-1:8000/v1)". */
  readonly label: string;
  readonly result: ProbeResult;
}

/** How to probe. */
export interface ProbeOptions {
  /**
   * Ask the server's list of models where the provider has that free request (the OpenAI family and
   * Anthropic: `modelListProbeOf`), and make a one-token call only where it has not. False (`models --check`): always
   * the one-token call, which also tells that the model itself answers.
   */
  readonly free?: boolean;
  /** At most this long per probe; 30 s unless given (never longer than the model's own `timeoutMs`). */
  readonly timeoutMs?: number;
  /** Gives up (the probe fails with the signal's reason, which is not a lasting cause). */
  readonly abortSignal?: AbortSignal;
}

/**
 * One tiny call to a model, or to each of its replicas when it has several. Never throws: a name
 * that does not resolve is one failed target.
 */
export async function probeModelTargets(
  name: string,
  config: PmiycConfig,
  env: Environment,
  nowMs: () => number,
  options: ProbeOptions = {},
): Promise<ProbeTarget[]> {
  let settings: ModelSettings;
  try {
    settings = resolveModelSettings(name, config, env);
  } catch (error) {
    return [{ label: name, result: failedProbeOf(error) }];
  }
  return probeSettingsTargets(settings, env, nowMs, options);
}

/** `probeModelTargets` for a model whose settings are resolved already (a session's models). Never throws. */
export async function probeSettingsTargets(settings: ModelSettings, env: Environment, nowMs: () => number, options: ProbeOptions = {}): Promise<ProbeTarget[]> {
  const { replicas } = settings;
  if (replicas === undefined || replicas.length < 2) return [{ label: settings.name, result: await probeModel(settings, env, nowMs, options) }];
  return Promise.all(
    replicas.map(async (baseURL) => ({
      label: `${settings.name} (${endpointOf(baseURL)})`,
      result: await probeModel(settings, env, nowMs, options, baseURL),
    })),
  );
}

/** What a probe that threw found: the call's reason, and its lasting cause when it has one. */
function failedProbeOf(error: unknown): ProbeResult {
  const lastingCause = lastingCauseOf(error);
  return {
    ok: false,
    reason: isModelCallError(error) ? error.reason : 'error',
    detail: error instanceof Error ? error.message : String(error),
    ...(lastingCause ? { lastingCause } : {}),
  };
}

/**
 * One tiny call (or, with `free`, the free request where there is one), without retries and with a
 * short timeout, to see whether a model answers (with `replica`: whether that one of its replicas
 * does). Never throws.
 */
async function probeModel(resolved: ModelSettings, env: Environment, nowMs: () => number, options: ProbeOptions, replica?: string): Promise<ProbeResult> {
  const started = nowMs();
  try {
    const { replicas: _replicas, ...oneServer } = resolved;
    const served: ModelSettings = replica === undefined ? resolved : { ...oneServer, baseURL: replica };
    const settings: ModelSettings = { ...served, maxRetries: 0, timeoutMs: Math.min(resolved.timeoutMs, options.timeoutMs ?? CHECK_TIMEOUT_MS) };
    const apiKey = apiKeyFor(settings, env);
    const free = options.free ? modelListProbeOf(settings, apiKey) : undefined;
    if (free) {
      await free(options.abortSignal);
      return { ok: true, durationMs: nowMs() - started, simulated: false };
    }
    const { model } = createChatModel(settings, apiKey ? { apiKey } : {});
    const reply = await model.generate({
      messages: [{ role: 'user', content: 'Reply with the single word OK.' }],
      maxOutputTokens: 1,
      seed: 0,
      temperature: 0,
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
    return {
      ok: true,
      durationMs: nowMs() - started,
      simulated: model.simulated,
      ...(reply.usage?.outputTokens === undefined ? {} : { outputTokens: reply.usage.outputTokens }),
    };
  } catch (error) {
    return failedProbeOf(error);
  }
}
