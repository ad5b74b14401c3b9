import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { decodeText } from '../../datasets/decode-text.js';
import { InputError } from '../../domain/errors/input-error.js';
import { readDataFileBytes } from '../read-text-file.js';

/** A results file to import: read when asked (an import reads each twice: once to check everything, once to store), with the sha256 of its bytes. */
export interface ResultFileSource {
  /** The file's absolute path: in messages, and stored with what is imported from it. */
  readonly path: string;
  read(): Promise<{ readonly text: string; readonly sha256: string }>;
}

/** Which files of a folder an import takes, and what it says when a path names nothing it can take. */
export interface ResultFileRule {
  /** Whether a file found under a folder is one to import, by its path (every folder in it included). */
  readonly takes: (path: string) => boolean;
  /** The message for a path that is neither a file nor a folder. */
  readonly missing: (given: string) => string;
  /** The message for a folder that holds no file to import. */
  readonly noneUnder: (given: string) => string;
}

/** A results file read from disk (as every data file is: a regular file under the cap): its text and the sha256 of its bytes, each time it is asked for. */
function fileSource(path: string): ResultFileSource {
  return {
    path,
    async read() {
      const bytes = await readDataFileBytes(path, `${path} is gone since pmiyc found it: give the results files again once they stay in place`);
      return { text: decodeText(path, bytes), sha256: createHash('sha256').update(bytes).digest('hex') };
    },
  };
}

async function entriesOf(folder: string): Promise<Dirent[]> {
  try {
    return await readdir(folder, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new InputError(`cannot read the folder ${folder} (${code}): check that it is a folder you may read`, { cause: error });
  }
}

/**
 * Every file under a folder that the rule takes, in path order (hidden folders such as a results tree's `.logs`
 * are left out). Anything the rule takes but a folder is taken, so that one which is not a regular file is refused
 * with its name, not passed over; a link to a folder is not followed (a link may loop).
 */
async function filesUnder(folder: string, rule: ResultFileRule): Promise<string[]> {
  const found: string[] = [];
  const visit = async (current: string) => {
    const entries = (await entriesOf(current)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(current, entry.name);
      if (entry.isDirectory()) await visit(path);
      else if (rule.takes(path)) found.push(path);
    }
  };
  await visit(folder);
  return found;
}

/**
 * The results files named on the command line: a file as it is (whatever its name), a folder as every file under
 * it that the rule takes (a whole results tree), each once, as absolute paths.
 */
export async function resultFileSources(paths: readonly string[], rule: ResultFileRule): Promise<ResultFileSource[]> {
  const files: string[] = [];
  for (const given of paths) {
    const path = resolve(given);
    let isFolder: boolean;
    try {
      isFolder = (await stat(path)).isDirectory();
    } catch {
      throw new InputError(rule.missing(given));
    }
    if (!isFolder) files.push(path);
    else {
      const found = await filesUnder(path, rule);
      if (found.length === 0) throw new InputError(rule.noneUnder(given));
      files.push(...found);
    }
  }
  return [...new Set(files)].map(fileSource);
}
