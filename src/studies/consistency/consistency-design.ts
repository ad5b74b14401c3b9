import { InputError } from '../../domain/errors/input-error.js';
import { type SelectionAndSamplingOptions, samplingOf, selectionOf } from '../design-parts.js';

import type { RunConfig, StudyRunRecords } from '../run-config.js';
import type { ConsistencyConfig, ConsistencyDesign } from './consistency-config.js';

export type { ConsistencyConfig, ConsistencyDesign } from './consistency-config.js';

/** The tournament run a study compares its answers with (`--run`) must exist and be a tournament. */
export function checkTournamentRun(records: Pick<StudyRunRecords, 'findRun'>, name: string | undefined): void {
  if (name === undefined) return;
  if (records.findRun(name).config.kind === 'consistency')
    throw new InputError(`--run names the tournament run to compare openings with, but ${name} is a consistency study: name a run made by \`pmiyc run\``);
}

/** A stored study's config, or an error that says what the run is instead. */
export function consistencyConfigOf(runName: string, config: RunConfig): ConsistencyConfig {
  if (config.kind !== 'consistency') throw new InputError(`run ${runName} is not a consistency study: name one made by \`pmiyc consistency\` with --study`);
  return config;
}

export interface ConsistencyDesignOptions extends SelectionAndSamplingOptions {
  readonly models?: readonly string[];
  readonly claims: string;
  readonly samples: number;
}

/**
 * Refuses flags that do not go together: a study either asks models (--models, --resume) or reads a
 * published file (--import, with --model naming whose answers they are).
 */
export function checkConsistencyFlags(options: {
  readonly import?: string;
  readonly model?: string;
  readonly models?: readonly string[];
  readonly resume: boolean;
}): void {
  if (options.import !== undefined && options.models !== undefined)
    throw new InputError('give either --models (ask the models) or --import FILE.csv (read published answers), not both');
  if (options.import !== undefined && options.resume) throw new InputError('an import is finished at once: --resume continues a study that asks models');
  if (options.model !== undefined && options.import === undefined)
    throw new InputError('--model names the model of an --import file: to ask models, use --models a,b');
}

/** The design of a new study from its options. */
export function consistencyDesignFromOptions(options: ConsistencyDesignOptions): ConsistencyDesign {
  const models = [...new Set(options.models ?? [])];
  if (models.length === 0) throw new InputError('name the models to ask: --models a,b,c (or --import FILE.csv to read published answers)');
  return {
    models,
    samples: options.samples,
    claims: selectionOf(options.claims, options),
    sampling: samplingOf(options),
  };
}
