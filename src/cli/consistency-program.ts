import type { Command } from 'commander';
import { type ConsistencyOptions, consistencyCommand } from './commands/consistency.js';
import { gitRevision } from './git-revision.js';
import { parseConcurrency, parseRunName, parseTemperature, parseWholeNumber } from './options.js';
import type { CliContext, RunSignals } from './terminal.js';

const list = (value: string) =>
  value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

/**
 * `pmiyc consistency`: the options and action, added to the program by `buildProgram`. Defaults:
 * 5 answers per claim, the examples claims, temperature 0.7 (the tournament's), 16 output tokens
 * (a label; a model's config may raise it), 3 attempts per answer, concurrency 16, seed 0.
 */
export function addConsistencyCommand(
  program: Command,
  context: CliContext,
  signals: RunSignals,
  setExitCode: (code: number) => void,
  defaultStore: string,
): void {
  program
    .command('consistency')
    .description(
      "ask each model for its own stance on each claim N times and report how consistent it is (paper Table 1); or --import the paper's published answers",
    )
    .option('--models <a,b,c>', 'the models to ask', list)
    .option('--claims <set|file>', 'subjective, misinformation, examples, or a .csv/.jsonl file', 'examples')
    .option('--data-dir <dir>', 'a folder with the claim sources (default: the download cache; or PMIYC_DATA_DIR)')
    .option('--limit <n>', 'only the first N claims', parseWholeNumber('--limit', 1))
    .option('--sample <n>', 'a seeded sample of N claims, stratified by origin', parseWholeNumber('--sample', 1))
    .option('--samples <n>', 'answers asked per model and claim', parseWholeNumber('--samples', 1), 5)
    .option('--run <name>', 'a tournament run: compare its openings with the answers (Match Rate, Avg Dif)', parseRunName('--run'))
    .option('--study <name>', 'name of the study (default consistency-N); with --resume, the study to continue (default: the latest)', parseRunName('--study'))
    .option('--resume', 'continue a stopped study where it stopped', false)
    .option('--import <file.csv>', "read answers in the paper's pre-assessment format (i,claim,scores,...) instead of asking models")
    .option('--model <name>', 'with --import: the model the answers are from (default: the file name, e.g. gpt4)')
    .option('--concurrency <n>', 'model calls in flight at once, across all models (1-1000)', parseConcurrency, 16)
    .option('--seed <n>', 'study seed; every call seed derives from it', parseWholeNumber('--seed'), 0)
    .option('--temperature <t>', "sampling temperature (a model's config may override it)", parseTemperature, 0.7)
    .option('--max-tokens <n>', "output tokens per answer (a model's config may override it)", parseWholeNumber('--max-tokens', 1), 16)
    .option('--max-attempts <n>', 'calls per answer before it is recorded as unusable', parseWholeNumber('--max-attempts', 1), 3)
    .option('--store <file>', 'SQLite store', defaultStore)
    .option('--no-cache', 'reuse nothing from earlier runs: ask the models again (calls shared within this study are still made once)')
    .option('--config <file>', 'YAML config with model aliases and settings (or set PMIYC_CONFIG)', context.env['PMIYC_CONFIG'])
    .action(async (options: Omit<ConsistencyOptions, 'gitRevision' | 'progressIntervalMs'>) => {
      const progressIntervalMs = context.env['PMIYC_PROGRESS_INTERVAL_MS'] ? Number(context.env['PMIYC_PROGRESS_INTERVAL_MS']) : undefined;
      const revision = gitRevision();
      setExitCode(
        await consistencyCommand(
          { ...options, ...(revision ? { gitRevision: revision } : {}), ...(progressIntervalMs ? { progressIntervalMs } : {}) },
          context,
          signals,
        ),
      );
    });
}
