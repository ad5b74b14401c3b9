import { InputError } from './input-error.js';
import { problemListMessage } from './problem-list.js';

/** Where in a config file a problem is. */
export interface ConfigLocation {
  /** The file as the user named it: `pmiyc.yaml`. */
  readonly file: string;
  /** 1-based, when the problem can be pinned to a line. */
  readonly line?: number;
  /** The dotted path of the key at fault: `models.alpha.temperature`. */
  readonly keyPath?: string;
}

/** One problem of a config file, where it is and what is wrong. */
export interface ConfigProblem extends ConfigLocation {
  readonly detail: string;
}

export interface ConfigErrorOptions {
  readonly cause?: unknown;
  /** The file's other problems, after this one (the message lists them all, up to MAX_LISTED_PROBLEMS). */
  readonly others?: readonly ConfigProblem[];
  /** How many problems the file has in all, when more were found than `others` holds. */
  readonly total?: number;
  /**
   * The detail is a whole sentence that names the file itself (`cannot read pmiyc.yaml (EISDIR): ...`),
   * so the message is the detail alone.
   */
  readonly detailNamesFile?: boolean;
}

/** `pmiyc.yaml:7: models.alpha.temperature: <detail>` */
function locatedText(problem: ConfigProblem): string {
  const line = problem.line === undefined ? '' : `:${problem.line}`;
  const key = problem.keyPath ? `${problem.keyPath}: ` : '';
  return `${problem.file}${line}: ${key}${problem.detail}`;
}

/**
 * A config file that pmiyc cannot use (exit 2). The message is built from the fields:
 * `pmiyc.yaml:7: models.alpha.temperature: <detail>`; with other problems of the file, a line that
 * says how many and one line each. The fields are the first problem's.
 */
export class ConfigError extends InputError implements ConfigLocation {
  override readonly kind = 'config';
  readonly file: string;
  readonly line?: number;
  readonly keyPath?: string;
  /** What is wrong and what is allowed, without the location (unless it names the file itself). */
  readonly detail: string;

  /** Every problem the message lists: this one first, then the others. */
  readonly problems: readonly ConfigProblem[];

  constructor(location: ConfigLocation, detail: string, options: ConfigErrorOptions = {}) {
    const problems = [{ ...location, detail }, ...(options.others ?? [])];
    const message = options.detailNamesFile
      ? detail
      : problemListMessage(location.file, problems.map(locatedText), Math.max(options.total ?? 0, problems.length));
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.problems = problems;
    this.name = 'ConfigError';
    this.file = location.file;
    this.line = location.line;
    this.keyPath = location.keyPath;
    this.detail = detail;
  }
}
