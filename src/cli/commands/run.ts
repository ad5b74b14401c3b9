import { resolve } from 'node:path';
import type { PmiycConfig } from '../../config/config-schema.js';
import { withExperiment } from '../../config/experiment-options.js';
import { loadConfig } from '../../io/inputs/load-config.js';
import { type PreparedTournament, prepareNewTournament, prepareTournamentResume, previewPreparedTournament } from '../../io/prepare/prepare-tournament.js';
import { echoedAgentsText } from '../../report/agent-variants.js';
import { dryRunText } from '../../report/texts/dry-run-text.js';
import { runOutcomeText } from '../../report/texts/run-outcome-text.js';
import { openToRead } from '../../store/open-to-read.js';
import { openStore } from '../../store/result-store.js';
import type { DesignOptions } from '../../studies/tournament/tournament-design.js';
import { runTournament } from '../../studies/tournament/tournament-study.js';
import { type GivenSettings, givenSettingsOf, planTournamentWork, sessionSettings, type TournamentWork } from '../../studies/tournament/tournament-work.js';
import type { SessionOptions } from '../shared-options.js';
import { aboutRun, type CliContext, dataOf, printClosing, type RunSignals, sessionWorldOf } from '../terminal.js';

export interface RunOptions extends DesignOptions, SessionOptions {
  /** The caller writes the report and prints where it is and how to view the run (the demo). */
  readonly reportFollows?: boolean;
  /** The flags that ask other requests of the models, named when a run replays everything (default: those of pmiyc run). */
  readonly askAfresh?: readonly string[];
  readonly run?: string;
  readonly resume: boolean;
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

/** A new run as its dry run prices it: with its config and the work it was checked for. */
type FreshRun = PreparedTournament & { readonly config: PmiycConfig; readonly work: TournamentWork };

/**
 * `--dry-run`: a new run's plan, or (with --resume or --retry-failed) what continuing a stored run
 * would make, priced from what the store holds of it. Read-only: the store is opened to read, when
 * there is one, and nothing is created or changed.
 */
async function dryRun(fresh: FreshRun | undefined, given: GivenSettings, options: RunOptions, context: CliContext): Promise<number> {
  const store = fresh ? openToRead(options.store) : openStore(options.store, { access: 'read' });
  try {
    const prepared = fresh ?? (await prepareTournamentResume(store!, options, dataOf(context)));
    const preview = await previewPreparedTournament(prepared, {
      config: fresh?.config ?? (await loadConfig(prepared.configPath)),
      env: context.env,
      given,
      seed: options.seed,
      retryFailed: options.retryFailed,
      ...(fresh ? { work: fresh.work } : {}),
      ...(store ? { store } : {}),
    });
    context.stdout.write(`${dryRunText(preview, options.store).join('\n')}\n`);
    return 0;
  } finally {
    store?.close();
  }
}

/** `pmiyc run`: a tournament (see studies/tournament/tournament-study.ts), then its table and how to go on. */
export async function runCommand(options: RunOptions, context: CliContext, signals: RunSignals): Promise<number> {
  return (await runTournamentCommand(options, context, signals)).exitCode;
}

/** `pmiyc run`, also telling which run it ran (the demo writes its report next). */
export async function runTournamentCommand(typed: RunOptions, context: CliContext, signals: RunSignals): Promise<{ exitCode: number; runName?: string }> {
  const continuing = typed.resume || typed.retryFailed;
  const typedConfig = await loadConfig(typed.config);
  // The config's experiment fills in what the command line does not say; a resumed run keeps its own design.
  const experiment = continuing ? (typedConfig.experiment?.store ? { store: typedConfig.experiment.store } : undefined) : typedConfig.experiment;
  const options = withExperiment(typed, experiment, typed.config === undefined ? undefined : resolve(typed.config));
  if (!continuing && options.setting === 'single' && options.given.has('turns') && options.turns !== 3) {
    context.stderr.write(`pmiyc: --turns ${options.turns} has no effect with --setting single: a single-turn conversation always has 3 turns\n`);
  }
  // A new run's input is checked before the store is opened: bad input never leaves an empty store behind.
  const fresh = continuing ? undefined : await prepareNewTournament(options, typedConfig, dataOf(context));
  for (const line of fresh ? echoedAgentsText(fresh.design) : []) context.stderr.write(`pmiyc: ${line}\n`);
  const settings = givenSettingsOf(options, continuing);
  // A new run's models are checked before the store is opened, too.
  const freshRun = fresh && {
    ...fresh,
    config: typedConfig,
    work: planTournamentWork(fresh.design, fresh.claims, typedConfig, context.env, sessionSettings(settings, undefined)),
  };
  if (options.dryRun) return { exitCode: await dryRun(freshRun, settings, options, context) };
  const store = openStore(options.store, { now: context.now, access: continuing ? 'write' : 'create' });
  try {
    const prepared = freshRun ?? (await prepareTournamentResume(store, options, dataOf(context)));
    const outcome = await runTournament({
      store,
      design: prepared.design,
      claims: prepared.claims,
      config: freshRun?.config ?? (await loadConfig(prepared.configPath)),
      seed: options.seed,
      ...settings,
      ...((prepared.resumed?.run.name ?? options.run) ? { name: prepared.resumed?.run.name ?? options.run } : {}),
      ...(options.runPrefix ? { namePrefix: options.runPrefix } : {}),
      resume: options.resume,
      retryFailed: options.retryFailed,
      takeOver: options.takeOver,
      ...(options.checkModels === false ? { checkModels: false } : {}),
      about: aboutRun(context, options.gitRevision, prepared.configPath),
      world: sessionWorldOf(context, signals, store, options.progressIntervalMs),
    });
    printClosing(
      context,
      runOutcomeText(outcome, store, options.store, {
        reportFollows: options.reportFollows === true,
        ...(options.askAfresh ? { askAfresh: options.askAfresh } : {}),
      }),
    );
    return { exitCode: outcome.ending.exitCode, runName: outcome.run.name };
  } finally {
    store.close();
  }
}
