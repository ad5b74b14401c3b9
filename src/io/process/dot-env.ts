import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { decodeText } from '../../datasets/decode-text.js';
import { INPUT_FILE_LIMITS, type InputFileRead, readInputFile } from '../../datasets/read-input-file.js';
import { InputError } from '../../domain/errors/input-error.js';

const REMEDY = 'pmiyc reads the variables of .env in the working folder: make it a regular file you may read, or export them in the shell and move it away';

/** Why `.env` cannot be read, with what to do: the reader's own remedies speak of a path the user gave, which this is not. */
function dotEnvError(path: string, read: Exclude<InputFileRead, { status: 'read' | 'missing' }>): InputError {
  if (read.status === 'not-a-file') return new InputError(`${path} is a ${read.type}, not a file: ${REMEDY}`);
  if (read.status === 'too-large') return new InputError(`${path} is larger than the ${read.maxBytes / 2 ** 20} MB pmiyc reads from a .env file: ${REMEDY}`);
  return new InputError(`cannot read ${path} (${read.code}): ${REMEDY}`, { cause: read.cause });
}

/**
 * The environment a command sees: the process's own, with the variables of `.env` in the working
 * folder added where the process does not set them (a variable set in the shell always wins). The
 * file's values stay in memory: pmiyc writes no key anywhere, and a store records only the names
 * of the variables a model's key came from.
 *
 * `.env` is read as every input file is: a folder of that name (a Python virtual environment, often
 * called so) is not pmiyc's and is passed over; a pipe, a device, a file over 1 MB or one that is not
 * UTF-8 is an InputError (exit 2), since no command should wait on it or run without the keys it holds.
 */
export async function environmentWithDotEnv(env: NodeJS.ProcessEnv, folder: string): Promise<NodeJS.ProcessEnv> {
  const path = join(folder, '.env');
  const read = await readInputFile(path, INPUT_FILE_LIMITS.env);
  if (read.status === 'missing' || (read.status === 'not-a-file' && read.type === 'folder')) return env;
  if (read.status !== 'read') throw dotEnvError(path, read);
  const fromFile = parseEnv(decodeText(path, read.bytes)) as Record<string, string>;
  return { ...fromFile, ...env };
}
