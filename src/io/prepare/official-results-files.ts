import { basename } from 'node:path';
import type { OfficialSource } from '../../studies/tournament/official-import-plan.js';
import { resultFileSources } from './result-file-sources.js';

/** The name the official code gives its results in each experiment folder. */
const RESULTS_FILE = 'results.json';

/**
 * The results files named on the command line: a file as it is (whatever its name), a folder as
 * every `results.json` under it (a whole `experiments/` tree), each once, as absolute paths.
 */
export async function officialResultsSources(paths: readonly string[]): Promise<OfficialSource[]> {
  return resultFileSources(paths, {
    takes: (path) => basename(path) === RESULTS_FILE,
    missing: (given) => `no file or folder at ${given}: give results.json files or the folders (such as experiments/) that hold them`,
    noneUnder: (given) => `${given} holds no ${RESULTS_FILE}: give the official code's experiments/ folder, or the files themselves`,
  });
}
