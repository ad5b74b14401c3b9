import { setMaxListeners } from 'node:events';
import { Command, Option } from 'commander';
import { addAnnotateCommands } from './annotate-program.js';
import { CLAIMS_FORMATS, claimsCommand } from './commands/claims.js';
import { converseCommand } from './commands/converse.js';
import { demoCommand } from './commands/demo.js';
import { EXPORT_FORMATS, exportCommand } from './commands/export.js';
import { registerJudgeCommands } from './commands/judge-program.js';
import { modelsCommand } from './commands/models.js';
import { parseReportFormats, parseRunNames, REPORT_FORMATS, type ReportFormat, reportCommand } from './commands/report.js';
import { runCommand } from './commands/run.js';
import { runsCommand } from './commands/runs.js';
import { upgradeCommand } from './commands/upgrade.js';
import { addConsistencyCommand } from './consistency-program.js';
import { gitRevision } from './git-revision.js';
import { parseChoice, parseConcurrency, parseCost, parseFailureLimit, parseRunName, parseTemperature, parseTurns, parseWholeNumber } from './options.js';
import type { CliContext, RunSignals } from './terminal.js';

const DEFAULT_STORE = './pmiyc.db';

/** The options the user typed on the command line (or set through the environment), not defaults. */
function typedOptions(command: Command): Set<string> {
  return new Set(Object.keys(command.opts()).filter((key) => ['cli', 'env'].includes(command.getOptionValueSource(key) ?? '')));
}

/**
 * The command-line program. Each action resolves to an exit code, which `main` sets; errors
 * propagate to `main`, which prints them as one line.
 */
export function buildProgram(context: CliContext, signals: RunSignals, setExitCode: (code: number) => void): Command {
  // Commands without a graceful stop treat the first Ctrl-C as an abort.
  const abortSignal = AbortSignal.any([signals.stop, signals.abort]);
  setMaxListeners(0, abortSignal);
  const program = new Command('pmiyc')
    .description('Measure how well language models persuade, and how easily they are persuaded (Persuade Me If You Can).')
    .version(context.packageVersion)
    .option('--verbose', 'show stack traces of unexpected errors')
    .option('--no-color', 'plain output even on a terminal')
    .configureOutput({ outputError: (text, write) => write(`pmiyc: ${text.replace(/^error: /, '')}`) })
    .exitOverride();

  program
    .command('converse')
    .description('run one conversation and show it as it happens')
    .requiredOption('--persuader <model>', 'the model that argues for the claim, e.g. sim/eloquent')
    .requiredOption('--persuadee <model>', 'the model that reports its agreement, e.g. sim/stubborn')
    .requiredOption('--claim <text>', 'the claim (or, with --question, the incorrect answer) to argue for')
    .option('--question <text>', 'a factual question: makes this a misinformation conversation')
    .option('--turns <n>', 'turns t, odd and at least 3 (3 is single-turn)', parseTurns, 9)
    .option('--seed <n>', 'run seed; every call seed derives from it', parseWholeNumber('--seed'), 0)
    .option('--max-attempts <n>', 'samples per turn before the conversation fails', parseWholeNumber('--max-attempts', 1), 3)
    .option('--temperature <t>', "sampling temperature (a model's config may override it)", parseTemperature, 0.7)
    .option('--max-tokens <n>', "output tokens per reply (a model's config may override it)", parseWholeNumber('--max-tokens', 1), 400)
    .option('--config <file>', 'YAML config with model aliases and settings (or set PMIYC_CONFIG)', context.env['PMIYC_CONFIG'])
    .option('--json', 'print the conversation record as JSON instead of the live view', false)
    .action(async (options) => {
      const { color } = program.opts<{ color: boolean }>();
      setExitCode(await converseCommand({ ...options, color }, context, abortSignal));
    });

  const list = (value: string) =>
    value
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
  program
    .command('run')
    .description('run a tournament: every persuader against every persuadee on every claim, stored call by call, resumable')
    .option('--models <a,b,c>', 'a round robin: every model as persuader and as persuadee, self-play included', list)
    .option('--persuaders <a,b>', 'persuader models (with --persuadees instead of --models)', list)
    .option('--persuadees <c,d>', 'persuadee models', list)
    .option('--claims <set|file>', 'subjective, misinformation, examples, or a .csv/.jsonl file', 'examples')
    .option('--data-dir <dir>', 'a folder with the claim sources (default: the download cache; or PMIYC_DATA_DIR)')
    .option('--limit <n>', 'only the first N claims', parseWholeNumber('--limit', 1))
    .option('--sample <n>', 'a seeded sample of N claims, stratified by origin', parseWholeNumber('--sample', 1))
    .addOption(
      new Option('--setting <setting>', 'single, multi or both').argParser(parseChoice('--setting', ['single', 'multi', 'both'] as const)).default('both'),
    )
    .option('--turns <n>', 'turns of a multi-turn conversation (odd, > 3)', parseTurns, 9)
    .option('--repeat <n>', 'independent repetitions of every conversation (new seeds)', parseWholeNumber('--repeat', 1), 1)
    .option('--concurrency <n>', 'model calls in flight at once, across all models (1-1000)', parseConcurrency, 16)
    .option('--seed <n>', 'run seed; every call seed derives from it', parseWholeNumber('--seed'), 0)
    .option('--temperature <t>', "sampling temperature (a model's config may override it)", parseTemperature, 0.7)
    .option('--max-tokens <n>', "output tokens per reply (a model's config may override it)", parseWholeNumber('--max-tokens', 1), 400)
    .option('--max-attempts <n>', 'samples per turn before a conversation fails', parseWholeNumber('--max-attempts', 1), 3)
    .option('--store <file>', 'SQLite store', DEFAULT_STORE)
    .option('--run <name>', 'name of the run (default run-N); with --resume, the run to continue (default: the latest)', parseRunName('--run'))
    .option('--resume', 'continue a stopped run where it stopped (the flags it was started with may be given again)', false)
    .option('--take-over', 'with --resume: take the run from a process that still holds it (only when that process is gone)', false)
    .option('--retry-failed', 'run the failed conversations of a run again', false)
    .option('--max-failures <n>', 'stop once more than N conversations failed (or a fraction, e.g. 0.05)', parseFailureLimit)
    .option('--max-cost <usd>', 'stop starting calls before the spend would pass this (resumable)', parseCost)
    .option('--dry-run', 'print the plan, its calls and cost, and exit', false)
    .option('--no-cache', 'reuse nothing from earlier runs: ask the models again (calls shared within this run are still made once)')
    .option('--config <file>', 'YAML config with model aliases and settings (or set PMIYC_CONFIG)', context.env['PMIYC_CONFIG'])
    .action(async (options, command: Command) => {
      const progressIntervalMs = context.env['PMIYC_PROGRESS_INTERVAL_MS'] ? Number(context.env['PMIYC_PROGRESS_INTERVAL_MS']) : undefined;
      const revision = gitRevision();
      setExitCode(
        await runCommand(
          { ...options, given: typedOptions(command), ...(revision ? { gitRevision: revision } : {}), ...(progressIntervalMs ? { progressIntervalMs } : {}) },
          context,
          signals,
        ),
      );
    });

  addConsistencyCommand(program, context, signals, setExitCode, DEFAULT_STORE);

  program
    .command('runs')
    .description('list the runs in a store with their status and counts')
    .option('--store <file>', 'SQLite store', DEFAULT_STORE)
    .action((options: { store: string }) => setExitCode(runsCommand(options, context)));

  program
    .command('upgrade')
    .description('bring a store written by an older pmiyc to this version (read-only commands never change a store)')
    .option('--store <file>', 'SQLite store', DEFAULT_STORE)
    .action((options: { store: string }) => setExitCode(upgradeCommand(options, context)));

  program
    .command('demo')
    .description('an offline round robin of simulated agents on built-in example claims, stored, then summarised')
    .option('--store <file>', 'SQLite store to write', DEFAULT_STORE)
    .option('--claims <set|file>', 'claims: examples, subjective, misinformation, or a .csv/.jsonl file', 'examples')
    .option('--data-dir <dir>', 'a folder with the claim sources (default: the download cache; or PMIYC_DATA_DIR)')
    .option('--limit <n>', 'only the first N claims', parseWholeNumber('--limit', 1))
    .option('--sample <n>', 'a seeded sample of N claims, stratified by origin', parseWholeNumber('--sample', 1))
    .option('--seed <n>', 'run seed', parseWholeNumber('--seed'), 0)
    .option('--concurrency <n>', 'model calls in flight at once (1-1000)', parseConcurrency, 16)
    .action(async (options: { store: string; claims: string; dataDir?: string; limit?: number; sample?: number; seed: number; concurrency: number }) => {
      setExitCode(await demoCommand(options, context, signals));
    });

  program
    .command('claims')
    .description('list the items of a claim set (subjective, misinformation, examples) or a claims file')
    .argument('<set|file>', 'subjective, misinformation, examples, or a .csv/.jsonl file')
    .option('--data-dir <dir>', 'a folder with the claim sources (default: the download cache; or PMIYC_DATA_DIR)')
    .addOption(new Option('--format <format>', 'jsonl or table').argParser(parseChoice('--format', CLAIMS_FORMATS)).default('table'))
    .option('--limit <n>', 'only the first N claims', parseWholeNumber('--limit', 1))
    .option('--sample <n>', 'a seeded sample of N claims, stratified by origin', parseWholeNumber('--sample', 1))
    .option('--seed <n>', 'seed of --sample', parseWholeNumber('--seed'), 0)
    .action(async (source: string, options: { dataDir?: string; format: 'jsonl' | 'table'; limit?: number; sample?: number; seed: number }) => {
      setExitCode(await claimsCommand({ ...options, source }, context));
    });

  program
    .command('export')
    .description("write a run's conversations as JSON lines or CSV to standard output")
    .option('--store <file>', 'SQLite store to read', DEFAULT_STORE)
    .option('--run <name>', 'run name (default: the latest run)', parseRunName('--run'))
    .addOption(new Option('--format <format>', 'jsonl or csv').argParser(parseChoice('--format', EXPORT_FORMATS)).default('jsonl'))
    .action(async (options: { store: string; run?: string; format: 'jsonl' | 'csv' }) => {
      setExitCode(await exportCommand(options, context));
    });

  program
    .command('report')
    .description('write the report of a run, or of runs combined: HTML, Markdown with SVG charts, JSON and CSV')
    .option('--store <file>', 'SQLite store to read', DEFAULT_STORE)
    .option('--run <names>', 'run name, or runs to combine as a,b (default: the latest run)', parseRunNames)
    .option('--out <dir>', 'output folder (default: ./pmiyc-report/<run>/)')
    .addOption(
      new Option('--format <list>', `comma-separated: ${REPORT_FORMATS.join(', ')}`)
        .argParser(parseReportFormats)
        .default([...REPORT_FORMATS], REPORT_FORMATS.join(',')),
    )
    .option('--replicates <n>', 'bootstrap replicates for the 95% intervals', parseWholeNumber('--replicates', 100), 2000)
    .action(async (options: { store: string; run?: string[]; out?: string; format: ReportFormat[]; replicates: number }) => {
      setExitCode(await reportCommand(options, context));
    });

  program
    .command('models')
    .description('list providers and configured models; with --check, call each once to see which are reachable')
    .option('--config <file>', 'YAML config with model aliases and settings (or set PMIYC_CONFIG)', context.env['PMIYC_CONFIG'])
    .option('--check', 'make a one-token call to each configured model (or to --models)', false)
    .option('--models <names>', 'comma-separated model names or aliases to check', (value: string) =>
      value
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .action(async (options: { config?: string; check: boolean; models?: string[] }) => {
      setExitCode(await modelsCommand(options, context));
    });

  addAnnotateCommands(program, context, signals, setExitCode, DEFAULT_STORE);
  registerJudgeCommands(program, { context, signals, setExitCode, defaultStore: DEFAULT_STORE });

  return program;
}
