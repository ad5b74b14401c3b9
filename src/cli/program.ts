import { setMaxListeners } from 'node:events';
import { Command, Option } from '@commander-js/extra-typings';
import { gitRevision } from '../io/git-revision.js';
import { INTERVAL_METHODS, type IntervalMethod } from '../metrics/claim-estimates.js';
import { LABEL_MATCHES } from '../protocol/agreement-label.js';
import { REPORT_FORMATS } from '../report/report-formats.js';
import {
  ANNOTATION_SETTINGS,
  CLAIMS_FORMATS,
  DEFAULT_ANNOTATION_PORT,
  DEFAULT_VIEW_PORT,
  EXPORT_FORMATS,
  IMPORT_DOMAINS,
  IMPORT_SETTINGS,
  parseChoice,
  parseClaimsPerDomain,
  parseComparedRuns,
  parseFailureLimit,
  parsePort,
  parseReportFormats,
  parseRunName,
  parseRunNames,
  parseTurns,
  parseWholeNumber,
} from './options.js';
import { sharedOptions as shared } from './shared-options.js';
import type { CliContext, RunSignals } from './terminal.js';

/** The options the user typed on the command line (or set through the environment), not defaults. */
function typedOptions(command: { opts(): object; getOptionValueSource(key: string): string | undefined }): Set<string> {
  return new Set(Object.keys(command.opts()).filter((key) => ['cli', 'env'].includes(command.getOptionValueSource(key) ?? '')));
}

/** What every run records and shows besides its options: the git revision, and how often progress is printed when it is not on a terminal. */
function runExtras(context: CliContext): { gitRevision?: string; progressIntervalMs?: number } {
  const interval = context.env['PMIYC_PROGRESS_INTERVAL_MS'] ? Number(context.env['PMIYC_PROGRESS_INTERVAL_MS']) : undefined;
  const revision = gitRevision();
  return { ...(revision ? { gitRevision: revision } : {}), ...(interval ? { progressIntervalMs: interval } : {}) };
}

/**
 * The command-line program: each command declares its options (the shared ones from
 * shared-options.ts), then loads its command's module and calls its command function (a command
 * loads only its own code: `pmiyc runs` never loads the report's or a study's); the action
 * resolves to an exit code, which `main` sets. Errors propagate to `main`, which prints them as one line.
 */
export function buildProgram(context: CliContext, signals: RunSignals, setExitCode: (code: number) => void) {
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
    .addOption(shared.seed('run seed; every call seed derives from it'))
    .addOption(shared.maxAttempts('samples per turn before the conversation fails'))
    .addOption(shared.temperature(0.7))
    .addOption(shared.maxTokens(400))
    .addOption(shared.config(context.env))
    .option('--json', 'print the conversation record as JSON instead of the live view', false)
    .action(async (options) => {
      const { converseCommand } = await import('./commands/converse.js');
      setExitCode(await converseCommand({ ...options, color: program.opts().color }, context, abortSignal));
    });

  program
    .command('run')
    .description('run a tournament: every persuader against every persuadee on every claim, stored call by call, resumable')
    .addOption(shared.models('a round robin: every model as persuader and as persuadee, self-play included'))
    .option('--persuaders <a,b>', 'persuader models (with --persuadees instead of --models)', (value) => value.split(',').filter(Boolean))
    .option('--persuadees <c,d>', 'persuadee models', (value) => value.split(',').filter(Boolean))
    .option(
      '--persuader-variants <v,w>',
      "prompt variants crossed with the persuaders (defined under variants: in the config; 'default' is pmiyc's own)",
      (value) => value.split(',').filter(Boolean),
    )
    .option('--persuadee-variants <v,w>', 'prompt variants crossed with the persuadees', (value) => value.split(',').filter(Boolean))
    .addOption(shared.claims())
    .addOption(shared.dataDir())
    .addOption(shared.limit())
    .addOption(shared.sample())
    .addOption(
      new Option('--setting <setting>', 'single, multi or both').argParser(parseChoice('--setting', ['single', 'multi', 'both'] as const)).default('both'),
    )
    .option('--turns <n>', 'turns of a multi-turn conversation (odd, > 3)', parseTurns, 9)
    .option('--repeat <n>', 'independent repetitions of every conversation (new seeds)', parseWholeNumber('--repeat', 1), 1)
    .addOption(shared.concurrency())
    .addOption(shared.seed('run seed; every call seed derives from it'))
    .addOption(shared.temperature(0.7))
    .addOption(shared.maxTokens(400))
    .addOption(shared.maxAttempts('samples per turn before a conversation fails'))
    .addOption(shared.store())
    .addOption(shared.runName('name of the run (default run-N); with --resume, the run to continue (default: the latest)'))
    .addOption(shared.resume('continue a stopped run where it stopped (the flags it was started with may be given again)'))
    .addOption(shared.takeOver())
    .option('--retry-failed', 'run the failed conversations of a run again', false)
    .option('--max-failures <n>', 'stop once more than N conversations failed (or a fraction, e.g. 0.05)', parseFailureLimit)
    .addOption(shared.maxCost())
    .option('--dry-run', 'print the plan, its calls and cost, and exit', false)
    .option('--batch', "send every model's calls through its provider's batch service (OpenAI, Anthropic): about half the price, replies within hours", false)
    .addOption(shared.noCache())
    .addOption(shared.config(context.env))
    .action(async (options, command) => {
      const { runCommand } = await import('./commands/run.js');
      setExitCode(await runCommand({ ...options, given: typedOptions(command), ...runExtras(context) }, context, signals));
    });

  program
    .command('consistency')
    .description(
      "ask each model for its own stance on each claim N times and report how consistent it is (paper Table 1); or --import the paper's published answers",
    )
    .addOption(shared.models('the models to ask'))
    .addOption(shared.claims())
    .addOption(shared.dataDir())
    .addOption(shared.limit())
    .addOption(shared.sample())
    .option('--answers <n>', "answers asked per model and claim (the paper's N)", parseWholeNumber('--answers', 1), 5)
    // Before 0.2 this was --samples, too close to --sample (a sample of claims): still read, with a note.
    .addOption(new Option('--samples <n>').argParser(parseWholeNumber('--samples', 1)).hideHelp())
    .addOption(shared.runName('a tournament run: compare its openings with the answers (Match Rate, Avg Dif)'))
    .addOption(shared.studyName('name of the study (default consistency-N); with --resume, the study to continue (default: the latest)'))
    .addOption(shared.resume('continue a stopped study where it stopped'))
    .addOption(shared.takeOver())
    .option('--import <file.csv>', "read answers in the paper's pre-assessment format (i,claim,scores,...) instead of asking models")
    .option('--model <name>', 'with --import: the model the answers are from (default: the file name, e.g. gpt4)')
    .addOption(shared.concurrency())
    .addOption(shared.seed('study seed; every call seed derives from it'))
    .addOption(shared.temperature(0.7))
    .addOption(shared.maxTokens(16, 'answer'))
    .addOption(shared.maxAttempts('calls per answer before it is recorded as unusable'))
    .addOption(shared.maxCost())
    .addOption(shared.store())
    .addOption(shared.noCache('study'))
    .addOption(shared.config(context.env))
    .action(async ({ answers, samples, ...options }) => {
      if (samples !== undefined) context.stderr.write('pmiyc: --samples is now --answers (answers asked per model and claim)\n');
      const { consistencyCommand } = await import('./commands/consistency.js');
      setExitCode(await consistencyCommand({ ...options, samples: samples ?? answers, ...runExtras(context) }, context, signals));
    });

  program
    .command('show')
    .description('print one stored conversation turn by turn, with its attempts, how it ended and what it cost')
    .argument('<conversation-id>', 'the id, as pmiyc export, the report and pmiyc view give it')
    .addOption(shared.store())
    .addOption(shared.runName('the run to take it from when several have the id (default: the latest)'))
    .option('--json', 'print the export record instead', false)
    .action(async (conversationId, options) => {
      const { showCommand } = await import('./commands/show.js');
      setExitCode(showCommand(conversationId, { ...options, color: program.opts().color }, context));
    });

  program
    .command('init')
    .description('write a starter pmiyc.yaml (runs at once with simulated agents; commented blocks for real providers) and a .env.example')
    .argument('[dir]', 'the folder to write them in (default: this one)')
    .option('--force', 'replace files that exist', false)
    .action(async (folder, options) => {
      const { initCommand } = await import('./commands/init.js');
      setExitCode(await initCommand(folder, options, context));
    });

  program
    .command('view')
    .description("browse the store's runs in a browser, down to every turn, live while a run writes (127.0.0.1, read-only; Ctrl-C stops)")
    .addOption(shared.store())
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)', parsePort, DEFAULT_VIEW_PORT)
    .option('--no-open', 'only print the address; do not open a browser')
    .action(async (options) => {
      const { viewCommand } = await import('./commands/view.js');
      setExitCode(await viewCommand(options, context, signals.stop));
    });

  program
    .command('runs')
    .description('list the runs in a store with their status and counts')
    .addOption(shared.store())
    .action(async (options) => {
      const { runsCommand } = await import('./commands/runs.js');
      setExitCode(runsCommand(options, context));
    });

  program
    .command('upgrade')
    .description('bring a store written by an older pmiyc to this version (read-only commands never change a store)')
    .addOption(shared.store())
    .action(async (options) => {
      const { upgradeCommand } = await import('./commands/upgrade.js');
      setExitCode(upgradeCommand(options, context));
    });

  program
    .command('demo')
    .description('an offline round robin of simulated agents on built-in example claims, stored, then summarised')
    .addOption(shared.store('SQLite store to write'))
    .addOption(shared.claims('claims: examples, subjective, misinformation, or a .csv/.jsonl file'))
    .addOption(shared.dataDir())
    .addOption(shared.limit())
    .addOption(shared.sample())
    .addOption(shared.seed('run seed'))
    .addOption(shared.concurrency())
    .action(async (options) => {
      const { demoCommand } = await import('./commands/demo.js');
      setExitCode(await demoCommand(options, context, signals));
    });

  program
    .command('claims')
    .description('list the items of a claim set (subjective, misinformation, examples) or a claims file')
    .argument('<set|file>', 'subjective, misinformation, examples, or a .csv/.jsonl file')
    .addOption(shared.dataDir())
    .addOption(new Option('--format <format>', 'jsonl or table').argParser(parseChoice('--format', CLAIMS_FORMATS)).default('table'))
    .addOption(shared.limit())
    .addOption(shared.sample())
    .addOption(shared.seed('seed of --sample'))
    .action(async (source, options) => {
      const { claimsCommand } = await import('./commands/claims.js');
      setExitCode(await claimsCommand({ ...options, source }, context));
    });

  program
    .command('export')
    .description("write a run's conversations as JSON lines or CSV to standard output")
    .addOption(shared.store('SQLite store to read'))
    .addOption(shared.runName('run name (default: the latest run)'))
    .addOption(new Option('--format <format>', 'jsonl or csv').argParser(parseChoice('--format', EXPORT_FORMATS)).default('jsonl'))
    .action(async (options) => {
      const { exportCommand } = await import('./commands/export.js');
      setExitCode(await exportCommand(options, context));
    });

  program
    .command('import')
    .description("bring in results made by other tools: `official` reads the official PMIYC code's results.json files")
    .command('official')
    .description("store the official PMIYC code's results.json files (an experiments/ tree or single files) as one run that report, export and view read")
    .argument('<dir|file...>', 'results.json files, or folders holding them (every results.json under them)')
    .requiredOption('--run <name>', 'the run to store them as (made when missing; importing the same files again adds nothing)', parseRunName('--run'))
    .addOption(
      new Option('--setting <setting>', 'single or multi: checked against each conversation (default: from the folder name, e.g. multi_turn_subj)').argParser(
        parseChoice('--setting', IMPORT_SETTINGS),
      ),
    )
    .addOption(
      new Option(
        '--domain <domain>',
        'subjective or misinformation (default: from the folder name, else misinformation when a record has a question)',
      ).argParser(parseChoice('--domain', IMPORT_DOMAINS)),
    )
    .addOption(
      new Option(
        '--label-match <how>',
        "how pmiyc's parser reads each reply to check it against the recorded score: strict, or first (the first label, as the official code read it)",
      )
        .argParser(parseChoice('--label-match', LABEL_MATCHES))
        .default('strict' as const),
    )
    .addOption(shared.dataDir("pmiyc's claim sets, to match the claims to (never downloaded by an import)"))
    .addOption(shared.store())
    .action(async (paths, options) => {
      const { importOfficialCommand } = await import('./commands/import-official.js');
      setExitCode(await importOfficialCommand({ ...options, paths, ...runExtras(context) }, context));
    });

  program
    .command('report')
    .description('write the report of a run, or of runs combined: HTML, Markdown with SVG charts, JSON and CSV')
    .addOption(shared.store('SQLite store to read'))
    .option('--run <names>', 'run name, or runs to combine as a,b (default: the latest run)', parseRunNames)
    .option('--out <dir>', 'output folder (default: ./pmiyc-report/<run>/)')
    .addOption(
      new Option('--format <list>', `comma-separated: ${REPORT_FORMATS.join(', ')}`)
        .argParser(parseReportFormats)
        .default([...REPORT_FORMATS], REPORT_FORMATS.join(',')),
    )
    .option('--compare <a,b>', 'report run b with the change of every model from run a, over the (opponent, claim) cells both runs hold', parseComparedRuns)
    .addOption(
      new Option('--intervals <method>', 'how the 95% intervals are made (t is calibrated best: docs/design/statistics.md)')
        .choices([...INTERVAL_METHODS])
        .default('t' as IntervalMethod),
    )
    .option('--replicates <n>', 'bootstrap replicates, for the bootstrap interval methods', parseWholeNumber('--replicates', 100), 2000)
    .action(async (options) => {
      const { reportCommand } = await import('./commands/report.js');
      setExitCode(await reportCommand(options, context));
    });

  program
    .command('models')
    .description('list providers and configured models; with --check, call each once to see which are reachable')
    .addOption(shared.config(context.env))
    .option('--check', 'make a one-token call to each configured model (or to --models)', false)
    .addOption(shared.models('model names or aliases to check'))
    .action(async (options) => {
      const { modelsCommand } = await import('./commands/models.js');
      setExitCode(await modelsCommand(options, context));
    });

  const annotate = program
    .command('annotate')
    .description("self-report reliability (paper Sec. 5.2): people label persuadee turns blind to the models' scores; the report compares them");
  annotate
    .command('export')
    .description("write a task file of a run's persuadee turns for annotators: messages only, every score left out")
    .addOption(shared.store('SQLite store to read'))
    .addOption(shared.runName('run name (default: the latest run)'))
    .option('--out <file>', 'task file to write (default: ./annotation-tasks-<run>.json)')
    .option('--sample <n>', 'N conversations drawn per (persuader, persuadee) pair', parseWholeNumber('--sample', 1))
    .option(
      '--claims-per-domain <s,m>',
      "the same S subjective and M misinformation claims for every pair (the paper's design; default 3,2 unless --sample)",
      parseClaimsPerDomain,
    )
    .addOption(new Option('--setting <setting>', 'single, multi or both').argParser(parseChoice('--setting', ANNOTATION_SETTINGS)).default('multi'))
    .option('--seed <n>', "seed of the sample and of the order (default: the run's seed)", parseWholeNumber('--seed'))
    .option('--force', 'replace the task file if it exists', false)
    .action(async (options) => {
      const { annotateExportCommand } = await import('./commands/annotate.js');
      setExitCode(await annotateExportCommand(options, context));
    });
  annotate
    .command('serve')
    .description('open the annotation page on 127.0.0.1 for one annotator; labels are saved as they are given (Ctrl-C stops)')
    .requiredOption('--tasks <file>', 'the task file `pmiyc annotate export` wrote')
    .requiredOption('--annotator <name>', 'who is labelling (letters, digits, ".", "-", "_"), e.g. alice')
    .option('--labels <file>', 'labels file to write and continue (default: <tasks>.<annotator>.labels.jsonl beside the task file)')
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)', parsePort, DEFAULT_ANNOTATION_PORT)
    .action(async (options) => {
      const { annotateServeCommand } = await import('./commands/annotate.js');
      setExitCode(await annotateServeCommand(options, context, signals.stop));
    });
  annotate
    .command('import')
    .description("store the labels of one or more annotators next to the models' own scores; the run's report then shows the comparison")
    .argument('<labels-files...>', 'labels files written by `pmiyc annotate serve`, one per annotator')
    .addOption(shared.store())
    .addOption(shared.runName('the run the labels belong to (default: the run named in the files; checked against them)'))
    .action(async (files, options) => {
      const { annotateImportCommand } = await import('./commands/annotate.js');
      setExitCode(await annotateImportCommand({ ...options, files }, context));
    });

  // The judge study is the group's default subcommand, so that `pmiyc judge --models a,b` runs it; the group
  // has no options of its own, so a subcommand's options never go to the group.
  const judge = program
    .command('judge')
    .description('LLM as judge (paper Sec. 4.1.2): accuracy of judge models on argument pairs people rated; and a synthesized preference dataset');
  const judgeRun = judge
    .command('run', { isDefault: true })
    .description('(the default) show judge models pairs of arguments people rated, each in a seeded order, and report their accuracy')
    .addOption(shared.models('the judge models'))
    .option('--pairs <file>', 'your own pairs as JSON lines {claim, a, b, better: "a"|"b", difference} (default: the Anthropic persuasion ratings)')
    .addOption(shared.dataDir('anthropic-persuasion/persuasion_data.csv'))
    .addOption(shared.limit('pairs'))
    .addOption(shared.sample('pairs', ''))
    .addOption(shared.resume('continue a stopped judge run (the latest, or --study NAME)'))
    .addOption(shared.takeOver())
    .addOption(shared.studyName('name of the study (default judge-N); with --resume, the judge study to continue (default: the latest)'))
    .addOption(shared.store())
    .addOption(shared.config(context.env))
    .addOption(shared.concurrency())
    .addOption(shared.seed('run seed; every call seed and the order of each pair derive from it'))
    .addOption(shared.temperature(0))
    .addOption(shared.maxTokens(400))
    .addOption(shared.maxAttempts('asks per item before its reply counts as unusable'))
    .addOption(shared.maxCost())
    .addOption(shared.noCache('study'))
    .action(async (options) => {
      const { judgeCommand } = await import('./commands/judge.js');
      setExitCode(await judgeCommand({ ...options, ...runExtras(context) }, context, signals));
    });
  // `pmiyc judge --help` shows the options of the study it runs, not only the list of subcommands.
  judge.addHelpText(
    'after',
    () => `\nOptions of \`pmiyc judge\` (that is, \`pmiyc judge run\`):\n${judgeRun.helpInformation().split('\nOptions:\n')[1] ?? ''}`,
  );
  judge
    .command('synthesize')
    .description('a preference dataset: per claim an argument and a more persuasive rewrite of it, as JSON lines')
    .requiredOption('--model <model>', 'the model that writes and rewrites the arguments')
    .addOption(shared.claims('subjective, examples, or a .csv/.jsonl file of subjective claims'))
    .addOption(shared.dataDir())
    .addOption(shared.limit())
    .addOption(shared.sample())
    .option('--out <file.jsonl>', 'where to write the dataset (default: standard output)')
    .addOption(shared.studyName('name of the study (default synthesis-N)'))
    .addOption(shared.store())
    .addOption(shared.config(context.env))
    .addOption(shared.concurrency())
    .addOption(shared.seed('run seed; every call seed derives from it'))
    .addOption(shared.temperature(0.7))
    .addOption(shared.maxTokens(400))
    .addOption(shared.maxAttempts('asks per item before its reply counts as unusable'))
    .addOption(shared.maxCost())
    .addOption(shared.noCache('study'))
    .action(async (options) => {
      const { judgeSynthesizeCommand } = await import('./commands/judge.js');
      setExitCode(await judgeSynthesizeCommand({ ...options, ...runExtras(context) }, context, signals));
    });

  return program;
}
