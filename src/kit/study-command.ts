import type { PmiycConfig } from '../config/config-schema.js';
import { loadConfig } from '../io/inputs/load-config.js';
import type { ClosingText } from '../report/texts/run-totals-text.js';
import { type ModelChecks, setUpSessionModels } from '../runner/models/check-models.js';
import type { StudyRunInput } from '../runner/open-study-session.js';
import type { RunSignals } from '../runner/run-signals.js';
import { openStore, type Store, type StoreAccess } from '../store/result-store.js';
import { aboutRun, type CommandContext, printClosing, sessionWorldOf } from './command-context.js';
import { type FailureReporter, failureReporter } from './failure-reporter.js';

/**
 * One wiring of a study command, used by every kind of study: options -> prepared inputs (a new
 * study's, or a stored one's to resume) -> models checked -> store opened -> session -> outcome ->
 * closing text -> exit code. A kind says only what is its own (`StudyKind`); `cli/commands/` parses
 * the options, calls `runStudyCommand` and returns its exit code.
 */

/** The options every study command takes (declared in `cli/shared-options.ts`), and how it continues a study. */
export interface StudyCommandOptions {
  readonly store: string;
  readonly config?: string;
  readonly seed: number;
  /** Model calls in flight at once, across all models. */
  readonly concurrency: number;
  readonly maxCost?: number;
  /** False: --no-cache (reuse nothing from earlier runs). */
  readonly cache: boolean;
  /** False: --no-check-models. */
  readonly checkModels?: boolean;
  readonly gitRevision?: string;
  readonly progressIntervalMs?: number;
  readonly resume: boolean;
  /** With --resume: take the study from a process that still holds it. */
  readonly takeOver?: boolean;
  readonly dryRun?: boolean;
}

/** What a study's session runs, new or resumed: the config it is run with, its seed and its name. */
export interface PreparedStudy {
  readonly config: PmiycConfig;
  readonly configPath?: string;
  readonly seed: number;
  /** Given, or the stored study's; a new study without one is named by its kind (`consistency-N`). */
  readonly name?: string;
}

/** What every study's outcome tells the command: which run, and how the session ended. */
export interface StudyOutcome {
  readonly run: { readonly name: string };
  readonly ending: { readonly exitCode: number };
}

/** A study's session as its kind runs it: the store, the inputs, the settings every study shares, and where failures are told. */
interface StudySession<Options, Prepared> {
  readonly store: Store;
  readonly options: Options;
  readonly prepared: Prepared;
  /** The settings every study shares (`runner/open-study-session.ts`). */
  readonly input: StudyRunInput;
  /** The first failures told one by one, the rest counted. */
  readonly failures: FailureReporter;
  readonly context: CommandContext;
}

/** What a command prints when its session ends: the session's closing text, then more on standard output. */
interface StudyClosing {
  readonly closing: ClosingText;
  readonly more?: string;
}

/** What a kind of study adds to the one wiring (`kit/kinds/*.ts`, one per kind). */
export interface StudyKind<Options extends StudyCommandOptions, Prepared extends PreparedStudy, Outcome extends StudyOutcome> {
  /**
   * Whether the options continue a stored study (default: --resume). 'by name': the study named
   * continues when the store has it, else a new one starts (people serve: the same --run, no
   * --resume); which is known once the store is open, so its inputs are read as a new study's.
   */
  readonly continues?: (options: Options) => boolean | 'by name';
  /** A new study's inputs read, its config loaded and its models checked, before any store is opened: bad input never leaves an empty store behind. */
  readonly prepareNew: (options: Options, context: CommandContext) => Promise<Prepared>;
  /**
   * A stored study's own inputs, to continue it (`studies/study-resume.ts` picks it and checks the
   * flags typed again). With `continues` 'by name' it is given the inputs read as a new study's
   * (`fresh`) and checks them against the stored study of that name, when the store has one.
   */
  readonly prepareResume: (store: Store, options: Options, context: CommandContext, fresh?: Prepared) => Promise<Prepared>;
  /** How the store is opened (default: made when a new study starts, else one that exists). */
  readonly access?: (options: Options, continuing: boolean) => StoreAccess;
  /** Checks of the store before anything is prepared from it (a run the study refers to exists). */
  readonly checkStore?: (store: Store, options: Options) => void;
  /** `--dry-run`: what the study would do and cost, as lines; reads, never writes. */
  readonly dryRun?: (fresh: Prepared | undefined, options: Options, context: CommandContext) => Promise<readonly string[]>;
  /** The study's session: its own run function, given what every study shares. */
  readonly run: (session: StudySession<Options, Prepared>) => Promise<Outcome>;
  /** What is printed once the session ended. */
  readonly closing: (session: StudySession<Options, Prepared>, outcome: Outcome) => StudyClosing;
}

/** What a study command ends with: its exit code, and the run it ran (the demo reports it next). */
export interface StudyCommandEnding {
  readonly exitCode: number;
  readonly runName?: string;
}

/** The settings every study shares, from the options and the prepared inputs. */
function studyRunInput(
  options: StudyCommandOptions,
  prepared: PreparedStudy,
  context: CommandContext,
  world: { readonly signals: RunSignals; readonly store: Store },
): StudyRunInput {
  return {
    config: prepared.config,
    seed: prepared.seed,
    concurrency: options.concurrency,
    cache: options.cache,
    resume: options.resume,
    takeOver: options.takeOver === true,
    ...(options.checkModels === false ? { checkModels: false } : {}),
    ...(options.maxCost === undefined ? {} : { maxCostUsd: options.maxCost }),
    ...(prepared.name ? { name: prepared.name } : {}),
    about: aboutRun(context, options.gitRevision, prepared.configPath),
    world: sessionWorldOf(context, world.signals, world.store, options.progressIntervalMs),
  };
}

/** A store opened for `work`, closed when it ends, however it ends. */
export async function withStore<T>(path: string, access: StoreAccess, now: (() => Date) | undefined, work: (store: Store) => Promise<T> | T): Promise<T> {
  const store = openStore(path, { ...(now ? { now } : {}), access });
  try {
    return await work(store);
  } finally {
    store.close();
  }
}

/** A study command of any kind, from its options to its exit code (see the top of this file). */
export async function runStudyCommand<Options extends StudyCommandOptions, Prepared extends PreparedStudy, Outcome extends StudyOutcome>(
  kind: StudyKind<Options, Prepared, Outcome>,
  options: Options,
  context: CommandContext,
  signals: RunSignals,
): Promise<StudyCommandEnding> {
  const continuing = kind.continues?.(options) ?? options.resume;
  const fresh = continuing === true ? undefined : await kind.prepareNew(options, context);
  if (options.dryRun && kind.dryRun) {
    context.stdout.write(`${(await kind.dryRun(fresh, options, context)).join('\n')}\n`);
    return { exitCode: 0 };
  }
  const access = kind.access?.(options, continuing === true) ?? (continuing === true ? 'write' : 'create');
  return withStore(options.store, access, context.now, async (store) => {
    kind.checkStore?.(store, options);
    const prepared = fresh === undefined || continuing === 'by name' ? await kind.prepareResume(store, options, context, fresh) : fresh;
    const session = {
      store,
      options,
      prepared,
      input: studyRunInput(options, prepared, context, { signals, store }),
      failures: failureReporter(context.stderr),
      context,
    };
    const outcome = await kind.run(session);
    const { closing, more } = kind.closing(session, outcome);
    printClosing(context, closing);
    if (more !== undefined) context.stdout.write(more);
    return { exitCode: outcome.ending.exitCode, runName: outcome.run.name };
  });
}

/**
 * A new study's config loaded and the models it names checked (bad names, missing keys, prices
 * under --max-cost, a `sim/` agent's protocol keys, checked by `simulatedProtocol`, and with `batching`
 * that the batched models can batch), before any store is opened.
 */
export async function checkedConfig(
  configPath: string | undefined,
  models: readonly string[],
  options: { readonly maxCost?: number | undefined },
  context: Pick<CommandContext, 'env'>,
  checks: Pick<ModelChecks, 'simulatedProtocol' | 'batching'> = {},
): Promise<PmiycConfig> {
  return checkConfigModels(await loadConfig(configPath), models, options, context, checks);
}

/** `checkedConfig` of a config loaded already (a kind that reads it before it knows its models: an APE run's variants). */
export function checkConfigModels(
  config: PmiycConfig,
  models: readonly string[],
  options: { readonly maxCost?: number | undefined },
  context: Pick<CommandContext, 'env'>,
  checks: Pick<ModelChecks, 'simulatedProtocol' | 'batching'> = {},
): PmiycConfig {
  setUpSessionModels(config, context.env, models, { maxCostUsd: options.maxCost, ...checks });
  return config;
}
