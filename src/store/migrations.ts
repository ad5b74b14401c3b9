import type { Database } from 'better-sqlite3';

/**
 * Schema migrations, in order. The store's `user_version` is the number of migrations applied;
 * opening a store applies the missing ones in one transaction. Never edit a released migration:
 * append a new one.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    seed INTEGER NOT NULL,
    package_version TEXT NOT NULL,
    config TEXT NOT NULL
  );
  CREATE TABLE conversations (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    id TEXT NOT NULL,
    domain TEXT NOT NULL,
    setting TEXT NOT NULL,
    persuader TEXT NOT NULL,
    persuadee TEXT NOT NULL,
    claim_index INTEGER NOT NULL,
    status TEXT NOT NULL,
    nc REAL,
    record TEXT NOT NULL,
    PRIMARY KEY (run_id, id)
  );
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function migrate(database: Database, storePath: string): void {
  const current = database.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new Error(`${storePath} has schema version ${current}, newer than this pmiyc understands (${SCHEMA_VERSION}): upgrade pmiyc`);
  }
  if (current === SCHEMA_VERSION) return;
  database.transaction(() => {
    for (const sql of MIGRATIONS.slice(current)) database.exec(sql);
    database.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}
