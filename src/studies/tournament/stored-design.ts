import { z } from 'zod';
import { variantTemplatesSchema } from '../../config/config-schema.js';
import { samplingSchema, selectionSchema } from '../design-parts.js';

/* A tournament's design and settings as stored with its run: the schemas studies/run-config.ts reads a stored run by. */

/** What a run is, as stored with it so that --resume can rebuild exactly the same plan. */
export const storedDesignSchema = z.object({
  persuaders: z.array(z.string()).min(1),
  persuadees: z.array(z.string()).min(1),
  settings: z.array(z.enum(['single', 'multi'])).min(1),
  multiTurns: z.number().int(),
  repetitions: z.number().int().min(1),
  claims: selectionSchema,
  sampling: samplingSchema,
  /** The prompt variants the agents use, as they were when the run started (a resume runs the same prompts). */
  variants: z.record(z.string(), variantTemplatesSchema).optional(),
  /**
   * How the run's calls are seeded: `by-request`, each role by the name of the prompts it is asked
   * with, each repetition with openings of its own (engine/call-seed.ts). Absent in runs started
   * before: by agent name, the repetitions sharing their openings (resume-check.ts refuses to mix the two).
   */
  callSeeds: z.literal('by-request').optional(),
  /**
   * `--probe-drift`: after each completed conversation its persuader is asked where it stands now
   * (drift, docs/design/techniques.md); its answer is kept in the record. Absent when not probing.
   */
  probeDrift: z.literal(true).optional(),
  /**
   * `--until settled`: the claims in a seeded random order, run in waves, and no new wave once every
   * quantity is settled (docs/design/sequential.md). Absent in a fixed-design run.
   */
  sequential: z
    .object({
      until: z.literal('settled'),
      confidence: z.number().gt(0).lt(1),
      precision: z.number().positive().optional(),
      wave: z.number().int().min(1),
    })
    .optional(),
});

export type StoredDesign = z.infer<typeof storedDesignSchema>;

/** How a run is run (not what it measures): kept with the run, taken again by --resume unless given anew. */
export const runSettingsSchema = z.object({
  concurrency: z.number().int().min(1),
  maxFailures: z.number().optional(),
  maxCost: z.number().optional(),
  /** False: the run was started with --no-cache, and reuses nothing from earlier runs on resume either. */
  cache: z.boolean(),
  /** True: started with --batch (every model's calls through its provider's batch service), and resumed so. */
  batch: z.boolean().optional(),
});

export type RunSettings = z.infer<typeof runSettingsSchema>;

/**
 * A model as a tournament stores it with its run (`config.models`, ModelSettings as resolved): read
 * loosely, only what a report says of it (which provider and model, where served, which revision,
 * how sampled); the rest is kept as stored.
 */
export const storedModelSettingsSchema = z.looseObject({
  provider: z.string(),
  model: z.string(),
  baseURL: z.string().optional(),
  replicas: z.array(z.string()).optional(),
  temperature: z.number().nullable().optional(),
  maxTokens: z.number().optional(),
  revision: z.string().optional(),
});

export type StoredModelSettings = z.infer<typeof storedModelSettingsSchema>;
