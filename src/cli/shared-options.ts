import { existsSync } from 'node:fs';
import { Option } from '@commander-js/extra-typings';
import type { Environment } from '../config/resolve-model-settings.js';
import { parseChoice, parseConcurrency, parseCost, parseDistinctNames, parseRunName, parseTemperature, parseWholeNumber } from './options.js';

/** The config a command reads when --config is not given: PMIYC_CONFIG, else ./pmiyc.yaml when there is one. */
function defaultConfigPath(env: Environment): string | undefined {
  return env['PMIYC_CONFIG'] ?? (existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined);
}

export const DEFAULT_CONFIG_FILE = 'pmiyc.yaml';

/** The store when --store is not given. */
const DEFAULT_STORE = './pmiyc.db';

/**
 * The options several commands share, declared once (each call makes a fresh `Option`, typed for
 * the command's action by @commander-js/extra-typings). A command adds the ones it takes.
 */
export const sharedOptions = {
  /**
   * An option that takes one of a fixed set of values, which its help shows in place of a name
   * (`--role <persuadee|persuader>`); any other value is refused with the list.
   */
  choice: <Flag extends `--${string}`, Value extends string>(flag: Flag, values: readonly Value[], description: string) =>
    new Option(`${flag} <${values.join('|')}>` as `${Flag} <value>`, description).argParser(parseChoice(flag, values)),
  store: (what = 'SQLite store') => new Option('--store <file>', what).default(DEFAULT_STORE),
  config: (env: Environment) =>
    new Option(
      '--config <file>',
      'YAML config: model aliases and settings, prompt variants, the experiment (default: PMIYC_CONFIG, else ./pmiyc.yaml)',
    ).default(defaultConfigPath(env)),
  models: (description: string) => new Option('--models <a,b>', description).argParser(parseDistinctNames('--models')),
  claims: (description = 'subjective, misinformation, examples, or a .csv/.jsonl file') => new Option('--claims <set|file>', description).default('examples'),
  dataDir: (what = 'the claim sources') => new Option('--data-dir <dir>', `a folder with ${what} (default: the download cache; or PMIYC_DATA_DIR)`),
  limit: (items = 'claims') => new Option('--limit <n>', `only the first N ${items}`).argParser(parseWholeNumber('--limit', 1)),
  sample: (items = 'claims', how = ', stratified by origin') =>
    new Option('--sample <n>', `a seeded sample of N ${items}${how}`).argParser(parseWholeNumber('--sample', 1)),
  seed: (description = 'seed; every call seed derives from it') => new Option('--seed <n>', description).argParser(parseWholeNumber('--seed')).default(0),
  concurrency: () => new Option('--concurrency <n>', 'model calls in flight at once, across all models (1-1000)').argParser(parseConcurrency).default(16),
  temperature: (defaultValue: number) =>
    new Option('--temperature <t>', "sampling temperature (a model's config may override it)").argParser(parseTemperature).default(defaultValue),
  maxTokens: (defaultValue: number, per = 'reply') =>
    new Option('--max-tokens <n>', `output tokens per ${per} (a model's config may override it)`)
      .argParser(parseWholeNumber('--max-tokens', 1))
      .default(defaultValue),
  maxAttempts: (description: string) => new Option('--max-attempts <n>', description).argParser(parseWholeNumber('--max-attempts', 1)).default(3),
  maxCost: () => new Option('--max-cost <usd>', 'stop starting calls before the spend would pass this (resumable)').argParser(parseCost),
  noCache: (scope = 'run') =>
    new Option('--no-cache', `reuse nothing from earlier runs: ask the models again (calls shared within this ${scope} are still made once)`),
  runName: (description: string) => new Option('--run <name>', description).argParser(parseRunName('--run')),
  studyName: (description: string) => new Option('--study <name>', description).argParser(parseRunName('--study')),
  resume: (description: string) => new Option('--resume', description).default(false),
  noCheckModels: () =>
    new Option(
      '--no-check-models',
      'start without first checking that each model answers (a free request, or a one-token call where the provider has none; see docs/design/model-layer.md)',
    ),
  takeOver: () =>
    new Option(
      '--take-over',
      'with --resume: take the run from a process that still holds it on another host (only when that process is gone; one on this host must be stopped)',
    ).default(false),
};
