import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { decodeText } from '../datasets/decode-text.js';
import { DatasetError } from '../domain/errors/dataset-error.js';
import { InputError } from '../domain/errors/input-error.js';
import type { OfficialSource } from '../studies/tournament/official-import-plan.js';

/** The name the official code gives its results in each experiment folder. */
const RESULTS_FILE = 'results.json';

function readBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new DatasetError({ file: path }, `cannot read ${path} (${code ?? (error as Error).message}): check that it is a file you may read`, {
      cause: error,
      detailNamesFile: true,
    });
  }
}

/** A results file read from disk: its text and the sha256 of its bytes, each time it is asked for. */
function fileSource(path: string): OfficialSource {
  return {
    path,
    read() {
      const bytes = readBytes(path);
      return { text: decodeText(path, bytes), sha256: createHash('sha256').update(bytes).digest('hex') };
    },
  };
}

/** Every results.json under a folder, in path order (hidden folders such as the official code's `.logs` are left out). */
function resultsFilesUnder(folder: string): string[] {
  const found: string[] = [];
  const visit = (current: string) => {
    const entries = readdirSync(current, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(current, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile() && entry.name === RESULTS_FILE) found.push(path);
    }
  };
  visit(folder);
  return found;
}

/**
 * The results files named on the command line: a file as it is (whatever its name), a folder as
 * every `results.json` under it (a whole `experiments/` tree), each once, as absolute paths.
 */
export function officialResultsSources(paths: readonly string[]): OfficialSource[] {
  const files: string[] = [];
  for (const given of paths) {
    const path = resolve(given);
    let isFolder: boolean;
    try {
      isFolder = statSync(path).isDirectory();
    } catch {
      throw new InputError(`no file or folder at ${given}: give results.json files or the folders (such as experiments/) that hold them`);
    }
    if (!isFolder) files.push(path);
    else {
      const found = resultsFilesUnder(path);
      if (found.length === 0) throw new InputError(`${given} holds no ${RESULTS_FILE}: give the official code's experiments/ folder, or the files themselves`);
      files.push(...found);
    }
  }
  return [...new Set(files)].map(fileSource);
}
