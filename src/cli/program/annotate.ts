import type { Command } from '@commander-js/extra-typings';
import { ANNOTATION_SETTINGS } from '../../studies/annotation/choose-conversations.js';
import { DEFAULT_ANNOTATION_PORT, parseClaimsPerDomain, parsePort, parseWholeNumber } from '../options.js';
import { sharedOptions as shared } from '../shared-options.js';
import type { CommandWiring } from './command-wiring.js';

/** `pmiyc annotate`: its options and help; its action loads commands/annotate.ts (nothing of it is loaded before). */
export function addAnnotateCommand(program: Command, { context, signals, setExitCode }: CommandWiring): void {
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
    .addOption(shared.choice('--setting', ANNOTATION_SETTINGS, 'single-turn, multi-turn or both').default('multi'))
    .option('--seed <n>', "seed of the sample and of the order (default: the run's seed)", parseWholeNumber('--seed'))
    .option('--force', 'replace the task file if it exists', false)
    .action(async (options) => {
      const { annotateExportCommand } = await import('../commands/annotate.js');
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
      const { annotateServeCommand } = await import('../commands/annotate.js');
      setExitCode(await annotateServeCommand(options, context, signals.stop));
    });
  annotate
    .command('import')
    .description("store the labels of one or more annotators next to the models' own scores; the run's report then shows the comparison")
    .argument('[labels-files...]', 'labels files written by `pmiyc annotate serve`, one per annotator')
    .addOption(shared.store())
    .addOption(shared.runName('the run the labels belong to (default: the run named in the files; checked against them)'))
    .option('--notes', "instead of files: the grades of persuadee turns written in pmiyc view (each turn's latest), as --annotator's labels", false)
    .option('--annotator <name>', 'with --notes: who graded the turns, e.g. alice')
    .option('--tag <tag>', 'with --notes: only the grades of notes with this tag')
    .action(async (files, options) => {
      const { annotateImportCommand } = await import('../commands/annotate.js');
      setExitCode(await annotateImportCommand({ ...options, files }, context));
    });
}
