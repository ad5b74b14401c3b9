import { InputError } from '../../domain/errors/input-error.js';
import type { RunProtocol } from '../../domain/run-protocols.js';
import { describeInvalidTurns } from '../../domain/validation.js';
import { type ApeCommandOptions, apeKind } from '../../kit/kinds/ape-kind.js';
import { type PersusafetyCommandOptions, persusafetyKind } from '../../kit/kinds/persusafety-kind.js';
import { type SyconCommandOptions, syconKind } from '../../kit/kinds/sycon-kind.js';
import { settleTournamentOptions, type TournamentCommandOptions, tournamentKind, tournamentOptionsSettled } from '../../kit/kinds/tournament-kind.js';
import { settleRunExperiment } from '../../kit/run-experiment.js';
import type { StudyCommandEnding } from '../../kit/study-command.js';
import { runStudyCommand } from '../../kit/study-command.js';
import type { CliContext, RunSignals } from '../terminal.js';

/** The options only a protocol beside PMIYC's takes (`--protocol ape`, `persusafety`, `sycon`), as their kinds read them. */
type ProtocolOptions = { readonly protocol?: RunProtocol } & Partial<
  Pick<ApeCommandOptions, 'persuadee' | 'evaluator' | 'refusalCheck' | 'categories' | 'topics' | 'stateDegree'>
> &
  Partial<Pick<PersusafetyCommandOptions, 'judge' | 'scenes' | 'profiles' | 'profileVisibility' | 'constraints' | 'dataset'>> &
  Partial<Pick<SyconCommandOptions, 'judge' | 'pressure' | 'settings' | 'questions' | 'defences' | 'pressureTurns'>>;

export type RunOptions = TournamentCommandOptions & ProtocolOptions & Partial<Pick<ApeCommandOptions, 'temperature' | 'maxTokens' | 'maxAttempts'>>;

type Flags = ReadonlyArray<readonly [string, string]>;

/** Each protocol's own flags; a flag may be more than one protocol's (`--persuadee`, `--judge`). */
const PROTOCOL_FLAGS: Readonly<Record<Exclude<RunProtocol, 'pmiyc'>, Flags>> = {
  ape: [
    ['persuadee', '--persuadee'],
    ['evaluator', '--evaluator'],
    ['refusalCheck', '--refusal-check'],
    ['categories', '--categories'],
    ['topics', '--topics'],
    ['stateDegree', '--state-degree'],
  ],
  persusafety: [
    ['persuadee', '--persuadee'],
    ['judge', '--judge'],
    ['scenes', '--scenes'],
    ['profiles', '--profiles'],
    ['profileVisibility', '--profile-visibility'],
    ['constraints', '--constraints'],
    ['dataset', '--dataset'],
  ],
  sycon: [
    ['judge', '--judge'],
    ['pressure', '--pressure'],
    ['settings', '--settings'],
    ['questions', '--questions'],
    ['defences', '--defences'],
    ['pressureTurns', '--pressure-turns'],
  ],
};

const typedOf = (options: RunOptions, flags: Flags) => flags.filter(([key]) => options.given.has(key)).map(([, flag]) => flag);
const listed = (flags: readonly string[]) => `${flags.join(', ')} ${flags.length === 1 ? 'is' : 'are'}`;
const them = (flags: readonly string[]) => (flags.length === 1 ? 'it' : 'them');

/** The protocols that take a flag. */
const protocolsTaking = (flag: string) =>
  Object.entries(PROTOCOL_FLAGS)
    .filter(([, flags]) => flags.some(([, name]) => name === flag))
    .map(([protocol]) => protocol);

/** The flags of the other protocols than `own` that `own` does not also take, as typed. */
function otherProtocolsFlagsTyped(options: RunOptions, own: RunProtocol): string[] {
  const owned = new Set(own === 'pmiyc' ? [] : PROTOCOL_FLAGS[own].map(([key]) => key));
  const others = Object.entries(PROTOCOL_FLAGS)
    .filter(([protocol]) => protocol !== own)
    .flatMap(([, flags]) => flags);
  return [
    ...new Set(
      typedOf(
        options,
        others.filter(([key]) => !owned.has(key)),
      ),
    ),
  ];
}

/**
 * `pmiyc run`: a tournament (see kit/kinds/tournament-kind.ts), or with --protocol ape (or `protocol: ape` in the
 * experiment file) an APE run (kit/kinds/ape-kind.ts), or with --protocol persusafety a PersuSafety run
 * (kit/kinds/persusafety-kind.ts); the experiment fills in what the command line does not say.
 */
export async function runCommand(options: RunOptions, context: CliContext, signals: RunSignals): Promise<number> {
  const settled = await settleRunExperiment(options, context);
  if (settled.protocol === 'ape') return (await runStudyCommand(apeKind, apeOptionsOf(settled), context, signals)).exitCode;
  if (settled.protocol === 'persusafety') return (await runStudyCommand(persusafetyKind, persusafetyOptionsOf(settled), context, signals)).exitCode;
  if (settled.protocol === 'sycon') return (await runStudyCommand(syconKind, syconOptionsOf(settled), context, signals)).exitCode;
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
    pressure: _pressure,
    settings: _settings,
    questions: _questions,
    defences: _defences,
    pressureTurns: _pressureTurns,
    ...rest
  } = options;
  const typed = otherProtocolsFlagsTyped(options, 'pmiyc');
  const protocolsOf = new Set(typed.map((flag) => protocolsTaking(flag).join(' or ')));
  if (protocolsOf.size === 1) {
    const [protocols] = protocolsOf;
    throw new InputError(`${listed(typed)} for --protocol ${protocols}: add --protocol ${protocols}, or drop ${them(typed)}`);
  }
  if (protocolsOf.size > 1) {
    const each = typed.map((flag) => `${flag} (--protocol ${protocolsTaking(flag).join(' or ')})`);
    throw new InputError(`${each.join(', ')} are for other protocols than PMIYC's tournament: add the --protocol they are for, or drop them`);
  }
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
  const typed = [...typedOf(options, TOURNAMENT_ONLY), ...otherProtocolsFlagsTyped(options, 'ape')];
  if (typed.length > 0)
    throw new InputError(
      `${listed(typed)} not for --protocol ape (an APE run takes --models, --persuadee, --evaluator, --refusal-check, --categories, --topics, --limit, --sample, --repeat, --batch): drop ${them(typed)}`,
    );
  return { ...options, ...protocolDefaults(options) };
}

/** A PersuSafety run's options from `pmiyc run`'s; a tournament's flag (but --turns, its most turns) or another protocol's typed with it is refused. */
function persusafetyOptionsOf(options: RunOptions): PersusafetyCommandOptions {
  const typed = [
    ...typedOf(
      options,
      TOURNAMENT_ONLY.filter(([key]) => key !== 'turns'),
    ),
    ...otherProtocolsFlagsTyped(options, 'persusafety'),
  ];
  if (typed.length > 0)
    throw new InputError(
      `${listed(typed)} not for --protocol persusafety (a PersuSafety run takes --models, --persuadee, --judge, --scenes, --profiles, --profile-visibility, --constraints, --turns, --dataset, --limit, --sample, --repeat, --batch): drop ${them(typed)}`,
    );
  return { ...options, ...protocolDefaults(options) };
}

/** A SYCON-Bench run's options from `pmiyc run`'s; a tournament's or APE's flag typed with it is refused. */
function syconOptionsOf(options: RunOptions): SyconCommandOptions {
  const typed = [...typedOf(options, TOURNAMENT_ONLY), ...otherProtocolsFlagsTyped(options, 'sycon')];
  if (typed.length > 0)
    throw new InputError(
      `${listed(typed)} not for --protocol sycon (a SYCON-Bench run takes --models, --judge, --pressure, --settings, --questions, --defences, --pressure-turns, --limit, --sample, --repeat, --batch): drop ${them(typed)}`,
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
