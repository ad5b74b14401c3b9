import { CommanderError } from '@commander-js/extra-typings';
import { isPmiycError, type PmiycErrorKind } from '../domain/errors/pmiyc-error.js';
import { EXIT_FAILED } from '../runner/session-ending.js';
import { toStoreError, UNNAMED_STORE } from '../store/store-errors.js';

/**
 * Exit codes (SPEC 4): 0 done, 1 failed run or write, 2 bad usage or input, 128 + n stopped by signal n (130 Ctrl-C).
 * Input the user can fix exits 2, and so does a store whose disk is full (free space, then resume); a provider or
 * the machine refusing otherwise exits 1.
 */
const EXIT_CODE_OF_KIND: Record<PmiycErrorKind, number> = {
  input: 2,
  config: 2,
  dataset: 2,
  store: 2,
  'run-in-use': 2,
  'disk-full': 2,
  provider: 1,
  output: 1,
};
const COMMANDER_SUCCESS = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

/**
 * The one map from errors to exit codes, for main and the in-process test runner alike: the code, the line to print
 * after `pmiyc: ` (its later lines, if any, start with `pmiyc: ` too; none for commander's errors: it has printed them) and whether the error is a defect (main offers
 * its stack). A SQLite error that means an unusable store, met after opening it, counts as a StoreError.
 */
export function exitCodeOf(error: unknown): { code: number; message?: string; unexpected?: true } {
  if (error instanceof CommanderError) return { code: COMMANDER_SUCCESS.has(error.code) && error.exitCode === 0 ? 0 : EXIT_CODE_OF_KIND.input };
  const known = isPmiycError(error) ? error : toStoreError(UNNAMED_STORE, error);
  // A kind unknown here comes from a newer copy of pmiyc in the same process: count it as a failure.
  // A message of several lines (one per model that does not answer) is printed with `pmiyc: ` before each.
  if (known) return { code: EXIT_CODE_OF_KIND[known.kind] ?? EXIT_FAILED, message: known.message.replaceAll('\n', '\npmiyc: ') };
  return { code: EXIT_FAILED, message: `unexpected error: ${error instanceof Error ? error.message : String(error)}`, unexpected: true };
}
