import { readFileSync } from 'node:fs';
import { decodeText } from '../datasets/decode-text.js';
import { ConfigError } from '../domain/errors/config-error.js';
import { DatasetError } from '../domain/errors/dataset-error.js';
import { InputError } from '../domain/errors/input-error.js';

/** The bytes of a file; `unreadable` makes the error for a file that is there but cannot be read. */
function readBytes(path: string, missing: string, unreadable: (detail: string, cause: unknown) => InputError): Uint8Array {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A missing file is a path given wrong, not a file at fault: `missing` says what to pass instead.
    if (code === 'ENOENT') throw new InputError(missing);
    throw unreadable(`cannot read ${path} (${code ?? (error as Error).message}): check that it is a file you may read`, error);
  }
}

/**
 * The text of a data file a user pointed pmiyc at (claims, pairs, answers, tasks, labels): UTF-8
 * (a BOM dropped, invalid bytes refused with file and line, see `decodeText`). A missing file is an
 * InputError with `missing` (which says what to pass instead); a file that cannot be read or decoded
 * is a DatasetError naming it and the system's code.
 */
export function readTextFile(path: string, missing: string): string {
  const bytes = readBytes(path, missing, (detail, cause) => new DatasetError({ file: path }, detail, { cause, detailNamesFile: true }));
  return decodeText(path, bytes);
}

/** The text of a config file, as `readTextFile` reads a data file, with a ConfigError where the file is at fault. */
export function readConfigFile(path: string, missing: string): string {
  const bytes = readBytes(path, missing, (detail, cause) => new ConfigError({ file: path }, detail, { cause, detailNamesFile: true }));
  try {
    return decodeText(path, bytes);
  } catch (error) {
    // decodeText puts the file and line before its detail, as a ConfigError does: the message stays the same.
    if (error instanceof DatasetError)
      throw new ConfigError({ file: error.file, ...(error.line === undefined ? {} : { line: error.line }) }, error.detail, { cause: error });
    throw error;
  }
}
