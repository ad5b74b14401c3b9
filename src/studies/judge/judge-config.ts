import { z } from 'zod';
import { samplingSchema, selectionSchema } from '../design-parts.js';

/** What a judge run is, as stored with it so that --resume rebuilds exactly the same trials. */
const storedJudgeDesignSchema = z.object({
  judges: z.array(z.string()).min(1),
  pairs: selectionSchema,
  sampling: samplingSchema,
});

export type StoredJudgeDesign = z.infer<typeof storedJudgeDesignSchema>;

export const judgeConfigSchema = z.looseObject({ command: z.literal('judge'), design: storedJudgeDesignSchema, configPath: z.string().optional() });
