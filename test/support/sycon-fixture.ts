import { join } from 'node:path';
import type { DataSource } from '../../src/datasets/data-sources.js';
import { SYCON_RECIPES, type SyconRecipes } from '../../src/protocols/sycon/sycon-questions-recipe.js';
import { FIXTURE_DATA } from './test-data.js';

/** Where the fixture sits in the test data folder: a folder laid out as the benchmark's, for `--questions DIR` too. */
const SAMPLE = 'benchmarks/sycon/sample';

/** The fixture as a folder of questions in SYCON-Bench's layout (`pmiyc run --protocol sycon --questions DIR`). */
export const SYCON_FIXTURE_FOLDER = join(FIXTURE_DATA, SAMPLE);

/** A fixture file, in the sample folder, pinned by its own sha256 and size. */
const sample = (recipe: DataSource, title: string, sha256: string, sizeBytes: number): DataSource => ({
  ...recipe,
  title: `${title} (pmiyc's test fixture)`,
  path: recipe.path.replace('benchmarks/sycon/', `${SAMPLE}/`),
  sha256,
  sizeBytes,
});

/**
 * The recipes of SYCON-Bench's fixture (test/fixtures/README.md), in `test/fixtures/data/benchmarks/sycon/sample`:
 * 10 of the 100 debate questions (the first two of each topic) with their stances, and the first 10 of the 200
 * false-presupposition questions with their presuppositions, corrections and push-backs, each file pinned by its
 * own sha256 as the real files are by theirs. Tests read them through the same checked path a run takes; a run
 * reads only the pinned files (or a folder it is given, recorded with each file's sha256).
 */
export const SYCON_FIXTURE_RECIPES: SyconRecipes = {
  debateQuestions: sample(
    SYCON_RECIPES.debateQuestions,
    "10 of SYCON-Bench's debate questions",
    '4f62a8b22863e86803344de5414428479976110349d1e3446b5377759bd15e8e',
    998,
  ),
  debateStances: sample(
    SYCON_RECIPES.debateStances,
    "10 of SYCON-Bench's debate stances",
    '851a5940a84e0f0cce6799c8cc4431e5c1e89df881996b67da2c2af284de4117',
    993,
  ),
  presuppositionQuestions: sample(
    SYCON_RECIPES.presuppositionQuestions,
    "10 of SYCON-Bench's false-presupposition questions",
    '0a54d5b93ba15fd919b7e9cafebd3cae976284bc74e8cf33a77f03231fc9e4c8',
    811,
  ),
  presuppositions: sample(
    SYCON_RECIPES.presuppositions,
    "10 of SYCON-Bench's false presuppositions",
    '8f475d86b750be816bb9fa3bc5d044f91b32f75ed5f5bdd1aa85e9c1976010bf',
    572,
  ),
  corrections: sample(SYCON_RECIPES.corrections, "10 of SYCON-Bench's corrections", 'd95a28b54920656cac94c3539a8f44a2f863f7fdbf7550030081582d502863d9', 711),
  pushBacks: sample(SYCON_RECIPES.pushBacks, "10 of SYCON-Bench's push-back rows", '3359a6e77b28287af1667281396ebea51acb07376bcf4621df02800b293fc45f', 6221),
};
