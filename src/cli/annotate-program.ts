import { type Command, Option } from 'commander';
import type { Setting } from '../domain/conversation.js';
import {
  ANNOTATION_SETTINGS,
  annotateExportCommand,
  annotateImportCommand,
  annotateServeCommand,
  DEFAULT_ANNOTATION_PORT,
  parseClaimsPerDomain,
  parsePort,
} from './commands/annotate.js';
import { parseChoice, parseRunName, parseWholeNumber } from './options.js';
import type { CliContext, RunSignals } from './terminal.js';

/**
 * `pmiyc annotate export | serve | import` (self-report reliability, paper Sec. 5.2): the options
 * and actions, added to the program by `buildProgram`. The parent command has no options of its
 * own, so every option belongs to its subcommand.
 */
export function addAnnotateCommands(
  program: Command,
  context: CliContext,
  signals: RunSignals,
  setExitCode: (code: number) => void,
  defaultStore: string,
): void {
  const annotate = program
    .command('annotate')
    .description("self-report reliability (paper Sec. 5.2): people label persuadee turns blind to the models' scores; the report compares them");

  annotate
    .command('export')
    .description("write a task file of a run's persuadee turns for annotators: messages only, every score left out")
    .option('--store <file>', 'SQLite store to read', defaultStore)
    .option('--run <name>', 'run name (default: the latest run)', parseRunName('--run'))
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
    .action(
      async (options: {
        store: string;
        run?: string;
        out?: string;
        sample?: number;
        claimsPerDomain?: { subjective: number; misinformation: number };
        setting: Setting | 'both';
        seed?: number;
        force: boolean;
      }) => {
        setExitCode(await annotateExportCommand(options, context));
      },
    );

  annotate
    .command('serve')
    .description('open the annotation page on 127.0.0.1 for one annotator; labels are saved as they are given (Ctrl-C stops)')
    .requiredOption('--tasks <file>', 'the task file `pmiyc annotate export` wrote')
    .requiredOption('--annotator <name>', 'who is labelling (letters, digits, ".", "-", "_"), e.g. alice')
    .option('--labels <file>', 'labels file to write and continue (default: <tasks>.<annotator>.labels.jsonl beside the task file)')
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)', parsePort, DEFAULT_ANNOTATION_PORT)
    .action(async (options: { tasks: string; annotator: string; labels?: string; port: number }) => {
      setExitCode(await annotateServeCommand(options, context, signals.stop));
    });

  annotate
    .command('import')
    .description("store the labels of one or more annotators next to the models' own scores; the run's report then shows the comparison")
    .argument('<labels-files...>', 'labels files written by `pmiyc annotate serve`, one per annotator')
    .option('--store <file>', 'SQLite store', defaultStore)
    .option('--run <name>', 'the run the labels belong to (default: the run named in the files; checked against them)', parseRunName('--run'))
    .action(async (files: string[], options: { store: string; run?: string }) => {
      setExitCode(await annotateImportCommand({ ...options, files }, context));
    });
}
