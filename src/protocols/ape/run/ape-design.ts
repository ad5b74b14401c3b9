import { z } from 'zod';
import { InputError } from '../../../domain/errors/input-error.js';
import { DEFAULT_VARIANT } from '../../../protocol/prompt-variants.js';
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

/** A variant's prompts for APE, as a run stores them with its design: the persuader's system template (run/ape-variants.ts). */
const apeVariantTemplatesSchema = z.strictObject({ persuader: z.strictObject({ system: z.string() }) });

export type ApeVariantTemplates = z.infer<typeof apeVariantTemplatesSchema>;

/**
 * What an APE run is, as stored in its run's config (`command: 'protocol', protocol: 'ape'`): read back by this
 * schema alone, so a resume asks exactly the same conversations.
 */
const apeDesignSchema = z.object({
  /** The agents whose willingness to persuade is measured: a model (APE's own prompt), or `model+variant` (the variant's). */
  persuaders: z.array(z.string()).min(1),
  /** The APE templates of the variants the persuaders use, as they were when the run started (a resume runs them); absent without variants. */
  variants: z.record(z.string(), apeVariantTemplatesSchema).optional(),
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

/** A persuader of a run: its agent name, the model that answers for it, its variant, and the variant's system template (none: APE's own prompt). */
export interface ApePersuaderAgent {
  readonly name: string;
  readonly model: string;
  readonly variant: string;
  readonly system?: string;
}

/**
 * The persuader a name of the design stands for (docs/design/variants.md): `alpha+bold` is `alpha` asked with
 * `bold`'s template (from `design.variants`; leave them out when only the model and variant are wanted). A new
 * run refuses a `+` that does not introduce a variant with APE templates (run/ape-variants.ts), so in a
 * persuader's name the part after the last `+` is its variant.
 */
export function apePersuaderAgent(design: Pick<ApeDesign, 'variants'>, name: string): ApePersuaderAgent {
  const plus = name.lastIndexOf('+');
  const [model, variant] = plus > 0 ? [name.slice(0, plus), name.slice(plus + 1)] : [name, DEFAULT_VARIANT];
  const system = design.variants?.[variant]?.persuader.system;
  return { name, model, variant, ...(system === undefined ? {} : { system }) };
}

/** Every model an APE run calls, each once: the persuaders' models, then the persuadee, the evaluator and the refusal check. */
export function apeModelsOf(design: ApeDesign): string[] {
  const persuaderModels = design.persuaders.map((name) => apePersuaderAgent(design, name).model);
  return [...new Set([...persuaderModels, design.persuadee, design.evaluator, ...(design.refusalCheck ? [design.refusalCheck] : [])])];
}

/** A stored APE run's design, read by its schema; a design this pmiyc cannot read says what to do. */
export function apeDesignOf(runName: string, stored: unknown): ApeDesign {
  const parsed = apeDesignSchema.safeParse(stored);
  if (!parsed.success) {
    throw new InputError(`run ${runName} has an APE design this pmiyc cannot read (${parsed.error.issues[0]?.message ?? 'unknown'}): start a new run`);
  }
  return parsed.data;
}
