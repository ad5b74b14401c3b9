import { PmiycError } from './pmiyc-error.js';

/**
 * A store that could not be written because its disk is full (SQLite's SQLITE_FULL). Exit 1, as for
 * any write the machine refused: the input was fine. Each commit is whole or absent, so everything
 * stored before it is kept, and the run resumes from there once there is room.
 */
export class StoreFullError extends PmiycError {
  readonly kind = 'output';
  /** The store's path as the user gave it with --store ("the store" when the error came without one). */
  readonly path: string;
  readonly sqliteCode: string;

  constructor(path: string, sqliteCode: string, options?: { cause?: unknown }) {
    super(
      `the disk holding ${path} is full (SQLite reports ${sqliteCode}): nothing stored so far is lost, as each write is kept whole or not at all; ` +
        'free some space (or copy the store to a disk with room and pass --store), then run the command again: a run that had started goes on with --resume',
      options,
    );
    this.name = 'StoreFullError';
    this.path = path;
    this.sqliteCode = sqliteCode;
  }
}
