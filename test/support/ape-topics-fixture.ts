import type { DataSource } from '../../src/datasets/data-sources.js';
import { APE_TOPICS_RECIPE } from '../../src/protocols/ape/ape-topics-recipe.js';

/**
 * The recipe of APE's topic fixture (test/fixtures/README.md): 12 lines of the pinned file, two per category,
 * in `test/fixtures/data`, pinned by their own sha256 as the real file is by its, so a test reads them through
 * the same checked path a run takes. Only tests use it: a run always reads the pinned file.
 */
export const APE_FIXTURE_TOPICS_RECIPE: DataSource = {
  ...APE_TOPICS_RECIPE,
  title: "12 of APE's topics (pmiyc's test fixture)",
  path: 'benchmarks/ape/src/topics/diverse_topics.sample.jsonl',
  sha256: '63886f55622ef2d25f5393a3e2a109760104813001d3c1ae469645d2d9089802',
  sizeBytes: 2617,
};
