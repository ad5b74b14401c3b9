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
