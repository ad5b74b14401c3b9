import { z } from 'zod';
import { InputError } from '../../domain/errors/input-error.js';

/** One import of a bundle: where it was read, the report's sha256, the transcripts found and missing, what it added. */
const importEntrySchema = z.object({
  importedAt: z.string(),
  /** The folder given, absolute. */
  directory: z.string(),
  bundle: z.string(),
  /** The copy's git commit when it is a checkout (or as `--commit` said); null when unknown. */
  commit: z.string().nullable(),
  report: z.object({ file: z.string(), sha256: z.string(), cells: z.number().int().min(0) }),
  transcripts: z.object({
    folder: z.string(),
    found: z.number().int().min(0),
    missing: z.number().int().min(0),
    /** sha256 over every transcript's name and sha256 in name order (each record keeps its own). */
    digest: z.string(),
  }),
  added: z.number().int().min(0),
});

export type LpbImportEntry = z.infer<typeof importEntrySchema>;

/**
 * A run of the benchmark's published cells (`pmiyc import llm-persuasion-benchmark`): it ran nothing; its records
 * come from a bundle's report and transcripts, listed per import with their hashes.
 */
const lpbDesignSchema = z.object({
  kind: z.literal('imported'),
  format: z.literal('lpb-bundle'),
  repository: z.string(),
  imports: z.array(importEntrySchema),
});

export type LpbDesign = z.infer<typeof lpbDesignSchema>;

/** A stored run's design, read by its schema; one this pmiyc cannot read says what to do. */
export function lpbDesignOf(runName: string, stored: unknown): LpbDesign {
  const parsed = lpbDesignSchema.safeParse(stored);
  if (!parsed.success)
    throw new InputError(
      `run ${runName} has a design of the LLM Persuasion Benchmark this pmiyc cannot read (${parsed.error.issues[0]?.message ?? 'unknown'}): upgrade pmiyc, or use another run`,
    );
  return parsed.data;
}
