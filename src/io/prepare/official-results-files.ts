import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { decodeText } from '../../datasets/decode-text.js';
import { InputError } from '../../domain/errors/input-error.js';
import type { OfficialSource } from '../../studies/tournament/official-import-plan.js';
import { readDataFileBytes } from '../read-text-file.js';

/** The name the official code gives its results in each experiment folder. */
const RESULTS_FILE = 'results.json';

/** A results file read from disk (as every data file is: a regular file under the cap): its text and the sha256 of its bytes, each time it is asked for. */
function fileSource(path: string): OfficialSource {
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
 * Every results.json under a folder, in path order (hidden folders such as the official code's `.logs` are left out).
 * Anything named results.json but a folder is taken, so that one which is not a regular file is refused with its
 * name, not passed over; a link to a folder is not followed (a link may loop).
 */
async function resultsFilesUnder(folder: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (current: string) => {
    const entries = (await entriesOf(current)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(current, entry.name);
      if (entry.isDirectory()) await visit(path);
      else if (entry.name === RESULTS_FILE) found.push(path);
    }
  };
  await visit(folder);
  return found;
}

/**
 * The results files named on the command line: a file as it is (whatever its name), a folder as
 * every `results.json` under it (a whole `experiments/` tree), each once, as absolute paths.
 */
export async function officialResultsSources(paths: readonly string[]): Promise<OfficialSource[]> {
  const files: string[] = [];
  for (const given of paths) {
    const path = resolve(given);
    let isFolder: boolean;
    try {
      isFolder = (await stat(path)).isDirectory();
    } catch {
      throw new InputError(`no file or folder at ${given}: give results.json files or the folders (such as experiments/) that hold them`);
    }
    if (!isFolder) files.push(path);
    else {
      const found = await resultsFilesUnder(path);
      if (found.length === 0) throw new InputError(`${given} holds no ${RESULTS_FILE}: give the official code's experiments/ folder, or the files themselves`);
      files.push(...found);
    }
  }
  return [...new Set(files)].map(fileSource);
}
