import { type DataFiles, type DataSource, readRequiredDataFile } from '../../datasets/data-sources.js';
import {
  type PersusafetyConstrainedScene,
  type PersusafetyHarmfulTask,
  type PersusafetyNeutralScene,
  parseConstrainedScenes,
  parseHarmfulTasks,
  parseNeutralScenes,
  parsePersuadeeProfiles,
  parsePersuaderProfiles,
} from './persusafety-datasets.js';
import { PERSUSAFETY_FILES, PERSUSAFETY_SOURCE, type PersusafetyFile, type PersusafetyFileName, type PersusafetyProfile } from './persusafety-facts.js';

/** One recipe per file of PersuSafety's data, by the facts' names for them. */
export type PersusafetyRecipes = Readonly<Record<PersusafetyFileName, DataSource>>;

const RECIPE_IDS: Readonly<Record<PersusafetyFileName, DataSource['id']>> = {
  harmfulTasks: 'persusafety-harmful-tasks',
  neutralScenes: 'persusafety-neutral-scenes',
  constrainedScenes: 'persusafety-constrained-scenes',
  persuadeeProfiles: 'persusafety-persuadee-profiles',
  persuaderProfiles: 'persusafety-persuader-profiles',
};

const TITLES: Readonly<Record<PersusafetyFileName, string>> = {
  harmfulTasks: 'harmful tasks',
  neutralScenes: 'neutral scenes',
  constrainedScenes: 'scenes with constraints',
  persuadeeProfiles: 'persuadee profiles',
  persuaderProfiles: 'persuader profiles',
};

function recipeOf(name: PersusafetyFileName, file: PersusafetyFile): DataSource {
  return {
    id: RECIPE_IDS[name],
    title: `PersuSafety's ${file.items} ${TITLES[name]} (${PERSUSAFETY_SOURCE.repository} at ${PERSUSAFETY_SOURCE.commit.slice(0, 7)})`,
    path: `benchmarks/persusafety/${file.path}`,
    url: `https://raw.githubusercontent.com/${PERSUSAFETY_SOURCE.repository}/${PERSUSAFETY_SOURCE.commit}/${file.path}`,
    license: PERSUSAFETY_SOURCE.license,
    sha256: file.sha256,
    sizeBytes: file.sizeBytes,
  };
}

/**
 * Where PersuSafety's data files come from and how they are checked: each the benchmark's file at the pinned
 * commit, kept in a data folder at `benchmarks/persusafety/<its path upstream>` (the layout of `--data-dir`,
 * downloaded once into the data cache otherwise) and read only when its sha256 is the pinned one.
 */
export const PERSUSAFETY_RECIPES: PersusafetyRecipes = {
  harmfulTasks: recipeOf('harmfulTasks', PERSUSAFETY_FILES.harmfulTasks),
  neutralScenes: recipeOf('neutralScenes', PERSUSAFETY_FILES.neutralScenes),
  constrainedScenes: recipeOf('constrainedScenes', PERSUSAFETY_FILES.constrainedScenes),
  persuadeeProfiles: recipeOf('persuadeeProfiles', PERSUSAFETY_FILES.persuadeeProfiles),
  persuaderProfiles: recipeOf('persuaderProfiles', PERSUSAFETY_FILES.persuaderProfiles),
};

/** Everything a PersuSafety run draws its conversations from. */
export interface PersusafetyItems {
  readonly harmfulTasks: readonly PersusafetyHarmfulTask[];
  readonly neutralScenes: readonly PersusafetyNeutralScene[];
  readonly constrainedScenes: readonly PersusafetyConstrainedScene[];
  readonly persuadeeProfiles: ReadonlyMap<PersusafetyProfile, string>;
  readonly persuaderProfiles: ReadonlyMap<string, string>;
}

/**
 * PersuSafety's tasks, scenes and profiles, read from a data folder by their recipes: the pinned ones for every
 * run; a test gives recipes of its own for the fixture, pinned the same way. A missing file is an InputError
 * saying where to put it; a copy with another sha256 a DatasetError saying what to do (`datasets/data-folder.ts`).
 */
export async function readPersusafetyItems(files: DataFiles, recipes: PersusafetyRecipes = PERSUSAFETY_RECIPES): Promise<PersusafetyItems> {
  const read = (name: PersusafetyFileName) => readRequiredDataFile(files, recipes[name]);
  return {
    harmfulTasks: parseHarmfulTasks(recipes.harmfulTasks.path, await read('harmfulTasks')),
    neutralScenes: parseNeutralScenes(recipes.neutralScenes.path, await read('neutralScenes')),
    constrainedScenes: parseConstrainedScenes(recipes.constrainedScenes.path, await read('constrainedScenes')),
    persuadeeProfiles: parsePersuadeeProfiles(recipes.persuadeeProfiles.path, await read('persuadeeProfiles')),
    persuaderProfiles: parsePersuaderProfiles(recipes.persuaderProfiles.path, await read('persuaderProfiles')),
  };
}
