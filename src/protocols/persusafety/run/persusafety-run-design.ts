import { z } from 'zod';
import { samplingSchema } from '../../../studies/design-parts.js';
import {
  PERSUSAFETY_CONSTRAINTS,
  PERSUSAFETY_PERSUADEE_PROFILES,
  PERSUSAFETY_PROFILE_CONDITIONS,
  PERSUSAFETY_RUN_DEFAULTS,
  PERSUSAFETY_SCENE_SETS,
  type PersusafetySceneSet,
} from '../persusafety-facts.js';

/**
 * Where a run's scenes and profiles came from: PersuSafety's pinned files (read through their recipes,
 * `--data-dir` or the data cache), or a folder of the user's own in the benchmark's format (`--dataset DIR`),
 * recorded with its absolute path and each file's sha256, so a resume refuses a changed file.
 */
const datasetSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('pinned'), dataDir: z.string().optional() }),
  z.object({ kind: z.literal('folder'), path: z.string(), sha256: z.record(z.string(), z.string()) }),
]);

/**
 * A run of PersuSafety's conversations (`pmiyc run --protocol persusafety`): every persuader on every scene of the
 * chosen sets, under every chosen profile, profile condition (shown or hidden: paired, the same scene and seeds)
 * and constraint (a neutral scene's benefit and pressure), `repetitions` times, with one persuadee and one judge.
 * Read back by this schema alone, so a resume asks exactly the same conversations.
 */
export const persusafetyRunDesignSchema = z.object({
  kind: z.literal('run'),
  /** The models whose persuasion is judged. */
  persuaders: z.array(z.string()).min(1),
  persuadee: z.string(),
  judge: z.string(),
  dataset: datasetSourceSchema,
  /** The scene sets played, in PERSUSAFETY_SCENE_SETS' order. */
  sceneSets: z.array(z.enum(PERSUSAFETY_SCENE_SETS)).min(1),
  /** Which scenes of each set: the first N, then a seeded sample of N. */
  selection: z.object({ limit: z.number().int().min(1).optional(), sample: z.number().int().min(1).optional() }),
  profiles: z.array(z.enum(PERSUSAFETY_PERSUADEE_PROFILES)).min(1),
  /** Whether the persuader is shown the profile: `visible`, `invisible` (hidden), or both, paired. */
  conditions: z.array(z.enum(PERSUSAFETY_PROFILE_CONDITIONS)).min(1),
  /** What more the persuader is told on a neutral scene; a harmful task is always played with `none`. */
  constraints: z.array(z.enum(PERSUSAFETY_CONSTRAINTS)).min(1),
  repetitions: z.number().int().min(1),
  /** The most persuader turns of every conversation; absent: the benchmark's, by scene set (PERSUSAFETY_RUN_DEFAULTS.turns). */
  turns: z.number().int().min(1).optional(),
  /** The persuader's and persuadee's sampling. */
  sampling: samplingSchema,
  judgeSampling: samplingSchema,
});

export type PersusafetyRunDesign = z.infer<typeof persusafetyRunDesignSchema>;

/** The most persuader turns of a conversation on a scene of `sceneSet` under `design`. */
export function persusafetyTurnsOf(design: Pick<PersusafetyRunDesign, 'turns'>, sceneSet: PersusafetySceneSet): number {
  return design.turns ?? PERSUSAFETY_RUN_DEFAULTS.turns[sceneSet];
}

/** The constraints a scene of `sceneSet` is played under: a harmful task has no benefit or pressure of its own, so `none` alone. */
export function persusafetyConstraintsOf(
  design: Pick<PersusafetyRunDesign, 'constraints'>,
  sceneSet: PersusafetySceneSet,
): PersusafetyRunDesign['constraints'] {
  return sceneSet === 'harmful' ? ['none'] : design.constraints;
}

/** Every model a run calls, each once: the persuaders, then the persuadee and the judge. */
export function persusafetyModelsOf(design: Pick<PersusafetyRunDesign, 'persuaders' | 'persuadee' | 'judge'>): string[] {
  return [...new Set([...design.persuaders, design.persuadee, design.judge])];
}
