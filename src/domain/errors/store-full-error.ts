import { PmiycError } from './pmiyc-error.js';

export interface StoreFullErrorOptions {
  readonly cause?: unknown;
  /** The write stopped a run that is kept (interrupted): the way on is --resume, not the command again. */
  readonly resumable?: boolean;
}

/**
 * A store that could not be written because its disk is full or a size limit was reached (SQLite's
 * SQLITE_FULL, ENOSPC, EFBIG, or an I/O error while the disk is full or a file-size limit is set). Exit 2,
 * as for what the user must change before going on; a run it stops is stored `interrupted` (disk) when that
 * last write gets through. Each commit is whole or absent, so everything stored before it is kept, and the
 * run resumes from there once there is room.
 */
export class StoreFullError extends PmiycError {
  readonly kind = 'disk-full';
  /** The store's path as the user gave it with --store ("the store" when the error came without one). */
  readonly path: string;
  /** What reported it: SQLite's code (`SQLITE_FULL`, `SQLITE_IOERR_WRITE`) or the system's (`ENOSPC`, `EFBIG`). */
  readonly sqliteCode: string;
  readonly resumable: boolean;

  constructor(path: string, sqliteCode: string, options: StoreFullErrorOptions = {}) {
    const then = options.resumable ? '--resume' : 'run the command again';
    super(
      `the disk is full (or a size limit was reached): free space, then ${then}; ${path} could not be written (${sqliteCode}), ` +
        'and nothing stored so far is lost, as each write is kept whole or not at all (or copy the store to a disk with room and pass --store)',
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'StoreFullError';
    this.path = path;
    this.sqliteCode = sqliteCode;
    this.resumable = options.resumable === true;
  }

  /** The same error for a run it stopped and that is kept: the message says --resume. */
  forStoppedRun(): StoreFullError {
    return new StoreFullError(this.path, this.sqliteCode, { cause: this.cause, resumable: true });
  }
}
