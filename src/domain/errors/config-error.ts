import { InputError } from './input-error.js';

/** Where in a config file a problem is. */
export interface ConfigLocation {
  /** The file as the user named it: `pmiyc.yaml`. */
  readonly file: string;
  /** 1-based, when the problem can be pinned to a line. */
  readonly line?: number;
  /** The dotted path of the key at fault: `models.alpha.temperature`. */
  readonly keyPath?: string;
}

export interface ConfigErrorOptions {
  readonly cause?: unknown;
  /**
   * The detail is a whole sentence that names the file itself (`cannot read pmiyc.yaml (EISDIR): ...`),
   * so the message is the detail alone.
   */
  readonly detailNamesFile?: boolean;
}

/**
 * A config file that pmiyc cannot use (exit 2). The message is built from the fields:
 * `pmiyc.yaml:7: models.alpha.temperature: <detail>`.
 */
export class ConfigError extends InputError implements ConfigLocation {
  override readonly kind = 'config';
  readonly file: string;
  readonly line?: number;
  readonly keyPath?: string;
  /** What is wrong and what is allowed, without the location (unless it names the file itself). */
  readonly detail: string;

  constructor(location: ConfigLocation, detail: string, options: ConfigErrorOptions = {}) {
    const line = location.line === undefined ? '' : `:${location.line}`;
    const key = location.keyPath ? `${location.keyPath}: ` : '';
    super(options.detailNamesFile ? detail : `${location.file}${line}: ${key}${detail}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ConfigError';
    this.file = location.file;
    this.line = location.line;
    this.keyPath = location.keyPath;
    this.detail = detail;
  }
}
