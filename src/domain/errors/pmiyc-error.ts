/**
 * What went wrong, in the terms the CLI maps to an exit code (src/cli/exit-codes.ts): bad usage or
 * input (`input`, and its kinds `config`, `dataset`, `store`, `run-in-use`) and a store whose disk is full
 * (`disk-full`: free space, then resume) exit 2; a provider call (`provider`) or a write of an output file
 * (`output`) the machine refused exits 1.
 */
export type PmiycErrorKind = 'input' | 'config' | 'dataset' | 'store' | 'run-in-use' | 'disk-full' | 'provider' | 'output';

// A registered symbol, so that an error made by another copy of pmiyc (two versions in one
// node_modules) is still recognised, where `instanceof` would fail.
const MARKER = Symbol.for('pmiyc.error');

/**
 * The base of every error pmiyc throws on purpose. Each has a `kind`, typed fields of its own and
 * a one-line message that says what to do. Anything thrown that is not a PmiycError is a defect.
 */
export abstract class PmiycError extends Error {
  abstract readonly kind: PmiycErrorKind;
  readonly [MARKER] = true;
}

/** Whether `error` is a PmiycError, from this copy of pmiyc or another. */
export function isPmiycError(error: unknown): error is PmiycError {
  return typeof error === 'object' && error !== null && (error as { [MARKER]?: unknown })[MARKER] === true;
}
