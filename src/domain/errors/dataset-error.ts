import { InputError } from './input-error.js';

/** Where in a user's data file (claims, pairs, answers, labels, tasks) a problem is. */
export interface DataLocation {
  /** The file as the user named it. */
  readonly file: string;
  /** 1-based, when the problem can be pinned to a line. */
  readonly line?: number;
  /** 1-based, when the problem can be pinned to a column of that line. */
  readonly column?: number;
}

export interface DatasetErrorOptions {
  readonly cause?: unknown;
  /**
   * The detail goes on a sentence whose subject is the file (`tasks.json is not JSON`), instead
   * of following its location (`claims.csv:4: the claim is empty`).
   */
  readonly fileIsSubject?: boolean;
  /**
   * The detail is a whole sentence that names the file itself (`cannot read claims.csv (EACCES): ...`),
   * so the message is the detail alone.
   */
  readonly detailNamesFile?: boolean;
}

/**
 * A user's data file that pmiyc cannot read (exit 2). The message is built from the fields:
 * `claims.csv:4: <detail>`, or `claims.csv: <detail>` without a line. The column, when known,
 * is a field only: the detail says it in words where it helps. The file's fields are set whichever
 * way the message names it, so a caller can tell which file to fix without reading the message.
 */
export class DatasetError extends InputError implements DataLocation {
  override readonly kind = 'dataset';
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  /** What is wrong and what to do, without the location (unless it names the file itself). */
  readonly detail: string;

  constructor(location: DataLocation, detail: string, options: DatasetErrorOptions = {}) {
    const where = options.detailNamesFile
      ? ''
      : options.fileIsSubject
        ? `${location.file} `
        : `${location.file}${location.line === undefined ? '' : `:${location.line}`}: `;
    super(`${where}${detail}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DatasetError';
    this.file = location.file;
    this.line = location.line;
    this.column = location.column;
    this.detail = detail;
  }
}
