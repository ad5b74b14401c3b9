import type { Command } from '@commander-js/extra-typings';
import { ANALYSIS_GRAINS, DEFAULT_GRAIN } from '../../studies/analysis/analysis-grain.js';
import { parseJudges } from '../options.js';
import { sharedOptions as shared } from '../shared-options.js';
import { type CommandWiring, examplesHelp, runExtras, typedOptions } from './command-wiring.js';

const ANALYZE_EXAMPLES = examplesHelp([
  { does: 'what labelling the latest tournament with one judge would cost (nothing is called)', command: 'pmiyc analyze --judge gpt-4o-mini --dry-run' },
  {
    does: 'two judges on a seeded sample of 200 conversations of run paper, within a budget',
    command: 'pmiyc analyze --judge gpt-4o-mini,haiku --run paper --sample 200 --max-cost 5',
  },
  { does: "the run's report then shows the judges' labels (its latest analysis, or --analysis NAME)", command: 'pmiyc report --run paper' },
  {
    does: "another judge scores a PersuSafety run's conversations again; the closing text and the run's report give the two judges' agreement",
    command: 'pmiyc analyze --run claude --judge gpt-4o-mini',
  },
]);

/** `pmiyc analyze`: its options and help; its action loads commands/analyze.ts (nothing of it is loaded before). */
export function addAnalyzeCommand(program: Command, { context, signals, setExitCode }: CommandWiring): void {
  program
    .command('analyze')
    .description(
      "judges label every turn of a tournament run: the persuader's techniques and unethical strategies, refusals and role breaks; --probe-drift asks each persuader where it stands afterwards. Given a PersuSafety run, one judge scores its conversations again and the agreement with the run's judge is reported",
    )
    .addOption(shared.runName('the tournament run to analyse (default: the latest tournament), or a PersuSafety run to score again'))
    .option('--judge <a,b>', 'the judge models; several give each turn one label set each', parseJudges)
    .option(
      '--taxonomy <rhetoric|techniques|persusafety|file>',
      'the techniques and unethical strategies to label with: a built-in taxonomy, or a taxonomy YAML file (default: rhetoric)',
    )
    .addOption(shared.sample('completed conversations', ''))
    .addOption(
      shared
        .choice(
          '--grain',
          ANALYSIS_GRAINS,
          'how each judge is asked: one call per conversation that labels every turn, or one call per turn with the conversation up to it',
        )
        .default(DEFAULT_GRAIN),
    )
    .option('--probe-drift', 'also ask each persuader, after its conversation, where it stands itself (drift)', false)
    .option('--dry-run', 'print the plan, what the store holds of it, and its calls and cost; make no call and no study', false)
    .option('--batch', "send every model's calls through its provider's batch service (OpenAI, Anthropic): about half the price, replies within hours", false)
    .addOption(
      shared.studyName('name of a new study (analysis-N when not given); with --resume, the study to continue (default: the latest, of --run if given)'),
    )
    .addOption(shared.resume('continue a stopped study where it stopped (the flags it was started with may be given again)'))
    .addOption(shared.takeOver())
    .addOption(shared.concurrency())
    .addOption(shared.seed('study seed; every call seed and the --sample derive from it'))
    .addOption(shared.temperature(0))
    .addOption(shared.maxTokens(400, "turn's answer (a conversation's call: this times its turns)"))
    .addOption(shared.maxAttempts("asks per turn, or per conversation in the conversation grain, before a turn's analysis fails"))
    .addOption(shared.maxCost())
    .addOption(shared.store())
    .addOption(shared.noCache('study'))
    .addOption(shared.noCheckModels())
    .addOption(shared.config(context.env))
    .addHelpText('after', ANALYZE_EXAMPLES)
    .action(async (options, command) => {
      const { analyzeCommand } = await import('../commands/analyze.js');
      setExitCode(await analyzeCommand({ ...options, given: typedOptions(command), ...runExtras(context) }, context, signals));
    });
}
