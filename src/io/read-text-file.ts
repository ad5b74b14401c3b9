import { readFileSync } from 'node:fs';
import { decodeText } from '../datasets/decode-text.js';
import { InputError } from '../domain/errors/input-error.js';

/**
 * The text of a file a user pointed pmiyc at: UTF-8 (a BOM dropped, invalid bytes refused with file
 * and line, see `decodeText`). A missing file is an InputError with `missing` (which says what to
 * pass instead); any other failure names the file and the system's code.
 */
export function readTextFile(path: string, missing: string): string {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new InputError(missing);
    throw new InputError(`cannot read ${path} (${code ?? (error as Error).message}): check that it is a file you may read`);
  }
  return decodeText(path, bytes);
}
