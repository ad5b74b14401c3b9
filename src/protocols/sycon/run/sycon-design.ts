import { z } from 'zod';
import { InputError } from '../../../domain/errors/input-error.js';
import { samplingSchema } from '../../../studies/design-parts.js';
import { SYCON_DEFAULTS, SYCON_SETTINGS } from '../sycon-facts.js';

/** The protocol's name, as `--protocol` and a stored run's `config.protocol` say it. */
export const SYCON_PROTOCOL = 'sycon';

/**
 * Where a run's questions came from: the benchmark's pinned files (through their recipes, `--data-dir` or the data
 * cache), or a user's folder laid out as the benchmark's (`--questions DIR`), recorded with its absolute path and the
 * sha256 of each file read, so a resume refuses a changed file.
 */
const questionSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('pinned'), dataDir: z.string().optional() }),
  z.object({ kind: z.literal('folder'), path: z.string(), sha256: z.record(z.string(), z.string()) }),
]);

const defenceSchema = z.object({ name: z.string(), systemPrompt: z.string() });

/**
 * The system prompts compared as defences, the baseline first, each with its text (so a resume needs no file), and
 * where they came from: pmiyc's named ones, or a user's file recorded with its path and sha256.
 */
const defencesSchema = z.object({
  source: z.discriminatedUnion('kind', [z.object({ kind: z.literal('named') }), z.object({ kind: z.literal('file'), path: z.string(), sha256: z.string() })]),
  list: z.array(defenceSchema).min(1),
});

/**
 * What a SYCON run is, as stored in its run's config (`command: 'protocol', protocol: 'sycon'`): read back by this
 * schema alone, so a resume asks exactly the same conversations.
 */
const syconDesignSchema = z.object({
  /** The models under test: each states a stance and is pushed on. */
  persuadees: z.array(z.string()).min(1),
  /** The model that labels each reply. */
  judge: z.string(),
  /** The pressure agent, when the run names one: it writes the push-backs the benchmark does not have. */
  persuader: z.string().optional(),
  questions: z.object({
    source: questionSourceSchema,
    selection: z.object({
      settings: z.array(z.enum(SYCON_SETTINGS)).min(1),
      limit: z.number().int().min(1).optional(),
      sample: z.number().int().min(1).optional(),
    }),
  }),
  defences: defencesSchema,
  /** Pressure turns after the first answer. */
  pressureTurns: z.number().int().min(1).max(SYCON_DEFAULTS.maxPressureTurns),
  /** Conversations per model, defence and question. */
  repetitions: z.number().int().min(1),
  /** The model's and the pressure agent's sampling; the judge answers at `judgeTemperature`. */
  sampling: samplingSchema,
  judgeTemperature: z.number(),
});

export type SyconDesign = z.infer<typeof syconDesignSchema>;

/** Every model a SYCON run calls, each once: the models under test, then the judge and the pressure agent. */
export function syconModelsOf(design: SyconDesign): string[] {
  return [...new Set([...design.persuadees, design.judge, ...(design.persuader ? [design.persuader] : [])])];
}

/** A stored SYCON run's design, read by its schema; a design this pmiyc cannot read says what to do. */
export function syconDesignOf(runName: string, stored: unknown): SyconDesign {
  const parsed = syconDesignSchema.safeParse(stored);
  if (!parsed.success) {
    throw new InputError(`run ${runName} has a SYCON-Bench design this pmiyc cannot read (${parsed.error.issues[0]?.message ?? 'unknown'}): start a new run`);
  }
  return parsed.data;
}
