import type Database from 'better-sqlite3';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import type { StoreError } from '../../domain/errors/store-error.js';
import { damagedStoreError } from '../store-errors.js';
import { decodeRecord, type StoredMessage, storedMessages } from './record-codec.js';

/** Told of each record skipped because it does not decode (the error names its run and conversation): `TournamentResults.conversations`. */
export type OnDamagedRecord = (error: StoreError) => void;

/**
 * Reads conversation records by rowid, and says which one when a record does not decode. A record's
 * bytes that SQLite hands back but that are no longer the record pmiyc wrote (a flipped page: broken
 * deflate, JSON or schema) mean a damaged store, as SQLITE_CORRUPT does: the same message and exit
 * code, naming the run and the conversation (`damagedStoreError`), never "unexpected error".
 */
export class StoredRecordReader {
  private readonly selectRecord: Database.Statement<[number], string | Buffer>;
  private readonly selectPlace: Database.Statement<[number], { run: string | null; id: string }>;

  constructor(private readonly database: Database.Database) {
    this.selectRecord = database.prepare<[number], string | Buffer>('SELECT record FROM conversations WHERE rowid = ?').pluck();
    this.selectPlace = database.prepare<[number], { run: string | null; id: string }>(
      'SELECT r.name AS run, c.id AS id FROM conversations c LEFT JOIN runs r ON r.id = c.run_id WHERE c.rowid = ?',
    );
  }

  /** The record at `rowid`, checked against the record schema; a StoreError (damaged) when it does not decode. */
  record(rowid: number): ConversationRecord {
    return this.decoded(rowid, decodeRecord);
  }

  /** The record at `rowid`, or undefined (told to `onDamaged`) when it does not decode. */
  recordOrSkip(rowid: number, onDamaged: OnDamagedRecord): ConversationRecord | undefined {
    try {
      return this.record(rowid);
    } catch (error) {
      if (!isDamagedRecord(error)) throw error;
      onDamaged(error);
      return undefined;
    }
  }

  /** The messages of the record at `rowid` (for a search), read without the whole schema check. */
  messages(rowid: number): StoredMessage[] {
    return this.decoded(rowid, storedMessages);
  }

  /** The error of a record that does not decode, naming it. */
  damaged(rowid: number, cause: unknown): StoreError {
    const place = this.selectPlace.get(rowid);
    const record = { run: place?.run ?? 'unknown', conversationId: place?.id ?? `rowid ${rowid}` };
    const reason = cause instanceof Error ? `${cause.name}: ${cause.message}`.slice(0, 160) : 'it does not decode';
    return damagedStoreError(
      { path: this.database.name, problem: 'damaged', record },
      `conversation ${record.conversationId} of run ${record.run} cannot be read: ${reason}`,
      { cause },
    );
  }

  private decoded<T>(rowid: number, decode: (stored: string | Buffer) => T): T {
    const stored = this.selectRecord.get(rowid);
    // Not damage: a row gone since its rowid was read (a bug, as the readers read in one transaction or hold no statement open).
    if (stored === undefined) throw new RangeError(`no conversation at rowid ${rowid}`);
    try {
      return decode(stored);
    } catch (error) {
      throw this.damaged(rowid, error);
    }
  }
}

/** Whether `error` is a record found damaged (and so may be skipped), not another failure. */
export function isDamagedRecord(error: unknown): error is StoreError {
  return (error as Partial<StoreError> | null)?.problem === 'damaged' && (error as Partial<StoreError>).record !== undefined;
}
