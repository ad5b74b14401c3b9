import { z } from 'zod';
import { taxonomySchema } from '../../config/taxonomy/taxonomy-schema.js';
import { samplingSchema } from '../design-parts.js';
import { ANALYSIS_GRAINS } from './analysis-grain.js';

/**
 * What an analysis study is (`pmiyc analyze`, docs/design/techniques.md), as stored in its `runs` row
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
  /** Every judge's calls through its provider's batch service (`--batch`): kept so that a resume batches too. */
  batch: z.boolean().optional(),
  /**
   * How a judge is asked (`--grain`): one call per conversation that labels every turn, or one call per
   * turn. Absent: per turn, as every study made before the conversation grain was; a new per-turn study
   * leaves it out too, so that what it stores is what it stored before.
   */
  grain: z.enum(ANALYSIS_GRAINS).optional(),
});

export const analysisConfigSchema = z.looseObject({
  command: z.literal('analyze'),
  /** The tournament run whose conversations are analysed. */
  tournamentRun: z.string(),
  design: analysisDesignSchema,
  /** Judges that are simulated agents (labelled in every output). */
  simulated: z.array(z.string()).default([]),
  configPath: z.string().optional(),
});

export type AnalysisConfig = z.infer<typeof analysisConfigSchema>;

export type AnalysisDesign = z.infer<typeof analysisDesignSchema>;
