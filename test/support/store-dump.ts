import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';

/**
 * A store's whole content as text, one line per row, in a fixed order, for the output identity test
 * (test/output-identity-cli.test.ts). Every table is dumped, empty ones included, with each value's
 * SQLite storage class kept visible (an integer 1 and a real 1.0 differ), and the schema and the
 * pragmas that shape the file come first. Only the wall-clock columns below are replaced.
 */

/** A placeholder for a value that says when or where pmiyc ran, not what it stored. */
export const WALL_CLOCK = '<wall-clock>';

/**
 * The columns whose values come from the clock, the process or the checkout rather than from the
 * run's inputs; each is replaced by `WALL_CLOCK` (a NULL stays NULL, so a column that starts or
 * stops being written is still seen). Everything else must be byte-identical.
 */
const WALL_CLOCK_COLUMNS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  runs: {
    created_at: 'when the run started (the clock)',
    updated_at: 'when its status last changed (the clock)',
    package_version: "pmiyc's version: a release changes it, not what a run stores",
    git_revision: 'the commit of the checkout that ran: every commit changes it',
  },
  calls: {
    created_at: 'when the reply was stored (the clock)',
    latency_ms: 'how long the call took (the clock, and the load of the machine)',
  },
  call_failures: {
    created_at: 'when the failure was stored (the clock)',
    latency_ms: 'how long the call took (the clock)',
  },
  run_leases: {
    pid: 'the process that holds the run',
    host: 'the machine it runs on',
    acquired_at: 'when the lease was taken (the clock)',
    heartbeat_at: 'its last heartbeat (the clock)',
  },
  batches: { submitted_at: 'the clock', updated_at: 'the clock' },
  annotations: { imported_at: 'the clock' },
  participants: { invited_at: 'the clock', consented_at: 'the clock', finished_at: 'the clock', follow_up_at: 'the clock' },
  notes: { created_at: 'the clock', updated_at: 'the clock' },
  gguf_hashes: { mtime_ms: "the model file's modification time" },
};

/**
 * FTS5 writes one index segment per transaction, and pmiyc's commits are spaced in time
 * (src/store/commit-queue.ts), so how a full-text index is split into segments (the rows of its
 * `_data` and `_idx` tables) depends on timing. What the index holds does not: each of these is
 * dumped as its fts5vocab 'instance' listing (every term, with the row, column and offset where it
 * occurs) instead of its segments.
 */
const SEGMENT_TABLES = /^(.+)_(data|idx)$/;

/** Blobs longer than this are shown by their length and sha256 (a record's content is in the export). */
const LONGEST_BLOB_SHOWN_BYTES = 64;

const PRAGMAS = ['user_version', 'application_id', 'page_size', 'encoding', 'auto_vacuum', 'journal_mode'] as const;

interface SchemaEntry {
  readonly type: string;
  readonly name: string;
  readonly sql: string | null;
}

/** The store at `path` as text (see the module's doc). */
export function dumpStore(path: string): string {
  const database = new Database(path, { readonly: true, fileMustExist: true });
  database.defaultSafeIntegers(true);
  try {
    const schema = database.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY type, name').all() as SchemaEntry[];
    const virtualTables = new Set(schema.filter((entry) => entry.sql?.startsWith('CREATE VIRTUAL TABLE')).map((entry) => entry.name));
    const lines = [
      ...PRAGMAS.map((pragma) => `pragma ${pragma} = ${String(database.pragma(pragma, { simple: true }))}`),
      ...schema.map((entry) => `schema ${entry.type} ${entry.name}: ${JSON.stringify(entry.sql)}`),
    ];
    for (const entry of schema.filter((item) => item.type === 'table')) {
      const segments = SEGMENT_TABLES.exec(entry.name);
      if (segments && virtualTables.has(segments[1]!)) {
        if (segments[2] === 'data') lines.push(...indexContent(database, segments[1]!));
        continue;
      }
      lines.push(...tableRows(database, entry));
    }
    return `${lines.join('\n')}\n`;
  } finally {
    database.close();
  }
}

function tableRows(database: Database.Database, table: SchemaEntry): string[] {
  const columns = (database.pragma(`table_info("${table.name}")`) as Array<{ name: string }>).map((column) => column.name);
  const withoutRowid = /WITHOUT ROWID/i.test(table.sql ?? '');
  const cells = columns.map((column) => `typeof("${column}"), "${column}"`).join(', ');
  // A table without rowid is in its primary key's order; any other in rowid order, the order rows were written in.
  const sql = withoutRowid ? `SELECT ${cells} FROM "${table.name}" ORDER BY 1` : `SELECT rowid, ${cells} FROM "${table.name}" ORDER BY rowid`;
  const rows = database.prepare(sql).raw(true).all() as unknown[][];
  const wallClock = WALL_CLOCK_COLUMNS[table.name] ?? {};
  const lines = [`table ${table.name}: ${rows.length} rows`];
  for (const row of rows) {
    const rowid = withoutRowid ? '' : `[${String(row[0])}]`;
    const values = withoutRowid ? row : row.slice(1);
    const shown = columns.map((column, index) => {
      const [storageClass, value] = [values[2 * index] as string, values[2 * index + 1]];
      return `${column}=${column in wallClock && value !== null ? WALL_CLOCK : formatValue(storageClass, value)}`;
    });
    lines.push(`${table.name}${rowid} ${shown.join(' ')}`);
  }
  return lines;
}

/** A value with its storage class visible: 12, 12.0 (a real), "text", x'00ff', blob(N bytes, sha256 ...), null. */
function formatValue(storageClass: string, value: unknown): string {
  switch (storageClass) {
    case 'null':
      return 'null';
    case 'integer':
      return String(value);
    case 'real':
      return Number.isInteger(value) ? `${String(value)}.0` : String(value);
    case 'text':
      return JSON.stringify(value);
    default: {
      const bytes = value as Buffer;
      if (bytes.length <= LONGEST_BLOB_SHOWN_BYTES) return `x'${bytes.toString('hex')}'`;
      return `blob(${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')})`;
    }
  }
}

/** A full-text index's content, one line per term: where it occurs (row:column:offset), whatever its segments. */
function indexContent(database: Database.Database, index: string): string[] {
  const vocabulary = `${index}_content_listing`;
  database.exec(`CREATE VIRTUAL TABLE temp."${vocabulary}" USING fts5vocab(main, '${index}', 'instance')`);
  try {
    const rows = database.prepare(`SELECT term, doc, col, offset FROM temp."${vocabulary}" ORDER BY term, doc, col, offset`).raw(true).all() as Array<
      [string, bigint, string, bigint]
    >;
    const byTerm = new Map<string, string[]>();
    for (const [term, row, column, offset] of rows) {
      const places = byTerm.get(term) ?? [];
      places.push(`${row}:${column}:${offset}`);
      byTerm.set(term, places);
    }
    return [
      `index ${index} (content of its segments): ${byTerm.size} terms, ${rows.length} places`,
      ...[...byTerm].map(([term, places]) => `${index} ${JSON.stringify(term)} ${places.join(' ')}`),
    ];
  } finally {
    database.exec(`DROP TABLE temp."${vocabulary}"`);
  }
}
