/** The `command` an imported run's config records (`pmiyc import official`); `pmiyc run` records `run`. */
export const IMPORT_COMMAND = 'import';

/**
 * True for a run that `pmiyc import official` made: its conversations come from files, so it has no
 * seed (the store keeps 0 in the run's seed column, which pmiyc never shows as one) and no calls.
 */
export function isImportedRun(run: { readonly config?: unknown }): boolean {
  return (run.config as { command?: unknown } | null | undefined)?.command === IMPORT_COMMAND;
}
