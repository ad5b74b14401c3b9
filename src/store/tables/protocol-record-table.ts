import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { ProtocolRecords, StoredProtocolRecord } from '../../studies/protocol-records.js';

const rowSchema = z.object({ item_key: z.string(), record: z.string() });
const runRowSchema = z.object({ run: z.string(), record: z.string() });

/**
 * The records of every protocol beside PMIYC's, in one table (`protocol_records`): the store checks only that a
 * row is a key and JSON text; what the JSON holds is the protocol's to check. Each record is committed on its
 * own as its item finishes, so a stopped run keeps every item it finished.
 */
export class ProtocolRecordTable implements ProtocolRecords {
  private readonly insert: Database.Statement;
  private readonly selectOne: Database.Statement;

  /** `flushCalls` commits the calls still queued, so a record never outlives the calls it was made of. */
  constructor(
    private readonly database: Database.Database,
    private readonly context: { readonly now: () => Date; readonly flushCalls: () => void },
  ) {
    this.insert = database.prepare('INSERT OR REPLACE INTO protocol_records (run_id, item_key, record, stored_at) VALUES (?, ?, ?, ?)');
    this.selectOne = database.prepare('SELECT 1 FROM protocol_records WHERE run_id = ? AND item_key = ?');
  }

  add(runId: number, itemKey: string, record: unknown): void {
    const text = JSON.stringify(record);
    this.context.flushCalls();
    this.database.transaction(() => this.insert.run(runId, itemKey, text, this.context.now().toISOString())).immediate();
  }

  has(runId: number, itemKey: string): boolean {
    return this.selectOne.get(runId, itemKey) !== undefined;
  }

  count(runId: number): number {
    return this.database.prepare('SELECT count(*) FROM protocol_records WHERE run_id = ?').pluck().get(runId) as number;
  }

  *list(runId: number): Generator<StoredProtocolRecord> {
    const rows = this.database.prepare('SELECT item_key, record FROM protocol_records WHERE run_id = ? ORDER BY item_key').iterate(runId);
    for (const row of rows) {
      const parsed = rowSchema.parse(row);
      yield { itemKey: parsed.item_key, record: JSON.parse(parsed.record) as unknown };
    }
  }

  withKey(itemKey: string): Array<{ run: string; record: StoredProtocolRecord }> {
    const rows = this.database
      .prepare(
        "SELECT r.name AS run, p.record AS record FROM protocol_records p JOIN runs r ON r.id = p.run_id WHERE p.item_key = ? AND json_extract(r.config, '$.command') = 'protocol' ORDER BY p.run_id DESC",
      )
      .all(itemKey);
    return rows.map((row) => {
      const parsed = runRowSchema.parse(row);
      return { run: parsed.run, record: { itemKey, record: JSON.parse(parsed.record) as unknown } };
    });
  }

  analysisNames(studiedRun: string): string[] {
    const sql = "SELECT name FROM runs WHERE json_extract(config, '$.command') = 'protocol-analysis' AND json_extract(config, '$.studiedRun') = ? ORDER BY id";
    return this.database.prepare(sql).pluck().all(studiedRun) as string[];
  }

  runNames(protocol: string): string[] {
    const sql = "SELECT name FROM runs WHERE json_extract(config, '$.command') = 'protocol' AND json_extract(config, '$.protocol') = ? ORDER BY id";
    return this.database.prepare(sql).pluck().all(protocol) as string[];
  }
}
