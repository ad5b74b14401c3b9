import type { PmiycConfig } from '../../config/config-schema.js';
import { apiKeyFor, resolveModelSettings } from '../../config/resolve-model-settings.js';
import { createChatModel } from '../../models/create-chat-model.js';
import { isModelCallError } from '../../models/model-call-error.js';
import type { ModelSettings } from '../../models/model-settings.js';
import { PROVIDERS } from '../../models/providers/provider-catalog.js';
import { formatTextTable } from '../../report/text-table.js';
import { loadConfig } from '../load-config.js';
import type { CliContext } from '../terminal.js';

export interface ModelsOptions {
  readonly config?: string;
  readonly check: boolean;
  /** Names to check beyond (or instead of) the configured aliases. */
  readonly models?: readonly string[];
}

const CHECK_TIMEOUT_MS = 30_000;

function keyState(variable: string | undefined, env: CliContext['env']): string {
  if (!variable) return '-';
  return `${variable} (${env[variable] ? 'set' : 'not set'})`;
}

function providerTable(env: CliContext['env']): string {
  const rows = PROVIDERS.map((provider) => [
    provider.name,
    provider.apiKeyRequired ? keyState(provider.apiKeyEnv, env) : provider.apiKeyEnv ? `optional: ${keyState(provider.apiKeyEnv, env)}` : 'no key',
    provider.baseURLEnv && env[provider.baseURLEnv]
      ? `${env[provider.baseURLEnv]} (${provider.baseURLEnv})`
      : (provider.defaultBaseURL ?? (provider.baseURLEnv ? `set ${provider.baseURLEnv} or baseURL` : '-')),
    provider.description,
  ]);
  return formatTextTable(['provider', 'key', 'base URL', 'what'], rows, { align: 'left' });
}

function describeLimits(settings: ModelSettings): string {
  const parts = [
    settings.maxConcurrency === undefined ? undefined : `${settings.maxConcurrency} at once`,
    settings.requestsPerMinute === undefined ? undefined : `${settings.requestsPerMinute} req/min`,
    settings.tokensPerMinute === undefined ? undefined : `${settings.tokensPerMinute} tok/min`,
  ].filter((part) => part !== undefined);
  return parts.length > 0 ? parts.join(', ') : 'none';
}

function aliasTable(config: PmiycConfig, env: CliContext['env']): string {
  const rows = Object.keys(config.models).map((alias) => {
    const settings = resolveModelSettings(alias, config, env);
    const prices =
      settings.inputUsdPerMillion === undefined && settings.outputUsdPerMillion === undefined
        ? 'not set'
        : `$${settings.inputUsdPerMillion ?? 0} / $${settings.outputUsdPerMillion ?? 0} per M`;
    return [alias, `${settings.provider}/${settings.model}`, settings.baseURL ?? '-', keyState(settings.apiKeyEnv, env), describeLimits(settings), prices];
  });
  return formatTextTable(['alias', 'model', 'base URL', 'key', 'limits', 'prices in / out'], rows, { align: 'left' });
}

/** One tiny call; its outcome as a table row. Never throws. */
async function checkModel(name: string, config: PmiycConfig, context: CliContext): Promise<{ row: string[]; ok: boolean }> {
  const started = context.now().getTime();
  try {
    const resolved = resolveModelSettings(name, config, context.env);
    const settings: ModelSettings = { ...resolved, maxRetries: 0, timeoutMs: Math.min(resolved.timeoutMs, CHECK_TIMEOUT_MS) };
    const apiKey = apiKeyFor(settings, context.env);
    const { model } = createChatModel(settings, apiKey ? { apiKey } : {});
    const reply = await model.generate({
      messages: [{ role: 'user', content: 'Reply with the single word OK.' }],
      maxOutputTokens: 1,
      seed: 0,
      temperature: 0,
    });
    const tokens = reply.usage?.outputTokens === undefined ? '' : `, ${reply.usage.outputTokens} token`;
    return { row: [name, 'reachable', `${context.now().getTime() - started} ms${tokens}${model.simulated ? ' (simulated)' : ''}`], ok: true };
  } catch (error) {
    const reason = isModelCallError(error) ? error.reason : 'error';
    return { row: [name, `FAILED (${reason})`, error instanceof Error ? error.message : String(error)], ok: false };
  }
}

/**
 * `pmiyc models`: the providers and what each needs, the configured aliases, and with --check a
 * one-token call to each to show which are reachable (exit code 1 when one is not).
 */
export async function modelsCommand(options: ModelsOptions, context: CliContext): Promise<number> {
  const config = loadConfig(options.config);
  const out = (text: string) => context.stdout.write(`${text}\n`);
  out('Providers (write a model as provider/model, e.g. openai/gpt-4o-mini)');
  out(providerTable(context.env));
  const aliases = Object.keys(config.models);
  out('');
  out(aliases.length > 0 ? `Models configured in ${options.config}` : 'No configured models (pass --config FILE to name models with their settings).');
  if (aliases.length > 0) out(aliasTable(config, context.env));
  if (!options.check) return 0;

  const names = [...new Set([...(options.models ?? []), ...(options.models ? [] : aliases)])];
  if (names.length === 0) {
    out('\nNothing to check: configure models or name them with --models a,b.');
    return 0;
  }
  out('\nChecking with a one-token call to each (no retries, 30 s timeout)...');
  const results = await Promise.all(names.map((name) => checkModel(name, config, context)));
  out(
    formatTextTable(
      ['model', 'status', 'detail'],
      results.map((result) => result.row),
      { align: 'left' },
    ),
  );
  return results.every((result) => result.ok) ? 0 : 1;
}
