import { z } from 'zod';

/** The `command` an imported run's config records (`pmiyc import official`); `pmiyc run` records `run`. */
export const IMPORT_COMMAND = 'import';

/** One import as the run's config keeps it: the files that added conversations, with their checksums. */
const importEntrySchema = z.object({
  importedAt: z.string(),
  files: z.array(z.object({ path: z.string(), sha256: z.string(), records: z.number(), added: z.number() })),
});

export type ImportEntry = z.infer<typeof importEntrySchema>;

/** What `pmiyc import official` stores with its run: how replies were read, and each import into it. */
export const importConfigSchema = z.looseObject({
  command: z.literal(IMPORT_COMMAND),
  format: z.string().optional(),
  labelMatch: z.string(),
  imports: z.array(importEntrySchema).default([]),
});

/**
 * True for a run that `pmiyc import official` made: its conversations come from files, so it has no
 * seed (the store keeps 0 in the run's seed column, which pmiyc never shows as one) and no calls.
 */
export function isImportedRun(run: { readonly config: { readonly kind: string } }): boolean {
  return run.config.kind === 'import';
}
