import { InputError } from '../../domain/errors/input-error.js';
import type { RunProtocol } from '../../domain/run-protocols.js';
import { describeInvalidTurns } from '../../domain/validation.js';
import { type ApeCommandOptions, apeKind } from '../../kit/kinds/ape-kind.js';
import { type PersusafetyCommandOptions, persusafetyKind } from '../../kit/kinds/persusafety-kind.js';
import { settleTournamentOptions, type TournamentCommandOptions, tournamentKind, tournamentOptionsSettled } from '../../kit/kinds/tournament-kind.js';
import { settleRunExperiment } from '../../kit/run-experiment.js';
import type { StudyCommandEnding } from '../../kit/study-command.js';
import { runStudyCommand } from '../../kit/study-command.js';
import type { CliContext, RunSignals } from '../terminal.js';

/** The options only a protocol beside PMIYC's takes (`--protocol ape`, `--protocol persusafety`), as their kinds read them. */
type ProtocolOptions = { readonly protocol?: RunProtocol } & Partial<
  Pick<ApeCommandOptions, 'persuadee' | 'evaluator' | 'refusalCheck' | 'categories' | 'topics' | 'stateDegree'>
> &
  Partial<Pick<PersusafetyCommandOptions, 'judge' | 'scenes' | 'profiles' | 'profileVisibility' | 'constraints' | 'dataset'>>;

export type RunOptions = TournamentCommandOptions & ProtocolOptions & Partial<Pick<ApeCommandOptions, 'temperature' | 'maxTokens' | 'maxAttempts'>>;

type Flags = ReadonlyArray<readonly [string, string]>;

/** Each protocol's own flags (`--persuadee` is both's). */
const APE_ONLY: Flags = [
  ['evaluator', '--evaluator'],
  ['refusalCheck', '--refusal-check'],
  ['categories', '--categories'],
  ['topics', '--topics'],
  ['stateDegree', '--state-degree'],
];
const PERSUSAFETY_ONLY: Flags = [
  ['judge', '--judge'],
  ['scenes', '--scenes'],
  ['profiles', '--profiles'],
  ['profileVisibility', '--profile-visibility'],
  ['constraints', '--constraints'],
  ['dataset', '--dataset'],
];

const typedOf = (options: RunOptions, flags: Flags) => flags.filter(([key]) => options.given.has(key)).map(([, flag]) => flag);
const listed = (flags: readonly string[]) => `${flags.join(', ')} ${flags.length === 1 ? 'is' : 'are'}`;
const them = (flags: readonly string[]) => (flags.length === 1 ? 'it' : 'them');

/**
 * `pmiyc run`: a tournament (see kit/kinds/tournament-kind.ts), or with --protocol ape (or `protocol: ape` in the
 * experiment file) an APE run (kit/kinds/ape-kind.ts), or with --protocol persusafety a PersuSafety run
 * (kit/kinds/persusafety-kind.ts); the experiment fills in what the command line does not say.
 */
export async function runCommand(options: RunOptions, context: CliContext, signals: RunSignals): Promise<number> {
  const settled = await settleRunExperiment(options, context);
  if (settled.protocol === 'ape') return (await runStudyCommand(apeKind, apeOptionsOf(settled), context, signals)).exitCode;
  if (settled.protocol === 'persusafety') return (await runStudyCommand(persusafetyKind, persusafetyOptionsOf(settled), context, signals)).exitCode;
  const tournament = tournamentOptionsSettled({ ...tournamentOptionsOf(settled), typedConfig: settled.typedConfig }, context);
  return (await runStudyCommand(tournamentKind, tournament, context, signals)).exitCode;
}

/** A tournament's options: the protocols' own flags are refused, and left out of what the tournament reads; its --turns is checked (odd, at least 3). */
function tournamentOptionsOf(options: RunOptions): TournamentCommandOptions {
  const {
    protocol: _protocol,
    persuadee: _persuadee,
    evaluator: _evaluator,
    refusalCheck: _refusalCheck,
    categories: _categories,
    topics: _topics,
    judge: _judge,
    scenes: _scenes,
    profiles: _profiles,
    profileVisibility: _profileVisibility,
    constraints: _constraints,
    dataset: _dataset,
    ...rest
  } = options;
  const ape = typedOf(options, [['persuadee', '--persuadee'], ...APE_ONLY]);
  if (ape.length > 0) throw new InputError(`${listed(ape)} for --protocol ape: add --protocol ape, or drop ${them(ape)}`);
  const persusafety = typedOf(options, PERSUSAFETY_ONLY);
  if (persusafety.length > 0)
    throw new InputError(`${listed(persusafety)} for --protocol persusafety: add --protocol persusafety, or drop ${them(persusafety)}`);
  const invalidTurns = options.given.has('turns') ? describeInvalidTurns(options.turns) : undefined;
  if (invalidTurns !== undefined) throw new InputError(`--turns: ${invalidTurns}.`);
  return rest;
}

/** The tournament's flags that a protocol's run has no use for, as typed: refused rather than ignored. */
const TOURNAMENT_ONLY: Flags = [
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

/** The shared settings a protocol's run gets when not typed (its kind puts the benchmark's sampling in their place). */
const protocolDefaults = (options: RunOptions) => ({
  repeat: options.repeat ?? 1,
  temperature: options.temperature ?? 0.5,
  maxTokens: options.maxTokens ?? 400,
  maxAttempts: options.maxAttempts ?? 3,
});

/** An APE run's options from `pmiyc run`'s; a tournament's or PersuSafety's flag typed with it is refused. */
function apeOptionsOf(options: RunOptions): ApeCommandOptions {
  const typed = typedOf(options, [...TOURNAMENT_ONLY, ...PERSUSAFETY_ONLY]);
  if (typed.length > 0)
    throw new InputError(
      `${listed(typed)} not for --protocol ape (an APE run takes --models, --persuadee, --evaluator, --refusal-check, --categories, --topics, --limit, --sample, --repeat, --batch): drop ${them(typed)}`,
    );
  return { ...options, ...protocolDefaults(options) };
}

/** A PersuSafety run's options from `pmiyc run`'s; a tournament's flag (but --turns, its most turns), --batch or APE's typed with it is refused. */
function persusafetyOptionsOf(options: RunOptions): PersusafetyCommandOptions {
  const typed = typedOf(options, [...TOURNAMENT_ONLY.filter(([key]) => key !== 'turns'), ['batch', '--batch'], ...APE_ONLY]);
  if (typed.length > 0)
    throw new InputError(
      `${listed(typed)} not for --protocol persusafety (a PersuSafety run takes --models, --persuadee, --judge, --scenes, --profiles, --profile-visibility, --constraints, --turns, --dataset, --limit, --sample, --repeat): drop ${them(typed)}`,
    );
  return { ...options, ...protocolDefaults(options) };
}

/** `pmiyc run`, also telling which run it ran (the demo writes its report next). */
export async function runTournamentCommand(options: RunOptions, context: CliContext, signals: RunSignals): Promise<StudyCommandEnding> {
  return runStudyCommand(tournamentKind, await settleTournamentOptions(options, context), context, signals);
}
