import type { Command } from 'commander';
import { gitRevision } from '../git-revision.js';
import { parseConcurrency, parseCost, parseRunName, parseTemperature, parseWholeNumber } from '../options.js';
import type { CliContext, RunSignals } from '../terminal.js';
import { judgeCommand, judgeSynthesizeCommand } from './judge.js';

export interface JudgeWiring {
  readonly context: CliContext;
  readonly signals: RunSignals;
  readonly setExitCode: (code: number) => void;
  /** The store when --store is not given (`./pmiyc.db`). */
  readonly defaultStore: string;
}

const list = (value: string) =>
  value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

/** Options both judge commands share: store, config, seeds, sampling, concurrency, budget, cache. */
function addSharedOptions(command: Command, { context, defaultStore }: JudgeWiring, defaults: { temperature: number; study: string }): Command {
  return command
    .option('--store <file>', 'SQLite store', defaultStore)
    .option('--study <name>', defaults.study, parseRunName('--study'))
    .option('--config <file>', 'YAML config with model aliases and settings (or set PMIYC_CONFIG)', context.env['PMIYC_CONFIG'])
    .option('--concurrency <n>', 'model calls in flight at once, across all models (1-1000)', parseConcurrency, 16)
    .option('--seed <n>', 'run seed; every call seed and the order of each pair derive from it', parseWholeNumber('--seed'), 0)
    .option('--temperature <t>', "sampling temperature (a model's config may override it)", parseTemperature, defaults.temperature)
    .option('--max-tokens <n>', "output tokens per reply (a model's config may override it)", parseWholeNumber('--max-tokens', 1), 400)
    .option('--max-attempts <n>', 'asks per item before its reply counts as unusable', parseWholeNumber('--max-attempts', 1), 3)
    .option('--max-cost <usd>', 'stop starting calls before the spend would pass this (resumable)', parseCost)
    .option('--no-cache', 'reuse nothing from earlier runs: ask the models again (calls shared within this study are still made once)');
}

function extras(context: CliContext) {
  const progressIntervalMs = context.env['PMIYC_PROGRESS_INTERVAL_MS'] ? Number(context.env['PMIYC_PROGRESS_INTERVAL_MS']) : undefined;
  const revision = gitRevision();
  return { ...(revision ? { gitRevision: revision } : {}), ...(progressIntervalMs ? { progressIntervalMs } : {}) };
}

/**
 * `pmiyc judge` (LLM as judge, paper Sec. 4.1.2) and `pmiyc judge synthesize` (a preference
 * dataset), added to the program. Call once from `buildProgram`.
 */
export function registerJudgeCommands(program: Command, wiring: JudgeWiring): void {
  const { context, signals, setExitCode } = wiring;
  // The study is the group's default subcommand, so that `pmiyc judge --models a,b` runs it; the
  // group itself has no options, so a subcommand's options never go to the group (commander lets a
  // parent claim its options after a subcommand unless the whole program uses positional options).
  const judge = program
    .command('judge')
    .description('LLM as judge (paper Sec. 4.1.2): accuracy of judge models on argument pairs people rated; and a synthesized preference dataset');
  const study = judge
    .command('run', { isDefault: true })
    .description('(the default) show judge models pairs of arguments people rated, each in a seeded order, and report their accuracy')
    .option('--models <a,b>', 'the judge models', list)
    .option('--pairs <file>', 'your own pairs as JSON lines {claim, a, b, better: "a"|"b", difference} (default: the Anthropic persuasion ratings)')
    .option('--data-dir <dir>', 'a folder with anthropic-persuasion/persuasion_data.csv (default: the download cache; or PMIYC_DATA_DIR)')
    .option('--limit <n>', 'only the first N pairs', parseWholeNumber('--limit', 1))
    .option('--sample <n>', 'a seeded sample of N pairs', parseWholeNumber('--sample', 1))
    .option('--resume', 'continue a stopped judge run (the latest, or --study NAME)', false);
  addSharedOptions(study, wiring, {
    temperature: 0,
    study: 'name of the run (default judge-N); with --resume, the judge run to continue (default: the latest)',
  }).action(async (options) => setExitCode(await judgeCommand({ ...options, ...extras(context) }, context, signals)));

  const synthesize = judge
    .command('synthesize')
    .description('a preference dataset: per claim an argument and a more persuasive rewrite of it, as JSON lines')
    .requiredOption('--model <model>', 'the model that writes and rewrites the arguments')
    .option('--claims <set|file>', 'subjective, examples, or a .csv/.jsonl file of subjective claims', 'examples')
    .option('--data-dir <dir>', 'a folder with the claim sources (default: the download cache; or PMIYC_DATA_DIR)')
    .option('--limit <n>', 'only the first N claims', parseWholeNumber('--limit', 1))
    .option('--sample <n>', 'a seeded sample of N claims, stratified by origin', parseWholeNumber('--sample', 1))
    .option('--out <file.jsonl>', 'where to write the dataset (default: standard output)');
  addSharedOptions(synthesize, wiring, { temperature: 0.7, study: 'name of the run (default synthesis-N)' }).action(async (options) =>
    setExitCode(await judgeSynthesizeCommand({ ...options, ...extras(context) }, context, signals)),
  );
}
