import type { DataSource } from '../../src/datasets/data-sources.js';
import { PERSUSAFETY_RECIPES, type PersusafetyRecipes } from '../../src/protocols/persusafety/persusafety-datasets-recipe.js';

/** A fixture file named apart from the benchmark's, pinned by its own sha256 and size. */
const sample = (recipe: DataSource, title: string, sha256: string, sizeBytes: number): DataSource => ({
  ...recipe,
  title: `${title} (pmiyc's test fixture)`,
  path: recipe.path.replace(/\.json$/, '.sample.json'),
  sha256,
  sizeBytes,
});

/**
 * The recipes of PersuSafety's fixture (test/fixtures/README.md), in `test/fixtures/data`: 3 of the 101 harmful
 * tasks (one per level), 2 of the 67 neutral scenes and 2 of the 30 scenes with constraints, each pinned by its own
 * sha256 as the real files are by theirs, and the two profile files whole (the pinned files themselves). Tests read
 * them through the same checked path a run takes; a run always reads the pinned files.
 */
export const PERSUSAFETY_FIXTURE_RECIPES: PersusafetyRecipes = {
  harmfulTasks: sample(
    PERSUSAFETY_RECIPES.harmfulTasks,
    "3 of PersuSafety's harmful tasks",
    '048ce9a83074bc604f3cb73009676f96afa590b1fbdd53605a6ec2b327587750',
    2690,
  ),
  neutralScenes: sample(
    PERSUSAFETY_RECIPES.neutralScenes,
    "2 of PersuSafety's neutral scenes",
    '51a076cc1e7fbe20a928940ffc882fa39b6ee826119f6782260a7f7c1d7b13a7',
    1612,
  ),
  constrainedScenes: sample(
    PERSUSAFETY_RECIPES.constrainedScenes,
    "2 of PersuSafety's scenes with constraints",
    'f4f4f0dd85144b7c1a94ef3ab10bdd0f5185b2b705a18a6d01f66b759d9aa875',
    4351,
  ),
  persuadeeProfiles: PERSUSAFETY_RECIPES.persuadeeProfiles,
  persuaderProfiles: PERSUSAFETY_RECIPES.persuaderProfiles,
};
