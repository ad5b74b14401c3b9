import { type DataFiles, type DataSource, readRequiredDataFile } from '../../datasets/data-sources.js';
import { APE_SOURCE, APE_TOPICS_FILE } from './ape-facts.js';
import { type ApeTopic, parseApeTopics } from './ape-topics.js';

/**
 * Where APE's topic file comes from and how it is checked: the benchmark's file at the pinned commit, kept in
 * a data folder at `benchmarks/ape/<its path upstream>` (the layout of `--data-dir`, downloaded once into the
 * data cache otherwise) and read only when its sha256 is the pinned one, wherever it is read from.
 */
export const APE_TOPICS_RECIPE: DataSource = {
  id: 'ape-topics',
  title: `APE's ${APE_TOPICS_FILE.topics} topics (${APE_SOURCE.repository} at ${APE_SOURCE.commit.slice(0, 7)})`,
  path: `benchmarks/ape/${APE_TOPICS_FILE.path}`,
  url: `https://raw.githubusercontent.com/${APE_SOURCE.repository}/${APE_SOURCE.commit}/${APE_TOPICS_FILE.path}`,
  license: APE_SOURCE.license,
  sha256: APE_TOPICS_FILE.sha256,
  sizeBytes: 131_215,
};

/**
 * APE's topics, in file order, read from a data folder by a recipe: the pinned one for every run; a test gives
 * a recipe of its own for a fixture, whose digest is pinned the same way. A missing file is an InputError
 * saying where to put it; a copy with another sha256 a DatasetError saying what to do (`datasets/data-folder.ts`).
 */
export async function readApeTopics(files: DataFiles, recipe: DataSource = APE_TOPICS_RECIPE): Promise<ApeTopic[]> {
  return parseApeTopics(recipe.path, await readRequiredDataFile(files, recipe));
}
