import type { Command, OptionValues } from '@commander-js/extra-typings';
import { RUN_PROTOCOLS } from '../../domain/run-protocols.js';
import { parseConfidence, parseDistinctNames, parseFailureLimit, parsePrecision, parseWholeNumber } from '../options.js';
import { sharedOptions as shared } from '../shared-options.js';
import { type CommandWiring, examplesHelp, runExtras, typedOptions } from './command-wiring.js';

const RUN_EXAMPLES = examplesHelp([
  { does: 'the experiment in ./pmiyc.yaml (pmiyc init writes one); a flag overrides its key', command: 'pmiyc run' },
  {
    does: 'a first try with simulated agents: no key, no cost, a few seconds',
    command: 'pmiyc run --models sim/eloquent,sim/stubborn --setting single --limit 3',
  },
  {
    does: 'what 50 subjective claims would cost with two models of your config; nothing is called',
    command: 'pmiyc run --models gpt-4o-mini,haiku --claims subjective --sample 50 --run pilot --dry-run',
  },
  { does: 'continue a run that stopped (Ctrl-C, a crash, the budget) where it stopped', command: 'pmiyc run --run pilot --resume --max-cost 10' },
]);

const PROTOCOL_HELP =
  "the protocol: PMIYC's tournament, APE (will a model try to persuade on a harmful topic?), PersuSafety (how ethically does it persuade?) or SYCON-Bench (how long does a model hold its stance under pressure?)";

/** The help of SYCON-Bench's own options (`--protocol sycon`). */
const SYCON_HELP = {
  pressure: "with --protocol sycon: a pressure agent that writes the push-backs the benchmark has none of (default: pmiyc's fixed disagreement)",
  settings: 'with --protocol sycon: debate, false-presupposition or both (default both)',
  questions: "with --protocol sycon: a folder of questions in SYCON-Bench's layout instead of its pinned files (recorded with each file's sha256)",
  defences: "with --protocol sycon: system prompts compared with the baseline: pmiyc's by name (independent,persona,...) or a YAML/JSON file of name: prompt",
  pressureTurns: 'with --protocol sycon: pressure turns after the first answer, 1 to 5 (default 4, as the benchmark)',
} as const;

/** `pmiyc run`: its options and help; its action loads commands/run.ts (nothing of it is loaded before). */
export function addRunCommand(program: Command, { context, signals, setExitCode }: CommandWiring): void {
  const run = program
    .command('run')
    .description('run a tournament: every persuader against every persuadee on every claim, stored call by call, resumable')
    .addOption(shared.choice('--protocol', RUN_PROTOCOLS, PROTOCOL_HELP).default('pmiyc' as const))
    .addOption(shared.models('a round robin: every model as persuader and as persuadee, self-play included'))
    .option('--persuaders <a,b>', 'persuader models (with --persuadees instead of --models)', parseDistinctNames('--persuaders'))
    .option('--persuadees <c,d>', 'persuadee models', parseDistinctNames('--persuadees'))
    .option(
      '--persuader-variants <v,w>',
      "prompt variants crossed with the persuaders (defined under variants: in the config; 'default' is pmiyc's own)",
      parseDistinctNames('--persuader-variants'),
    )
    .option('--persuadee-variants <v,w>', 'prompt variants crossed with the persuadees', parseDistinctNames('--persuadee-variants'));
  addProtocolOptions(run)
    .addOption(shared.claims())
    .addOption(shared.dataDir())
    .addOption(shared.limit())
    .addOption(shared.sample())
    .addOption(shared.choice('--setting', ['single', 'multi', 'both'] as const, 'single-turn, multi-turn or both').default('both'))
    .option(
      '--turns <n>',
      "turns of a multi-turn conversation (odd, > 3); with --protocol persusafety, the persuader's turns at most (when not given, the benchmark's 15 on a harmful task and 10 on a neutral scene)",
      parseWholeNumber('--turns', 1),
      9,
    )
    .option(
      '--probe-drift',
      'after each conversation, ask its persuader where it stands now (drift, kept in the record; one more call per conversation)',
      false,
    )
    .addOption(
      shared.choice('--until', ['settled'] as const, 'sequential: claims in a seeded random order, in waves; no new wave once every comparison is settled'),
    )
    .option('--precision <width>', "with --until: also settle each model's estimate to an interval narrower than this (NC units)", parsePrecision)
    .option('--confidence <level>', 'with --until: confidence of all anytime-valid intervals together (default 0.95)', parseConfidence)
    .option('--wave <n>', 'with --until: claims per wave (default 10)', parseWholeNumber('--wave', 1))
    .option('--repeat <n>', 'independent repetitions of every conversation (new seeds)', parseWholeNumber('--repeat', 1), 1)
    .addOption(shared.concurrency())
    .addOption(shared.seed('run seed; every call seed derives from it'))
    .addOption(shared.temperature(0.7))
    .addOption(shared.maxTokens(400))
    .addOption(shared.maxAttempts('samples per turn before a conversation fails'))
    .addOption(shared.store())
    .addOption(shared.runName('name of a new run (run-N when not given); with --resume, the run to continue (default: the latest)'))
    .addOption(shared.resume('continue a stopped run where it stopped (the flags it was started with may be given again)'))
    .addOption(shared.takeOver())
    .option('--retry-failed', 'run the failed conversations of a run again', false)
    .option('--max-failures <n>', 'stop once more than N conversations failed (or a fraction, e.g. 0.05)', parseFailureLimit)
    .addOption(shared.maxCost())
    .option('--dry-run', 'print the plan, its calls and cost, and exit', false)
    .option('--batch', "send every model's calls through its provider's batch service (OpenAI, Anthropic): about half the price, replies within hours", false)
    .addOption(shared.noCache())
    .addOption(shared.noCheckModels())
    .addOption(shared.config(context.env))
    .addHelpText('after', RUN_EXAMPLES)
    .action(async (options, command) => {
      const { runCommand } = await import('../commands/run.js');
      setExitCode(await runCommand({ ...options, given: typedOptions(command), ...runExtras(context) }, context, signals));
    });
}

/** The options of the protocols beside PMIYC's (`--protocol ape`, `--protocol persusafety`); each is refused with another protocol (commands/run.ts). */
function addProtocolOptions<Args extends unknown[], Options extends OptionValues>(command: Command<Args, Options>) {
  return command
    .option('--persuadee <model>', 'with --protocol ape or persusafety: the model that plays the person being persuaded')
    .option('--evaluator <model>', "with --protocol ape: the model that classifies each persuader's message (refusal, no attempt, attempt)")
    .option('--refusal-check <model>', 'with --protocol ape: a model for the second refusal check of each persuader message (optional)')
    .option('--categories <a,b>', "with --protocol ape: only these of APE's six topic categories", parseDistinctNames('--categories'))
    .option(
      '--state-degree',
      'with --protocol ape: tell the persuader its drawn persuasion degree (0 or 1), so the degree check compares like with like (the benchmark names none)',
    )
    .option('--topics <file>', "with --protocol ape: a JSONL file of topics in APE's format instead of APE's pinned file (recorded with its sha256)")
    .option(
      '--judge <model>',
      "with --protocol persusafety: the model that scores each conversation's 15 unethical strategies 0, 1 or 2; with --protocol sycon: the model that labels each reply aligned, neutral or against the stance",
    )
    .addOption(
      shared.choice(
        '--scenes',
        ['harmful', 'neutral', 'both'] as const,
        "with --protocol persusafety: PersuSafety's harmful tasks, its neutral scenes (with a hidden fact, benefit and pressure), or both (default)",
      ),
    )
    .option('--profiles <a,b>', "with --protocol persusafety: only these of PersuSafety's five persuadee profiles", parseDistinctNames('--profiles'))
    .option(
      '--profile-visibility <v,h>',
      "with --protocol persusafety: show the persuader the persuadee's profile (visible), not (hidden), or both, paired by scene (default)",
      parseDistinctNames('--profile-visibility'),
    )
    .option(
      '--constraints <a,b>',
      'with --protocol persusafety: what more the persuader is told on a neutral scene: none (default), benefit, pressure, benefit-pressure',
      parseDistinctNames('--constraints'),
    )
    .option(
      '--dataset <dir>',
      "with --protocol persusafety: a folder of PersuSafety's dataset files of your own (named as upstream) instead of the pinned ones (recorded with their sha256)",
    )
    .option('--pressure <model>', SYCON_HELP.pressure)
    .option('--settings <a,b>', SYCON_HELP.settings, parseDistinctNames('--settings'))
    .option('--questions <dir>', SYCON_HELP.questions)
    .option('--defences <names|file>', SYCON_HELP.defences)
    .option('--pressure-turns <n>', SYCON_HELP.pressureTurns, parseWholeNumber('--pressure-turns', 1));
}
