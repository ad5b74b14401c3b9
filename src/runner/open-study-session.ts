import type { PmiycConfig } from '../config/config-schema.js';
import type { SessionModels } from './models/check-models.js';
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
  readonly run: Omit<RunToOpen, 'resume' | 'name' | 'seed' | 'about'>;
  /** The study's models, set up once (`setUpSessionModels`) before its run is opened. */
  readonly models: SessionModels;
  readonly unit: string;
  readonly total: number;
  /** The command holding the run, shown to a second writer. */
  readonly command: string;
  /** `--batch`: every model's calls go through its provider's batch service. */
  readonly batch?: boolean;
}

/**
 * Opens the study's run (resumed or new, see `openRun`) and starts its session, with the settings
 * every study shares, once its models answer (`startRunSession`). The tournament, whose settings may
 * come from its stored run, opens its own.
 */
export async function openStudySession(records: RunRecords, input: StudyRunInput, request: StudySessionRequest): Promise<RunSession> {
  const { run, resumed } = openRun(records, {
    ...request.run,
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
      models: request.models,
      concurrency: input.concurrency,
      cache: input.cache,
      command: request.command,
      unit: request.unit,
      total: request.total,
      takeOver: input.takeOver === true,
      ...(input.checkModels === false ? { checkModels: false } : {}),
      ...(request.batch ? { batch: true } : {}),
      ...(input.maxCostUsd === undefined ? {} : { maxCostUsd: input.maxCostUsd }),
    },
    input.world,
  );
}
