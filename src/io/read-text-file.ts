import { decodeText } from '../datasets/decode-text.js';
import { INPUT_FILE_LIMITS, type InputFileLimit, readInputFile } from '../datasets/read-input-file.js';
import { ConfigError } from '../domain/errors/config-error.js';
import { DatasetError } from '../domain/errors/dataset-error.js';
import { InputError } from '../domain/errors/input-error.js';

/**
 * The bytes of a file a user named, through the one reader of input files (a regular file under its
 * cap, read asynchronously). `faulty` makes the error for a file that is there but cannot be read.
 */
async function readBytes(path: string, limit: InputFileLimit, missing: string, faulty: (detail: string, cause?: unknown) => InputError): Promise<Uint8Array> {
  const read = await readInputFile(path, limit);
  // A missing file is a path given wrong, not a file at fault: `missing` says what to pass instead.
  if (read.status === 'missing') throw new InputError(missing);
  if (read.status === 'read') return read.bytes;
  throw faulty(read.detail, read.status === 'unreadable' ? read.cause : undefined);
}

/** A DatasetError whose detail is a sentence naming the file. */
function datasetFault(path: string): (detail: string, cause?: unknown) => DatasetError {
  return (detail, cause) => new DatasetError({ file: path }, detail, { cause, detailNamesFile: true });
}

/**
 * The text of a data file a user pointed pmiyc at (claims, pairs, answers, tasks, labels, official
 * results): UTF-8 (a BOM dropped, invalid bytes refused with file and line, see `decodeText`). A
 * missing file is an InputError with `missing` (which says what to pass instead); what is not a
 * regular file, is larger than a data file may be or cannot be read or decoded is a DatasetError
 * naming it.
 */
export async function readTextFile(path: string, missing: string): Promise<string> {
  return decodeText(path, await readBytes(path, INPUT_FILE_LIMITS.data, missing, datasetFault(path)));
}

/** The bytes of a data file, read as `readTextFile` reads it, for callers that hash them too. */
export async function readDataFileBytes(path: string, missing: string): Promise<Uint8Array> {
  return readBytes(path, INPUT_FILE_LIMITS.data, missing, datasetFault(path));
}

/** The text of a config file, as `readTextFile` reads a data file (with a config file's cap), with a ConfigError where the file is at fault. */
export async function readConfigFile(path: string, missing: string): Promise<string> {
  return readYamlFile(path, INPUT_FILE_LIMITS.config, missing);
}

/** The text of a taxonomy file (docs/design/techniques.md), read as a config file is, with a taxonomy file's cap. */
export async function readTaxonomyFile(path: string, missing: string): Promise<string> {
  return readYamlFile(path, INPUT_FILE_LIMITS.taxonomy, missing);
}

/** A hand-written YAML file's text (a config, a taxonomy): its faults are ConfigErrors naming it. */
async function readYamlFile(path: string, limit: InputFileLimit, missing: string): Promise<string> {
  const bytes = await readBytes(path, limit, missing, (detail, cause) => new ConfigError({ file: path }, detail, { cause, detailNamesFile: true }));
  try {
    return decodeText(path, bytes);
  } catch (error) {
    // decodeText puts the file and line before its detail, as a ConfigError does: the message stays the same.
    if (error instanceof DatasetError)
      throw new ConfigError({ file: error.file, ...(error.line === undefined ? {} : { line: error.line }) }, error.detail, { cause: error });
    throw error;
  }
}
