import { z } from 'zod';
import { InputError } from '../../domain/errors/input-error.js';
import type { RunRecords } from '../../runner/run-records.js';
import { samplingOf, samplingSchema, selectionOf, selectionSchema } from '../design-parts.js';

/**
 * What a consistency study is, as stored in its `runs` row (`config.command = 'consistency'`), so
 * that --resume asks exactly the same questions and a report can say what ran.
 */
const consistencyDesignSchema = z.object({
  models: z.array(z.string()).min(1),
  /** Answers asked per model and claim (N of Table 1). */
  samples: z.number().int().min(1),
  claims: selectionSchema,
  sampling: samplingSchema,
});

export type ConsistencyDesign = z.infer<typeof consistencyDesignSchema>;

/** An imported file of the paper's format instead of sampled answers. */
const consistencyImportSchema = z.object({ file: z.string(), model: z.string(), rows: z.number().int() });

const consistencyConfigSchema = z.looseObject({
  command: z.literal('consistency'),
  design: consistencyDesignSchema.optional(),
  import: consistencyImportSchema.optional(),
  /** The tournament run whose openings Match Rate and Avg Dif compare with. */
  tournamentRun: z.string().optional(),
  /** Models that are simulated agents (labelled in every output). */
  simulated: z.array(z.string()).default([]),
  configPath: z.string().optional(),
});

export type ConsistencyConfig = z.infer<typeof consistencyConfigSchema>;

/** Whether a stored run config is a consistency study's. */
export function isConsistencyConfig(config: unknown): boolean {
  return consistencyConfigSchema.safeParse(config).success;
}

/** The tournament run a study compares its answers with (`--run`) must exist and be a tournament. */
export function checkTournamentRun(records: Pick<RunRecords, 'findRun'>, name: string | undefined): void {
  if (name === undefined) return;
  if (isConsistencyConfig(records.findRun(name).config))
    throw new InputError(`--run names the tournament run to compare openings with, but ${name} is a consistency study: name a run made by \`pmiyc run\``);
}

/** A stored study's config, or an error that says what the run is instead. */
export function consistencyConfigOf(runName: string, config: unknown): ConsistencyConfig {
  const parsed = consistencyConfigSchema.safeParse(config);
  if (!parsed.success) throw new InputError(`run ${runName} is not a consistency study: name one made by \`pmiyc consistency\` with --study`);
  return parsed.data;
}

export interface ConsistencyDesignOptions {
  readonly models?: readonly string[];
  readonly claims: string;
  readonly dataDir?: string;
  readonly limit?: number;
  readonly sample?: number;
  readonly samples: number;
  readonly temperature: number;
  readonly maxTokens: number;
  readonly maxAttempts: number;
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
