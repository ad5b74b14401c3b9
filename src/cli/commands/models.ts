import { loadConfig } from '../../io/inputs/load-config.js';
import { aliasTable, probeTable, providerTable } from '../../report/texts/models-text.js';
import { probeModelTargets } from '../../runner/models/probe-model.js';
import type { CliContext } from '../terminal.js';

export interface ModelsOptions {
  readonly config?: string;
  readonly check: boolean;
  /** Names to check beyond (or instead of) the configured aliases. */
  readonly models?: readonly string[];
}

/**
 * `pmiyc models`: the providers and what each needs, the configured aliases, and with --check a
 * one-token call to each (to each replica of a model served by several) to show which are
 * reachable (exit code 1 when one is not).
 */
export async function modelsCommand(options: ModelsOptions, context: CliContext): Promise<number> {
  const config = await loadConfig(options.config);
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
  // A model served by several replicas is checked replica by replica: its pool would hide a dead one.
  const targets = (await Promise.all(names.map((name) => probeModelTargets(name, config, context.env, () => context.now().getTime())))).flat();
  out(probeTable(targets));
  return targets.every((target) => target.result.ok) ? 0 : 1;
}
