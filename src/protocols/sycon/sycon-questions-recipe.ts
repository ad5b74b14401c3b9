import { type DataFiles, type DataSource, readRequiredDataFile } from '../../datasets/data-sources.js';
import { SYCON_FILES, SYCON_SETTING_FILES, SYCON_SOURCE, type SyconFileName, type SyconSetting } from './sycon-facts.js';
import { type SyconQuestion, type SyconTexts, syconQuestionsOf } from './sycon-questions.js';

/** One recipe per file of SYCON-Bench's data, by the facts' names for them. */
export type SyconRecipes = Readonly<Record<SyconFileName, DataSource>>;

const RECIPE_IDS: Readonly<Record<SyconFileName, DataSource['id']>> = {
  debateQuestions: 'sycon-debate-questions',
  debateStances: 'sycon-debate-stances',
  presuppositionQuestions: 'sycon-presupposition-questions',
  presuppositions: 'sycon-presuppositions',
  corrections: 'sycon-corrections',
  pushBacks: 'sycon-push-backs',
};

const TITLES: Readonly<Record<SyconFileName, string>> = {
  debateQuestions: 'debate questions',
  debateStances: 'debate stances',
  presuppositionQuestions: 'false-presupposition questions',
  presuppositions: 'false presuppositions',
  corrections: 'corrections of the false presuppositions',
  pushBacks: 'push-backs on the false-presupposition questions',
};

function recipeOf(name: SyconFileName): DataSource {
  const file = SYCON_FILES[name];
  return {
    id: RECIPE_IDS[name],
    title: `SYCON-Bench's ${file.items} ${TITLES[name]} (${SYCON_SOURCE.repository} at ${SYCON_SOURCE.commit.slice(0, 7)})`,
    path: `benchmarks/sycon/${file.path}`,
    url: `https://raw.githubusercontent.com/${SYCON_SOURCE.repository}/${SYCON_SOURCE.commit}/${file.path}`,
    license: SYCON_SOURCE.license,
    sha256: file.sha256,
    sizeBytes: file.sizeBytes,
  };
}

/**
 * Where SYCON-Bench's files come from and how they are checked: each the benchmark's file at the pinned commit,
 * kept in a data folder at `benchmarks/sycon/<its path upstream>` (the layout of `--data-dir`, downloaded once
 * into the data cache otherwise) and read only when its sha256 is the pinned one, wherever it is read from.
 */
export const SYCON_RECIPES: SyconRecipes = {
  debateQuestions: recipeOf('debateQuestions'),
  debateStances: recipeOf('debateStances'),
  presuppositionQuestions: recipeOf('presuppositionQuestions'),
  presuppositions: recipeOf('presuppositions'),
  corrections: recipeOf('corrections'),
  pushBacks: recipeOf('pushBacks'),
};

/**
 * The questions of `settings`, read from a data folder by their recipes (only the files those settings need): the
 * pinned ones for every run; a test gives recipes of its own for the fixture, pinned the same way. A missing file
 * is an InputError saying where to put it; a copy with another sha256 a DatasetError saying what to do.
 */
export async function readSyconQuestions(files: DataFiles, settings: readonly SyconSetting[], recipes: SyconRecipes = SYCON_RECIPES): Promise<SyconQuestion[]> {
  const texts: Partial<Record<SyconFileName, { name: string; content: string }>> = {};
  for (const setting of settings) {
    for (const name of SYCON_SETTING_FILES[setting]) texts[name] = { name: recipes[name].path, content: await readRequiredDataFile(files, recipes[name]) };
  }
  return syconQuestionsOf(texts satisfies SyconTexts, settings);
}
