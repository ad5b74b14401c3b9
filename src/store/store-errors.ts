import { StoreError, type StoreErrorFields } from '../domain/errors/store-error.js';
import { StoreFullError } from '../domain/errors/store-full-error.js';
import { isDiskFull } from './disk-full.js';

// Apart from open-database.ts, which loads better-sqlite3: the CLI's error handling needs this at
// start, and a command that never opens a store should not load SQLite for it.

const NOT_SQLITE = new Set(['SQLITE_NOTADB']);
const DAMAGED = new Set(['SQLITE_CORRUPT', 'SQLITE_CORRUPT_VTAB', 'SQLITE_CORRUPT_SEQUENCE', 'SQLITE_CORRUPT_INDEX']);

/** A store that cannot be written: the file, or the folder where SQLite keeps its journal beside it. */
export function readOnlyStoreError(path: string, sqliteCode: string, cause?: unknown): StoreError {
  return new StoreError(
    { path, problem: 'read-only', sqliteCode },
    `${path} cannot be written (${sqliteCode}: the file or its folder is read-only): make both writable (chmod u+w on the file and its folder) ` +
      'or copy the store to a folder you can write and pass --store with the copy; `pmiyc runs`, `show`, `report`, `export` and `view` read it as it is',
    cause === undefined ? undefined : { cause },
  );
}

/** What an error met without its store's path calls the store. */
export const UNNAMED_STORE = 'the store';

/**
 * The StoreError a SQLite error means when the file cannot be a usable store (or a StoreFullError when
 * its disk is full or a size limit was reached: `disk-full.ts`), or undefined for other errors. Also used
 * for errors met mid-way; `path` is `UNNAMED_STORE` when the error came without one.
 */
export function toStoreError(path: string, error: unknown): StoreError | StoreFullError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  const cause = { cause: error };
  if (isDiskFull(code, path === UNNAMED_STORE ? undefined : path)) return new StoreFullError(path, code, cause);
  if (code.startsWith('SQLITE_READONLY')) return readOnlyStoreError(path, code, error);
  if (NOT_SQLITE.has(code))
    return new StoreError(
      { path, problem: 'not-sqlite', sqliteCode: code },
      `${path} is not a pmiyc store (not an SQLite database): pass the right --store`,
      cause,
    );
  if (DAMAGED.has(code)) return damagedStoreError({ path, problem: 'damaged', sqliteCode: code }, `SQLite reports ${code}`, cause);
  return undefined;
}

/**
 * A damaged store, in the one wording pmiyc has for it whatever found the damage (SQLite's
 * SQLITE_CORRUPT, or a record that does not decode): what is damaged, then the remedy. Exit 2.
 */
export function damagedStoreError(fields: StoreErrorFields & { readonly problem: 'damaged' }, what: string, options?: { cause?: unknown }): StoreError {
  const skip = fields.record ? '; pmiyc export --skip-damaged writes the conversations that can still be read' : '';
  return new StoreError(fields, `${fields.path} is damaged (${what}): restore it from a copy, or pass another --store${skip}`, options);
}
