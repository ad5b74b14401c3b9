import { z } from 'zod';
import { samplingSchema, selectionSchema } from '../design-parts.js';

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

export const consistencyConfigSchema = z.looseObject({
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
