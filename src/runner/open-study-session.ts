import type { PmiycConfig } from '../config/config-schema.js';
import type { SimulatedProtocol } from '../models/sim/simulated-protocol.js';
import { type CheckedModels, setUpSessionModels } from './models/check-models.js';
import { openRun, type RunToOpen } from './open-run.js';
import type { RunAbout, RunRecords } from './run-records.js';
import { type RunSession, type SessionWorld, startRunSession } from './run-session.js';

/** What every study is run with, besides its store, its design and what it works on. */
export interface StudyRunInput {
  /** Model aliases and settings, as a config file gives them. */
  readonly config: PmiycConfig;
  readonly seed: number;
  /** Model calls in flight at once, across all models. */
  readonly concurrency: number;
  /** False: reuse nothing from earlier runs (`--no-cache`). */
  readonly cache: boolean;
  readonly maxCostUsd?: number;
  /** The run's name (default `<prefix>-N`); with `resume`, the run to continue (default: the latest of its kind). */
  readonly name?: string;
  readonly resume?: boolean;
  /** Take the run from a process that still holds it. */
  readonly takeOver?: boolean;
  /** False (`--no-check-models`): start without first checking that each model answers (see `RunSessionOptions.checkModels`). */
  readonly checkModels?: boolean;
  readonly about: RunAbout;
  /** Clock, keys, signals, messages and progress (see `processSessionWorld()` for the process's own). */
  readonly world: SessionWorld;
}

/** The study's side of a session: which run, which models, and what the progress line counts. */
export interface StudySessionRequest {
  /** The run to open; a new one is created with the models as set up (`models.stored` is what it records of them). */
  readonly run: Omit<RunToOpen, 'resume' | 'name' | 'seed' | 'about' | 'create'> & {
    readonly create: (models: CheckedModels) => ReturnType<RunToOpen['create']>;
  };
  /** The models the study calls, by name: set up here, once, before the run is opened. */
  readonly models: readonly string[];
  readonly unit: string;
  readonly total: number;
  /** The command holding the run, shown to a second writer. */
  readonly command: string;
  /** `--batch`: every model's calls go through its provider's batch service (each is checked to be able to). */
  readonly batch?: boolean;
  /** A protocol's simulated replies, which its `sim/` agents answer its requests with (docs/design/simulated-agents.md, "Protocols"). */
  readonly simulatedProtocol?: SimulatedProtocol;
}

/**
 * Sets up the study's models once (`setUpSessionModels`: known, keyed, priced under a budget, able to
 * batch), which refuses bad ones before any run is made, then opens the study's run (resumed or new,
 * see `openRun`) and starts its session, with the settings every study shares, once its models answer
 * (`startRunSession`). The tournament, whose settings may come from its stored run, opens its own.
 */
export async function openStudySession(records: RunRecords, input: StudyRunInput, request: StudySessionRequest): Promise<RunSession> {
  const models = setUpSessionModels(input.config, input.world.env, request.models, {
    maxCostUsd: input.maxCostUsd,
    ...(request.batch ? { batching: { all: true } } : {}),
    ...(request.simulatedProtocol ? { simulatedProtocol: request.simulatedProtocol } : {}),
  });
  const { run, resumed } = openRun(records, {
    ...request.run,
    create: () => request.run.create(models),
    resume: input.resume === true,
    ...(input.name === undefined ? {} : { name: input.name }),
    seed: input.seed,
    about: input.about,
  });
  return startRunSession(
    {
      records,
      run,
      resumed,
      models,
      concurrency: input.concurrency,
      cache: input.cache,
      command: request.command,
      unit: request.unit,
      total: request.total,
      takeOver: input.takeOver === true,
      ...(input.checkModels === false ? { checkModels: false } : {}),
      ...(request.batch ? { batch: true } : {}),
      ...(request.simulatedProtocol ? { simulatedProtocol: request.simulatedProtocol } : {}),
      ...(input.maxCostUsd === undefined ? {} : { maxCostUsd: input.maxCostUsd }),
    },
    input.world,
  );
}
