import { InputError } from './input-error.js';

/**
 * Why a file is not a store pmiyc can use: missing (`missing`), unopenable (`cannot-open`), not
 * SQLite (`not-sqlite`), damaged (`damaged`), another program's database (`foreign`), no runs yet
 * (`empty`), written by a newer or an older pmiyc (`newer-schema`, `older-schema`), or not
 * writable for a command that writes (`read-only`: the file, or its folder).
 */
export type StoreProblem = 'missing' | 'cannot-open' | 'not-sqlite' | 'damaged' | 'foreign' | 'empty' | 'newer-schema' | 'older-schema' | 'read-only';

export interface StoreErrorFields {
  /** The store's path as the user gave it with --store. */
  readonly path: string;
  readonly problem: StoreProblem;
  /** The SQLite error code behind it (`SQLITE_CORRUPT`), when there is one. */
  readonly sqliteCode?: string;
  /** For a damaged store: the record found damaged, when it is one record (its run and conversation). */
  readonly record?: { readonly run: string; readonly conversationId: string };
}

/**
 * A store that pmiyc refuses to use (exit 2). The message names the path, the problem and the
 * remedy: `runs.db was written by a newer pmiyc (...): upgrade pmiyc`.
 */
export class StoreError extends InputError implements StoreErrorFields {
  override readonly kind = 'store';
  readonly path: string;
  readonly problem: StoreProblem;
  readonly sqliteCode?: string;
  readonly record?: { readonly run: string; readonly conversationId: string };

  constructor(fields: StoreErrorFields, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
    this.path = fields.path;
    this.problem = fields.problem;
    this.sqliteCode = fields.sqliteCode;
    this.record = fields.record;
  }
}
