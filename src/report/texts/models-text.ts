import type { PmiycConfig } from '../../config/config-schema.js';
import { type Environment, resolveModelSettings } from '../../config/resolve-model-settings.js';
import { printableText } from '../../domain/printable-text.js';
import { formatCounted } from '../../domain/text-labels.js';
import type { ModelSettings } from '../../models/model-settings.js';
import { PROVIDERS } from '../../models/providers/provider-catalog.js';
import type { ProbeTarget } from '../../runner/models/probe-model.js';
import { formatTextTable } from './text-table.js';

function keyState(variable: string | undefined, env: Environment): string {
  if (!variable) return '-';
  return `${variable} (${env[variable] ? 'set' : 'not set'})`;
}

export function providerTable(env: Environment): string {
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
    settings.replicaConcurrency === undefined ? undefined : `${settings.replicaConcurrency} per replica`,
    settings.requestsPerMinute === undefined ? undefined : `${settings.requestsPerMinute} req/min`,
    settings.tokensPerMinute === undefined ? undefined : `${settings.tokensPerMinute} tok/min`,
  ].filter((part) => part !== undefined);
  return parts.length > 0 ? parts.join(', ') : 'none';
}

export function aliasTable(config: PmiycConfig, env: Environment): string {
  const rows = Object.keys(config.models).map((alias) => {
    const settings = resolveModelSettings(alias, config, env);
    const prices =
      settings.inputUsdPerMillion === undefined && settings.outputUsdPerMillion === undefined
        ? 'not set'
        : `$${settings.inputUsdPerMillion ?? 0} / $${settings.outputUsdPerMillion ?? 0} per M`;
    return [
      alias,
      `${settings.provider}/${settings.model}`,
      settings.replicas?.join(', ') ?? settings.baseURL ?? '-',
      keyState(settings.apiKeyEnv, env),
      describeLimits(settings),
      prices,
    ];
  });
  return formatTextTable(['alias', 'model', 'base URL', 'key', 'limits', 'prices in / out'], rows, { align: 'left' });
}

/** What `pmiyc models --check` found: each model (or replica) reachable, with how fast, or why not. */
export function probeTable(targets: readonly ProbeTarget[]): string {
  // A model call's error is printable already; another error's message may still quote a server.
  const rows = targets.map(({ label, result }) =>
    result.ok
      ? [
          label,
          'reachable',
          `${result.durationMs} ms${result.outputTokens === undefined ? '' : `, ${formatCounted(result.outputTokens, 'token')}`}${result.simulated ? ' (simulated)' : ''}`,
        ]
      : [label, `FAILED (${result.reason})`, printableText(result.detail)],
  );
  return formatTextTable(['model', 'status', 'detail'], rows, { align: 'left' });
}
