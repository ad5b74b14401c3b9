import { StoreError } from '../domain/errors/store-error.js';

// Apart from open-database.ts, which loads better-sqlite3: the CLI's error handling needs this at
// start, and a command that never opens a store should not load SQLite for it.

const NOT_SQLITE = new Set(['SQLITE_NOTADB']);
const DAMAGED = new Set(['SQLITE_CORRUPT', 'SQLITE_CORRUPT_VTAB', 'SQLITE_CORRUPT_SEQUENCE', 'SQLITE_CORRUPT_INDEX']);

/**
 * The StoreError a SQLite error means when the file cannot be a usable store, or undefined for
 * other errors. Also used for readers that meet damage mid-way.
 */
export function toStoreError(path: string, error: unknown): StoreError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  const cause = { cause: error };
  if (NOT_SQLITE.has(code))
    return new StoreError(
      { path, problem: 'not-sqlite', sqliteCode: code },
      `${path} is not a pmiyc store (not an SQLite database): pass the right --store`,
      cause,
    );
  if (DAMAGED.has(code))
    return new StoreError(
      { path, problem: 'damaged', sqliteCode: code },
      `${path} is damaged (SQLite reports ${code}): restore it from a copy, or pass another --store`,
      cause,
    );
  return undefined;
}
