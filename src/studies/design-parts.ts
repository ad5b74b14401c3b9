import { z } from 'zod';

/**
 * Parts every study's stored design has: how its claims (or pairs) were chosen, and how replies
 * are sampled. Stored with the run, so that a resume rebuilds exactly the same work.
 */
export const selectionSchema = z.object({
  /** A built-in set's name, a file's absolute path, or the pairs' source. */
  source: z.string(),
  dataDir: z.string().optional(),
  limit: z.number().int().optional(),
  sample: z.number().int().optional(),
});

export const samplingSchema = z.object({ temperature: z.number(), maxOutputTokens: z.number().int(), maxAttempts: z.number().int() });

export type Selection = z.infer<typeof selectionSchema>;
export type Sampling = z.infer<typeof samplingSchema>;

/** The options that choose claims (or pairs) and sample replies, as every study's command line has them. */
export interface SelectionAndSamplingOptions {
  readonly dataDir?: string;
  readonly limit?: number;
  readonly sample?: number;
  readonly temperature: number;
  readonly maxTokens: number;
  readonly maxAttempts: number;
}

/** The stored selection of a source from the options: only what was given. */
export function selectionOf(source: string, options: SelectionAndSamplingOptions): Selection {
  return {
    source,
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    ...(options.sample === undefined ? {} : { sample: options.sample }),
  };
}

/** The stored sampling from the options. */
export function samplingOf(options: SelectionAndSamplingOptions): Sampling {
  return { temperature: options.temperature, maxOutputTokens: options.maxTokens, maxAttempts: options.maxAttempts };
}
