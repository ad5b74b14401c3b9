import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { StoreError } from '../domain/errors/store-error.js';
import { migrate, PMIYC_APPLICATION_ID, SCHEMA_VERSION } from './migrations.js';
import { readOnlyStoreError, toStoreError } from './store-errors.js';

/**
 * How a command uses a store: `create` makes the file when it is missing (a new run), `write`
 * needs it to exist (resume, import), `read` never changes it (runs, export, report).
 */
export type StoreAccess = 'create' | 'write' | 'read';

// The native driver is loaded when the first store is opened, not when pmiyc is imported: a library
// user who only needs the metrics or the engine never loads it (test/library-without-sqlite.test.ts).
// better-sqlite3 is CommonJS, so require() loads it synchronously and openStore stays synchronous.
const requireFromHere = createRequire(import.meta.url);

/** The better-sqlite3 constructor, loaded on first use (Node caches it after that). */
function sqliteDriver(): typeof Database {
  return requireFromHere('better-sqlite3') as typeof Database;
}

/** What a SQLite file is, before pmiyc touches it. */
type Identity = { kind: 'empty' } | { kind: 'pmiyc'; schema: number } | { kind: 'foreign' };

/**
 * What the file is, read in one read transaction: another process creating the store at the same moment
 * commits its tables, schema version and application id together, and three separate reads could see
 * the id from before its commit and the tables from after (a new store taken for another program's).
 */
function identify(database: Database.Database): Identity {
  return database.transaction(() => identifyNow(database))();
}

function identifyNow(database: Database.Database): Identity {
  const applicationId = database.pragma('application_id', { simple: true }) as number;
  const schema = database.pragma('user_version', { simple: true }) as number;
  if (applicationId === PMIYC_APPLICATION_ID) return { kind: 'pmiyc', schema };
  if (applicationId !== 0) return { kind: 'foreign' };
  const tables = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
  if (tables.length === 0 && schema === 0) return { kind: 'empty' };
  // Stores written before pmiyc set its application id: they have its runs table and a schema version.
  if (schema > 0 && tables.includes('runs')) return { kind: 'pmiyc', schema };
  return { kind: 'foreign' };
}

function checkIdentity(identity: Identity, path: string, access: StoreAccess): void {
  if (identity.kind === 'foreign') {
    throw new StoreError(
      { path, problem: 'foreign' },
      `${path} is an SQLite database but not a pmiyc store: pass another --store (pmiyc never changes a file it did not make)`,
    );
  }
  if (identity.kind === 'empty') {
    if (access === 'read') throw new StoreError({ path, problem: 'empty' }, `${path} has no runs yet: run \`pmiyc demo\` or \`pmiyc run\` first`);
    return;
  }
  if (identity.schema > SCHEMA_VERSION) {
    throw new StoreError(
      { path, problem: 'newer-schema' },
      `${path} was written by a newer pmiyc (store schema ${identity.schema}, this one knows ${SCHEMA_VERSION}): upgrade pmiyc`,
    );
  }
  if (access === 'read' && identity.schema < SCHEMA_VERSION) {
    throw new StoreError(
      { path, problem: 'older-schema' },
      `${path} was written by an older pmiyc (store schema ${identity.schema}, this one reads ${SCHEMA_VERSION}): upgrade it once with \`pmiyc upgrade --store ${path}\`, then try again`,
    );
  }
}

function openFile(path: string, access: StoreAccess): Database.Database {
  if (access !== 'create' && !existsSync(path)) {
    throw new StoreError({ path, problem: 'missing' }, `no store at ${path}: run \`pmiyc demo\` or \`pmiyc run\` first, or pass --store FILE`);
  }
  try {
    const Driver = sqliteDriver();
    return new Driver(path, access === 'read' ? { readonly: true, fileMustExist: true } : {});
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_CANTOPEN'))
      throw new StoreError(
        { path, problem: 'cannot-open', sqliteCode: code },
        `cannot open ${path} (${code}): check that its folder exists and can be ${access === 'read' ? 'read' : 'written'}`,
        { cause: error },
      );
    throw error;
  }
}

/** How long a writer keeps trying to switch a store to WAL: as long as it waits for a lock (busy_timeout). */
const BUSY_TIMEOUT_MS = 5000;
const isBusy = (error: unknown) => /^SQLITE_(BUSY|LOCKED)/.test((error as { code?: unknown } | null)?.code?.toString() ?? '');

/** Waits without returning to the event loop (opening a store is synchronous). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Switches the store to WAL, trying again until the busy timeout. The switch needs the file to itself, and
 * SQLite answers it "database is locked" at once, without waiting as busy_timeout says, when another
 * connection holds a lock: processes that create one store at once, or one that opens it while the last
 * writer switches it back to rollback-journal mode on closing (`closeStoreDatabase`), meet there.
 */
function switchToWal(database: Database.Database, path: string): void {
  const deadline = performance.now() + BUSY_TIMEOUT_MS;
  for (let attempt = 1; ; attempt += 1) {
    let mode: unknown;
    try {
      mode = database.pragma('journal_mode = WAL', { simple: true });
    } catch (error) {
      if (!isBusy(error) || performance.now() >= deadline) throw error;
    }
    if (mode === 'wal') return;
    if (mode !== undefined && performance.now() >= deadline) {
      throw new Error(`${path} stayed in journal mode ${String(mode)}: another process keeps it busy; try again once it is done`);
    }
    pause(Math.min(50, 2 * attempt));
  }
}

/**
 * Opens the SQLite file of a store, checked to be a pmiyc store at a schema this pmiyc knows.
 * Readers open it read-only and never migrate it; writers wait up to 5 s for a lock, switch to WAL
 * and migrate (safe under concurrency). Anything that is not a usable store is a StoreError with
 * one line (exit 2).
 */
export function openStoreDatabase(path: string, access: StoreAccess): Database.Database {
  const database = openFile(path, access);
  try {
    // SQLite opens a file it may not write read-only without a word; a writer would fail at its first write.
    if (access !== 'read' && database.readonly) throw readOnlyStoreError(path, 'SQLITE_READONLY');
    database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    checkIdentity(identify(database), path, access);
    if (access !== 'read') {
      // A new store gets 16 KB pages: a conversation record (a few KB, deflated) then fits in its
      // row instead of spilling into a half-empty overflow page. Ignored for an existing store.
      database.pragma('page_size = 16384');
      switchToWal(database, path);
      database.pragma('synchronous = NORMAL');
      migrate(database);
    }
    return database;
  } catch (error) {
    database.close();
    throw toStoreError(path, error) ?? error;
  }
}

/**
 * Leaves a store that this process wrote in rollback-journal mode when no one else has it open,
 * so that a reader in a read-only folder can open it later (a WAL database needs its -shm file).
 * Never waits: when another connection has read the store, SQLite refuses the switch and the store
 * stays in WAL until the last one closes. A process that opened the file in that instant without
 * reading it yet finds it in rollback-journal mode and switches it to WAL again (`switchToWal`).
 */
export function closeStoreDatabase(database: Database.Database, wrote: boolean): void {
  if (wrote && database.open) {
    try {
      database.pragma('busy_timeout = 0');
      database.pragma('journal_mode = DELETE');
    } catch {
      // Busy: another connection is open; it switches the mode back when it closes.
    }
  }
  database.close();
}
