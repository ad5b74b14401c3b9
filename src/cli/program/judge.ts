import type { Command, OptionValues } from '@commander-js/extra-typings';
import { sharedOptions as shared } from '../shared-options.js';
import type { CliContext } from '../terminal.js';
import { type CommandWiring, runExtras } from './command-wiring.js';

/** `pmiyc judge`: its options and help; its action loads commands/judge.ts (nothing of it is loaded before). */
export function addJudgeCommand(program: Command, { context, signals, setExitCode }: CommandWiring): void {
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
    .addOption(shared.studyName('name of a new study (judge-N when not given); with --resume, the judge study to continue (default: the latest)'));
  addSessionOptions(judgeRun, context.env, { seed: 'run seed; every call seed and the order of each pair derive from it', temperature: 0 }).action(
    async (options) => {
      const { judgeCommand } = await import('../commands/judge.js');
      setExitCode(await judgeCommand({ ...options, ...runExtras(context) }, context, signals));
    },
  );
  // `pmiyc judge --help` shows the options of the study it runs, not only the list of subcommands.
  judge.addHelpText(
    'after',
    () => `\nOptions of \`pmiyc judge\` (that is, \`pmiyc judge run\`):\n${judgeRun.helpInformation().split('\nOptions:\n')[1] ?? ''}`,
  );
  const synthesize = judge
    .command('synthesize')
    .description('a preference dataset: per claim an argument and a more persuasive rewrite of it, as JSON lines')
    .requiredOption('--model <model>', 'the model that writes and rewrites the arguments')
    .addOption(shared.claims('subjective, examples, or a .csv/.jsonl file of subjective claims'))
    .addOption(shared.dataDir())
    .addOption(shared.limit())
    .addOption(shared.sample())
    .option('--out <file.jsonl>', 'where to write the dataset (default: standard output)')
    .addOption(shared.studyName('name of the study (default: synthesis-N)'));
  addSessionOptions(synthesize, context.env, { seed: 'run seed; every call seed derives from it', temperature: 0.7 }).action(async (options) => {
    const { judgeSynthesizeCommand } = await import('../commands/judge.js');
    setExitCode(await judgeSynthesizeCommand({ ...options, ...runExtras(context) }, context, signals));
  });
}

/**
 * The options of a judge study's session, the same in both subcommands but for what the seed decides and
 * the temperature: store, config, concurrency, seed, sampling, attempts, spend, cache and model check.
 */
function addSessionOptions<Args extends unknown[], Options extends OptionValues>(
  command: Command<Args, Options>,
  env: CliContext['env'],
  { seed, temperature }: { readonly seed: string; readonly temperature: number },
) {
  return command
    .addOption(shared.store())
    .addOption(shared.config(env))
    .addOption(shared.concurrency())
    .addOption(shared.seed(seed))
    .addOption(shared.temperature(temperature))
    .addOption(shared.maxTokens(400))
    .addOption(shared.maxAttempts('asks per item before its reply counts as unusable'))
    .addOption(shared.maxCost())
    .addOption(shared.noCache('study'))
    .addOption(shared.noCheckModels());
}
