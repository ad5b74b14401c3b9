import { InputError } from '../../domain/errors/input-error.js';
import type { RunProtocol } from '../../domain/run-protocols.js';
import { type ApeCommandOptions, apeKind } from '../../kit/kinds/ape-kind.js';
import { type SyconCommandOptions, syconKind } from '../../kit/kinds/sycon-kind.js';
import { settleTournamentOptions, type TournamentCommandOptions, tournamentKind, tournamentOptionsSettled } from '../../kit/kinds/tournament-kind.js';
import { settleRunExperiment } from '../../kit/run-experiment.js';
import type { StudyCommandEnding } from '../../kit/study-command.js';
import { runStudyCommand } from '../../kit/study-command.js';
import type { CliContext, RunSignals } from '../terminal.js';

/** The options only a protocol beside PMIYC's takes (`--protocol ape`, `--protocol sycon`), as its kind reads them. */
type ProtocolOptions = { readonly protocol?: RunProtocol } & Partial<
  Pick<ApeCommandOptions, 'persuadee' | 'evaluator' | 'refusalCheck' | 'categories' | 'topics' | 'stateDegree'>
> &
  Partial<Pick<SyconCommandOptions, 'judge' | 'pressure' | 'settings' | 'questions' | 'defences' | 'pressureTurns'>>;

export type RunOptions = TournamentCommandOptions & ProtocolOptions & Partial<Pick<ApeCommandOptions, 'temperature' | 'maxTokens' | 'maxAttempts'>>;

const APE_ONLY: ReadonlyArray<readonly [keyof ProtocolOptions, string]> = [
  ['persuadee', '--persuadee'],
  ['evaluator', '--evaluator'],
  ['refusalCheck', '--refusal-check'],
  ['categories', '--categories'],
  ['topics', '--topics'],
  ['stateDegree', '--state-degree'],
];

const SYCON_ONLY: ReadonlyArray<readonly [keyof ProtocolOptions, string]> = [
  ['judge', '--judge'],
  ['pressure', '--pressure'],
  ['settings', '--settings'],
  ['questions', '--questions'],
  ['defences', '--defences'],
  ['pressureTurns', '--pressure-turns'],
];

/** A protocol's own flags typed for a run of another protocol: refused, naming the protocol they are for. */
function refuseFlagsOf(flags: ReadonlyArray<readonly [keyof ProtocolOptions, string]>, protocol: string, options: ProtocolOptions): void {
  const typed = flags.filter(([key]) => options[key] !== undefined).map(([, flag]) => flag);
  if (typed.length > 0)
    throw new InputError(
      `${typed.join(', ')} ${typed.length === 1 ? 'is' : 'are'} for --protocol ${protocol}: add --protocol ${protocol}, or drop ${typed.length === 1 ? 'it' : 'them'}`,
    );
}

/**
 * `pmiyc run`: a tournament (see kit/kinds/tournament-kind.ts), or with --protocol ape (or `protocol: ape` in the
 * experiment file) an APE run (kit/kinds/ape-kind.ts); the experiment fills in what the command line does not say.
 */
export async function runCommand(options: RunOptions, context: CliContext, signals: RunSignals): Promise<number> {
  const settled = await settleRunExperiment(options, context);
  if (settled.protocol === 'ape') return (await runStudyCommand(apeKind, apeOptionsOf(settled), context, signals)).exitCode;
  if (settled.protocol === 'sycon') return (await runStudyCommand(syconKind, syconOptionsOf(settled), context, signals)).exitCode;
  const tournament = tournamentOptionsSettled({ ...tournamentOptionsOf(settled), typedConfig: settled.typedConfig }, context);
  return (await runStudyCommand(tournamentKind, tournament, context, signals)).exitCode;
}

/** A tournament's options: the protocols' own flags are refused, and left out of what the tournament reads. */
function tournamentOptionsOf(options: RunOptions): TournamentCommandOptions {
  const {
    protocol: _protocol,
    persuadee: _persuadee,
    evaluator: _evaluator,
    refusalCheck: _refusalCheck,
    categories: _categories,
    topics: _topics,
    judge: _judge,
    pressure: _pressure,
    settings: _settings,
    questions: _questions,
    defences: _defences,
    pressureTurns: _pressureTurns,
    ...rest
  } = options;
  refuseFlagsOf(APE_ONLY, 'ape', options);
  refuseFlagsOf(SYCON_ONLY, 'sycon', options);
  return rest;
}

/** The tournament's flags that an APE run has no use for, as typed: refused rather than ignored. */
const TOURNAMENT_ONLY: ReadonlyArray<readonly [string, string]> = [
  ['persuaders', '--persuaders'],
  ['persuadees', '--persuadees'],
  ['persuaderVariants', '--persuader-variants'],
  ['persuadeeVariants', '--persuadee-variants'],
  ['claims', '--claims'],
  ['setting', '--setting'],
  ['turns', '--turns'],
  ['probeDrift', '--probe-drift'],
  ['until', '--until'],
  ['precision', '--precision'],
  ['confidence', '--confidence'],
  ['wave', '--wave'],
  ['retryFailed', '--retry-failed'],
  ['maxFailures', '--max-failures'],
];

/** An APE run's options from `pmiyc run`'s; a tournament's flag typed with it is refused. */
function apeOptionsOf(options: RunOptions): ApeCommandOptions {
  refuseFlagsOf(SYCON_ONLY, 'sycon', options);
  const typed = TOURNAMENT_ONLY.filter(([key]) => options.given.has(key)).map(([, flag]) => flag);
  if (typed.length > 0)
    throw new InputError(
      `${typed.join(', ')} ${typed.length === 1 ? 'is' : 'are'} not for --protocol ape (an APE run takes --models, --persuadee, --evaluator, --refusal-check, --categories, --topics, --limit, --sample, --repeat, --batch): drop ${typed.length === 1 ? 'it' : 'them'}`,
    );
  return {
    ...options,
    repeat: options.repeat ?? 1,
    temperature: options.temperature ?? 0.5,
    maxTokens: options.maxTokens ?? 400,
    maxAttempts: options.maxAttempts ?? 3,
  };
}

/** A SYCON-Bench run's options from `pmiyc run`'s; a tournament's or APE's flag typed with it is refused. */
function syconOptionsOf(options: RunOptions): SyconCommandOptions {
  refuseFlagsOf(APE_ONLY, 'ape', options);
  const typed = [...TOURNAMENT_ONLY, ['batch', '--batch'] as const].filter(([key]) => options.given.has(key)).map(([, flag]) => flag);
  if (typed.length > 0)
    throw new InputError(
      `${typed.join(', ')} ${typed.length === 1 ? 'is' : 'are'} not for --protocol sycon (a SYCON-Bench run takes --models, --judge, --pressure, --settings, --questions, --defences, --pressure-turns, --limit, --sample, --repeat): drop ${typed.length === 1 ? 'it' : 'them'}`,
    );
  return {
    ...options,
    repeat: options.repeat ?? 1,
    temperature: options.temperature ?? 0,
    maxTokens: options.maxTokens ?? 400,
    maxAttempts: options.maxAttempts ?? 3,
  };
}

/** `pmiyc run`, also telling which run it ran (the demo writes its report next). */
export async function runTournamentCommand(options: RunOptions, context: CliContext, signals: RunSignals): Promise<StudyCommandEnding> {
  return runStudyCommand(tournamentKind, await settleTournamentOptions(options, context), context, signals);
}
