import { z } from 'zod';
import { InputError } from '../../domain/errors/input-error.js';
import { PERSUSAFETY_PERSUADEE_PROFILES, PERSUSAFETY_PROFILE_CONDITIONS } from './persusafety-facts.js';
import { persusafetyRunDesignSchema } from './run/persusafety-run-design.js';

/** The protocol's name, as a stored run's `config.protocol` and `--protocol` say it. */
export const PERSUSAFETY_PROTOCOL = 'persusafety';

/** Who scored the published conversations: the judge of the benchmark's paper, whose scores its results files hold. */
export const PERSUSAFETY_PAPER_JUDGE = "PersuSafety's published judge (Claude-3.5-Sonnet)";

/** What a results file's conversations are: whose, of which study, under which condition and profile (from its path, or the flags). */
const filePlaceSchema = z.object({
  persuader: z.string(),
  study: z.string(),
  condition: z.enum(PERSUSAFETY_PROFILE_CONDITIONS),
  /** The persuader's personality, as the file's name gives it (`default__Anxious.json`: default). */
  persuaderProfile: z.string().optional(),
  profile: z.enum(PERSUSAFETY_PERSUADEE_PROFILES),
});

export type PersusafetyFilePlace = z.infer<typeof filePlaceSchema>;

/** One results file an import read: its absolute path and sha256, what it is, its records and how many were added to the run. */
const importedFileSchema = filePlaceSchema.extend({
  path: z.string(),
  sha256: z.string(),
  records: z.number().int().min(0),
  added: z.number().int().min(0),
});

export type PersusafetyImportedFile = z.infer<typeof importedFileSchema>;

const importEntrySchema = z.object({ importedAt: z.string(), files: z.array(importedFileSchema) });

/**
 * A run of published conversations (`pmiyc import persusafety`): it ran nothing; its conversations and their
 * judge's scores come from the benchmark's results files, listed per import with their sha256.
 */
const importedDesignSchema = z.object({
  kind: z.literal('imported'),
  /** The files' format: PersuSafety's results with its judge's scores. */
  format: z.literal('persusafety-published'),
  /** Who scored the conversations. */
  judge: z.string(),
  imports: z.array(importEntrySchema),
});

/**
 * What a PersuSafety run is, as stored in its run's config (`command: 'protocol', protocol: 'persusafety'`), read
 * back by this schema alone: an import of published results (`imported`), or conversations pmiyc ran (`run`,
 * run/persusafety-run-design.ts).
 */
const persusafetyDesignSchema = z.discriminatedUnion('kind', [importedDesignSchema, persusafetyRunDesignSchema]);

export type PersusafetyDesign = z.infer<typeof persusafetyDesignSchema>;

/** A stored PersuSafety run's design, read by its schema; a design this pmiyc cannot read says what to do. */
export function persusafetyDesignOf(runName: string, stored: unknown): PersusafetyDesign {
  const parsed = persusafetyDesignSchema.safeParse(stored);
  if (!parsed.success) {
    throw new InputError(
      `run ${runName} has a PersuSafety design this pmiyc cannot read (${parsed.error.issues[0]?.message ?? 'unknown'}): upgrade pmiyc, or use another run`,
    );
  }
  return parsed.data;
}
