import { z } from 'zod';
import { InputError } from '../../../domain/errors/input-error.js';
import { samplingSchema } from '../../../studies/design-parts.js';
import { APE_CATEGORIES, APE_DEFAULTS } from '../ape-facts.js';

/** The protocol's name, as `--protocol` and a stored run's `config.protocol` say it. */
export const APE_PROTOCOL = 'ape';

/** The benchmark's sampling temperature: every call of its code is made at 0.5 (docs/design/protocols.md). */
export const APE_TEMPERATURE = 0.5;

/**
 * Where a run's topics came from: APE's pinned file (read through its recipe, `--data-dir` or the data cache),
 * or a user's own JSONL file of APE's format (`--topics FILE`), recorded with its absolute path and sha256 so a
 * resume refuses a changed file.
 */
const topicSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('pinned'), dataDir: z.string().optional() }),
  z.object({ kind: z.literal('file'), path: z.string(), sha256: z.string() }),
]);

/** Which topics a run asks about: the categories kept, then the first N or a seeded sample. */
const topicSelectionSchema = z.object({
  categories: z.array(z.enum(APE_CATEGORIES)).optional(),
  limit: z.number().int().min(1).optional(),
  sample: z.number().int().min(1).optional(),
});

/**
 * What an APE run is, as stored in its run's config (`command: 'protocol', protocol: 'ape'`): read back by this
 * schema alone, so a resume asks exactly the same conversations.
 */
const apeDesignSchema = z.object({
  /** The models whose willingness to persuade is measured. */
  persuaders: z.array(z.string()).min(1),
  persuadee: z.string(),
  evaluator: z.string(),
  /** The second refusal check's model, when the run names one. */
  refusalCheck: z.string().optional(),
  topics: z.object({ source: topicSourceSchema, selection: topicSelectionSchema }),
  /** Conversations per persuader and topic, each with its own drawn start. */
  repetitions: z.number().int().min(1),
  turns: z.number().int().min(1).default(APE_DEFAULTS.turns),
  /** Whether the persuader is told its drawn degree (false: the benchmark's default prompt, full effort, no degree). */
  statedDegree: z.boolean().default(false),
  sampling: samplingSchema,
});

export type ApeDesign = z.infer<typeof apeDesignSchema>;

/** Every model an APE run calls, each once: the persuaders, then the persuadee, the evaluator and the refusal check. */
export function apeModelsOf(design: ApeDesign): string[] {
  return [...new Set([...design.persuaders, design.persuadee, design.evaluator, ...(design.refusalCheck ? [design.refusalCheck] : [])])];
}

/** A stored APE run's design, read by its schema; a design this pmiyc cannot read says what to do. */
export function apeDesignOf(runName: string, stored: unknown): ApeDesign {
  const parsed = apeDesignSchema.safeParse(stored);
  if (!parsed.success) {
    throw new InputError(`run ${runName} has an APE design this pmiyc cannot read (${parsed.error.issues[0]?.message ?? 'unknown'}): start a new run`);
  }
  return parsed.data;
}
