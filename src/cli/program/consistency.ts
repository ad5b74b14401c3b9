import { type Command, Option } from '@commander-js/extra-typings';
import { parseWholeNumber } from '../options.js';
import { sharedOptions as shared } from '../shared-options.js';
import { type CommandWiring, runExtras } from './command-wiring.js';

/** `pmiyc consistency`: its options and help; its action loads commands/consistency.ts (nothing of it is loaded before). */
export function addConsistencyCommand(program: Command, { context, signals, setExitCode }: CommandWiring): void {
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
    .addOption(shared.studyName('name of a new study (consistency-N when not given); with --resume, the study to continue (default: the latest)'))
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
    .addOption(shared.noCheckModels())
    .addOption(shared.config(context.env))
    .action(async ({ answers, samples, ...options }) => {
      if (samples !== undefined) context.stderr.write('pmiyc: --samples is now --answers (answers asked per model and claim)\n');
      const { consistencyCommand } = await import('../commands/consistency.js');
      setExitCode(await consistencyCommand({ ...options, samples: samples ?? answers, ...runExtras(context) }, context, signals));
    });
}
