import type { PmiycConfig } from '../config/config-schema.js';
import { apiKeyFor, type Environment, resolveModelSettings } from '../config/resolve-model-settings.js';
import { createChatModel } from '../models/create-chat-model.js';
import { isModelCallError } from '../models/model-call-error.js';
import type { ModelSettings } from '../models/model-settings.js';

const CHECK_TIMEOUT_MS = 30_000;

/** What a one-token call to a model found: reachable (and how fast), or why not. */
export type ProbeResult =
  | { readonly ok: true; readonly durationMs: number; readonly outputTokens?: number; readonly simulated: boolean }
  | { readonly ok: false; readonly reason: string; readonly detail: string };

/** One tiny call, without retries and with a short timeout, to see whether a model answers. Never throws. */
export async function probeModel(name: string, config: PmiycConfig, env: Environment, nowMs: () => number): Promise<ProbeResult> {
  const started = nowMs();
  try {
    const resolved = resolveModelSettings(name, config, env);
    const settings: ModelSettings = { ...resolved, maxRetries: 0, timeoutMs: Math.min(resolved.timeoutMs, CHECK_TIMEOUT_MS) };
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
