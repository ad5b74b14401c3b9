import type { PmiycConfig } from '../../config/config-schema.js';
import { loadConfig } from '../../io/inputs/load-config.js';
import {
  type PreparedTournament,
  type PreviewStoreRecords,
  prepareNewTournament,
  prepareTournamentResume,
  previewPreparedTournament,
} from '../../io/prepare/prepare-tournament.js';
import { echoedAgentsText } from '../../report/agent-variants.js';
import { dryRunText } from '../../report/texts/dry-run-text.js';
import { runOutcomeText } from '../../report/texts/run-outcome-text.js';
import { openToRead } from '../../store/open-to-read.js';
import type { DesignOptions } from '../../studies/tournament/tournament-design.js';
import { runTournament, type TournamentOutcome } from '../../studies/tournament/tournament-study.js';
import { givenSettingsOf, planTournamentWork, sessionSettings, type TournamentWork } from '../../studies/tournament/tournament-work.js';
import { type CommandContext, dataOf } from '../command-context.js';
import { settleRunExperiment } from '../run-experiment.js';
import { type StudyCommandOptions, type StudyKind, withStore } from '../study-command.js';

export interface TournamentCommandOptions extends DesignOptions, StudyCommandOptions {
  /** The caller writes the report and prints where it is and how to view the run (the demo). */
  readonly reportFollows?: boolean;
  /** The flags that ask other requests of the models, named when a run replays everything (default: those of pmiyc run). */
  readonly askAfresh?: readonly string[];
  readonly run?: string;
  readonly retryFailed: boolean;
  readonly maxFailures?: number;
  readonly dryRun: boolean;
  /** Every model's calls through its provider's batch service; kept with the run for --resume. */
  readonly batch?: boolean;
  readonly takeOver: boolean;
  /** A new run's name when --run is not given: `<prefix>-N` (default run-N). */
  readonly runPrefix?: string;
  /** The options the user typed (not defaults): on --resume, design options must match the run's, settings given anew replace the run's. */
  readonly given: ReadonlySet<string>;
}

/** The options of a tournament with the config file they name, read once. */
type SettledOptions = TournamentCommandOptions & { readonly typedConfig: PmiycConfig };

/** What a tournament's session runs: a new run's design and claims (with the work checked for it), or a stored run's own. */
type Prepared = PreparedTournament & { readonly config: PmiycConfig; readonly seed: number; readonly name?: string; readonly work?: TournamentWork };

const continues = (options: TournamentCommandOptions) => options.resume || options.retryFailed;

/**
 * The options of `pmiyc run` settled: the config's experiment fills in what the command line does
 * not say (a resumed run keeps its own design: `settleRunExperiment`), and a flag that has no effect is said.
 */
export async function settleTournamentOptions(typed: TournamentCommandOptions, context: CommandContext): Promise<SettledOptions> {
  return tournamentOptionsSettled(await settleRunExperiment(typed, context), context);
}

/** Options whose experiment is filled in already (`settleRunExperiment`), with a flag that has no effect said. */
export function tournamentOptionsSettled(options: SettledOptions, context: Pick<CommandContext, 'stderr'>): SettledOptions {
  if (!continues(options) && options.setting === 'single' && options.given.has('turns') && options.turns !== 3) {
    context.stderr.write(`pmiyc: --turns ${options.turns} has no effect with --setting single: a single-turn conversation always has 3 turns\n`);
  }
  return options;
}

/**
 * `--dry-run`: a new run's plan, or (with --resume or --retry-failed) what continuing a stored run
 * would make, priced from what the store holds of it. Read-only: the store is opened to read, when
 * there is one, and nothing is created or changed.
 */
async function tournamentDryRun(fresh: Prepared | undefined, options: SettledOptions, context: CommandContext): Promise<readonly string[]> {
  const preview = async (prepared: PreparedTournament, store: PreviewStoreRecords | undefined) =>
    dryRunText(
      await previewPreparedTournament(prepared, {
        config: fresh?.config ?? (await loadConfig(prepared.configPath)),
        env: context.env,
        given: givenSettingsOf(options, continues(options)),
        seed: options.seed,
        retryFailed: options.retryFailed,
        ...(fresh?.work ? { work: fresh.work } : {}),
        ...(store ? { store } : {}),
      }),
      options.store,
    );
  if (fresh === undefined)
    return withStore(options.store, 'read', undefined, async (store) => preview(await prepareTournamentResume(store, options, dataOf(context)), store));
  const store = openToRead(options.store);
  try {
    return await preview(fresh, store);
  } finally {
    store?.close();
  }
}

/** `pmiyc run`: a tournament (see studies/tournament/tournament-study.ts), then its table and how to go on. */
export const tournamentKind: StudyKind<SettledOptions, Prepared, TournamentOutcome> = {
  continues,
  // A new run's input and models are checked before the store is opened: bad input never leaves an empty store behind.
  prepareNew: async (options, context) => {
    const fresh = await prepareNewTournament(options, options.typedConfig, dataOf(context));
    for (const line of echoedAgentsText(fresh.design)) context.stderr.write(`pmiyc: ${line}\n`);
    const settings = sessionSettings(givenSettingsOf(options, false), undefined);
    const work = planTournamentWork(fresh.design, fresh.claims, options.typedConfig, context.env, settings);
    return { ...fresh, config: options.typedConfig, work, seed: options.seed, ...(options.run ? { name: options.run } : {}) };
  },
  prepareResume: async (store, options, context) => {
    const prepared = await prepareTournamentResume(store, options, dataOf(context));
    return { ...prepared, config: await loadConfig(prepared.configPath), seed: options.seed, name: prepared.resumed.run.name };
  },
  dryRun: tournamentDryRun,
  // The settings given now (else the stored run's) replace what every study shares.
  run: ({ store, options, prepared, input }) =>
    runTournament({
      store,
      design: prepared.design,
      claims: prepared.claims,
      config: input.config,
      seed: input.seed,
      ...givenSettingsOf(options, continues(options)),
      ...(input.name ? { name: input.name } : {}),
      ...(options.runPrefix ? { namePrefix: options.runPrefix } : {}),
      resume: options.resume,
      retryFailed: options.retryFailed,
      takeOver: options.takeOver,
      ...(input.checkModels === false ? { checkModels: false } : {}),
      about: input.about,
      world: input.world,
    }),
  closing: ({ store, options }, outcome) => ({
    closing: runOutcomeText(outcome, store, options.store, {
      reportFollows: options.reportFollows === true,
      ...(options.askAfresh ? { askAfresh: options.askAfresh } : {}),
    }),
  }),
};
