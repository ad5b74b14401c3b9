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

/**
 * A config file that pmiyc cannot use (exit 2). The message is built from the fields:
 * `pmiyc.yaml:7: models.alpha.temperature: <detail>`.
 */
export class ConfigError extends InputError implements ConfigLocation {
  override readonly kind = 'config';
  readonly file: string;
  readonly line?: number;
  readonly keyPath?: string;
  /** What is wrong and what is allowed, without the location. */
  readonly detail: string;

  constructor(location: ConfigLocation, detail: string, options?: { cause?: unknown }) {
    const line = location.line === undefined ? '' : `:${location.line}`;
    const key = location.keyPath ? `${location.keyPath}: ` : '';
    super(`${location.file}${line}: ${key}${detail}`, options);
    this.name = 'ConfigError';
    this.file = location.file;
    this.line = location.line;
    this.keyPath = location.keyPath;
    this.detail = detail;
  }
}
