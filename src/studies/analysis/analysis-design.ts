import { z } from 'zod';
import { taxonomySchema } from '../../config/taxonomy/taxonomy-schema.js';
import { InputError } from '../../domain/errors/input-error.js';
import { samplingSchema } from '../design-parts.js';

/**
 * What an analysis study is (`pmiyc analyze`, issue 29), as stored in its `runs` row
 * (`config.command = 'analyze'`), so that --resume asks exactly the same questions and a report can
 * say which judges read which turns with which taxonomy. The taxonomy is stored whole: a report never
 * depends on a file that may have changed since.
 */
const analysisDesignSchema = z.object({
  /** The judge models, in the order given (`--judge a,b`). */
  judges: z.array(z.string()).min(1),
  /** The taxonomy the judges label with, as loaded (a built-in's name or a file's items). */
  taxonomy: taxonomySchema,
  /** Where the taxonomy came from: a built-in's name or the file's absolute path. */
  taxonomySource: z.string(),
  /** Conversations analysed: a seeded sample of the run's (`--sample N`); absent: all of them. */
  sample: z.number().int().min(1).optional(),
  /** Whether each persuader's stance is asked again after its conversation (`--probe-drift`). */
  probeDrift: z.boolean().default(false),
  sampling: samplingSchema,
});

const analysisConfigSchema = z.looseObject({
  command: z.literal('analyze'),
  /** The tournament run whose conversations are analysed. */
  tournamentRun: z.string(),
  design: analysisDesignSchema,
  /** Judges that are simulated agents (labelled in every output). */
  simulated: z.array(z.string()).default([]),
  configPath: z.string().optional(),
});

export type AnalysisConfig = z.infer<typeof analysisConfigSchema>;

/** Whether a stored run config is an analysis study's. */
export function isAnalysisConfig(config: unknown): boolean {
  return analysisConfigSchema.safeParse(config).success;
}

/** A stored study's config, or an error that says what the run is instead. */
export function analysisConfigOf(runName: string, config: unknown): AnalysisConfig {
  const parsed = analysisConfigSchema.safeParse(config);
  if (!parsed.success) throw new InputError(`run ${runName} is not an analysis study: name one made by \`pmiyc analyze\``);
  return parsed.data;
}
