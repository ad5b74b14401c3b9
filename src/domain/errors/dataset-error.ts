import { InputError } from './input-error.js';
import { problemListMessage } from './problem-list.js';

/** Where in a user's data file (claims, pairs, answers, labels, tasks) a problem is. */
export interface DataLocation {
  /** The file as the user named it. */
  readonly file: string;
  /** 1-based, when the problem can be pinned to a line. */
  readonly line?: number;
  /** 1-based, when the problem can be pinned to a column of that line. */
  readonly column?: number;
}

/** One problem of a data file, where it is and what is wrong. */
export interface DataProblem extends DataLocation {
  readonly detail: string;
}

export interface DatasetErrorOptions {
  readonly cause?: unknown;
  /** The file's other problems, after this one (the message lists them all, up to MAX_LISTED_PROBLEMS). */
  readonly others?: readonly DataProblem[];
  /** How many problems the file has in all, when more were found than `others` holds. */
  readonly total?: number;
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

/** `claims.csv:4: <detail>`, or `claims.csv: <detail>` without a line. */
function locatedText(problem: DataProblem): string {
  return `${problem.file}${problem.line === undefined ? '' : `:${problem.line}`}: ${problem.detail}`;
}

/**
 * A user's data file that pmiyc cannot read (exit 2). The message is built from the fields:
 * `claims.csv:4: <detail>`, or `claims.csv: <detail>` without a line. The column, when known,
 * is a field only: the detail says it in words where it helps. The file's fields are set whichever
 * way the message names it, so a caller can tell which file to fix without reading the message.
 * With other problems of the file (`others`), a line says how many and each follows on its own line;
 * the fields are then the first problem's.
 */
export class DatasetError extends InputError implements DataLocation {
  override readonly kind = 'dataset';
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  /** What is wrong and what to do, without the location (unless it names the file itself). */
  readonly detail: string;

  /** Every problem the message lists: this one first, then the others. */
  readonly problems: readonly DataProblem[];

  constructor(location: DataLocation, detail: string, options: DatasetErrorOptions = {}) {
    const problems = [{ ...location, detail }, ...(options.others ?? [])];
    const message = options.detailNamesFile
      ? detail
      : options.fileIsSubject
        ? `${location.file} ${detail}`
        : problemListMessage(location.file, problems.map(locatedText), Math.max(options.total ?? 0, problems.length));
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.problems = problems;
    this.name = 'DatasetError';
    this.file = location.file;
    this.line = location.line;
    this.column = location.column;
    this.detail = detail;
  }
}
