import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSUSAFETY_FIXTURE_RECIPES } from '../../../test/support/persusafety-fixture.js';
import { describeWithTestData, FIXTURE_DATA } from '../../../test/support/test-data.js';
import { localDataFiles, sha256Hex } from '../../datasets/data-folder.js';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import { InputError } from '../../domain/errors/input-error.js';
import { PERSUSAFETY_RECIPES, type PersusafetyRecipes, readPersusafetyItems } from './persusafety-datasets-recipe.js';
import { PERSUSAFETY_FILES, PERSUSAFETY_HARMFUL_TASKS_BY_LEVEL, PERSUSAFETY_PERSUADEE_PROFILES, PERSUSAFETY_SOURCE } from './persusafety-facts.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-persusafety-data-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A data folder holding the fixture's files at the places `recipes` say, with `change` applied to one of them. */
function dataFolderWith(name: string, recipes: PersusafetyRecipes, change?: { file: keyof PersusafetyRecipes; bytes: Uint8Array }): string {
  const root = join(folder, name);
  for (const [key, recipe] of Object.entries(recipes) as Array<[keyof PersusafetyRecipes, (typeof recipes)[keyof PersusafetyRecipes]]>) {
    const bytes = change?.file === key ? change.bytes : readFileSync(join(FIXTURE_DATA, PERSUSAFETY_FIXTURE_RECIPES[key].path));
    mkdirSync(dirname(join(root, recipe.path)), { recursive: true });
    writeFileSync(join(root, recipe.path), bytes);
  }
  return root;
}

async function refusal(root: string, recipes?: PersusafetyRecipes): Promise<unknown> {
  return readPersusafetyItems(localDataFiles(root), recipes).then(
    () => new Error('the items were read'),
    (error: unknown) => error,
  );
}

describe("PersuSafety's data recipes", () => {
  it('pin each file at the commit: its place in a data folder, its address, sha256, size and licence', () => {
    expect(PERSUSAFETY_RECIPES.harmfulTasks).toEqual({
      id: 'persusafety-harmful-tasks',
      title: "PersuSafety's 101 harmful tasks (PLUM-Lab/PersuSafety at 892bf05)",
      path: 'benchmarks/persusafety/dataset/harmful_scenarios_full.json',
      url: `https://raw.githubusercontent.com/PLUM-Lab/PersuSafety/${PERSUSAFETY_SOURCE.commit}/dataset/harmful_scenarios_full.json`,
      license: 'MIT',
      sha256: PERSUSAFETY_FILES.harmfulTasks.sha256,
      sizeBytes: 89_433,
    });
    expect(Object.values(PERSUSAFETY_RECIPES).map((recipe) => recipe.path)).toEqual([
      'benchmarks/persusafety/dataset/harmful_scenarios_full.json',
      'benchmarks/persusafety/dataset/persuasion_scenario_neutral.json',
      'benchmarks/persusafety/dataset/persuasion_scenarios_neutral_constraints.json',
      'benchmarks/persusafety/dataset/profiles_persuadee.json',
      'benchmarks/persusafety/dataset/profiles_persuader.json',
    ]);
  });

  it("reads the fixture through recipes pinned to the fixture's own digests: 3 tasks (one per level), 2 + 2 scenes, every profile", async () => {
    for (const recipe of Object.values(PERSUSAFETY_FIXTURE_RECIPES)) {
      const bytes = readFileSync(join(FIXTURE_DATA, recipe.path));
      expect([sha256Hex(bytes), bytes.length], recipe.path).toEqual([recipe.sha256, recipe.sizeBytes]);
    }
    const items = await readPersusafetyItems(localDataFiles(FIXTURE_DATA), PERSUSAFETY_FIXTURE_RECIPES);
    expect(items.harmfulTasks.map((task) => [task.id, task.harmfulness])).toEqual([
      [0, 'Medium'],
      [18, 'Low'],
      [62, 'High'],
    ]);
    expect(items.neutralScenes.map((scene) => [scene.index, scene.domain])).toEqual([
      [0, 'Politics'],
      [1, 'Politics'],
    ]);
    expect(items.constrainedScenes[0]).toMatchObject({ index: 0, domain: 'Politics', task: 'Convince Mark to support the new taxation policy' });
    expect(items.constrainedScenes[0]!.fact).toMatch(/^The tax increase is intended/);
    expect([...items.persuadeeProfiles.keys()]).toEqual([...PERSUSAFETY_PERSUADEE_PROFILES]);
    expect([...items.persuaderProfiles.keys()]).toEqual(['Ethical-Integrity-Perusader', 'Machiavellian-Manipulator', 'Pragmatic-Flexible-Persuader']);
  });

  it('refuses a file at a pinned place whose sha256 is not the pinned one, though it parses, saying where the right file is', async () => {
    const root = dataFolderWith('fixture-as-pinned', PERSUSAFETY_RECIPES);
    const error = await refusal(root);
    expect(error).toBeInstanceOf(DatasetError);
    const recipe = PERSUSAFETY_RECIPES.harmfulTasks;
    const bytes = readFileSync(join(FIXTURE_DATA, PERSUSAFETY_FIXTURE_RECIPES.harmfulTasks.path));
    expect((error as Error).message).toBe(
      `${join(root, recipe.path)} is not the pinned ${recipe.title} (its sha256 is ${sha256Hex(bytes)}, not ${recipe.sha256}): put the file from ${recipe.url} there, or give --data-dir a folder that has it`,
    );
  });

  it('refuses the fixture with one byte of one scene changed', async () => {
    const original = readFileSync(join(FIXTURE_DATA, PERSUSAFETY_FIXTURE_RECIPES.constrainedScenes.path), 'utf8');
    const bytes = Buffer.from(original.replace('"Politics"', '"Politicz"'), 'utf8');
    const root = dataFolderWith('changed-byte', PERSUSAFETY_FIXTURE_RECIPES, { file: 'constrainedScenes', bytes });
    const error = await refusal(root, PERSUSAFETY_FIXTURE_RECIPES);
    expect(error).toBeInstanceOf(DatasetError);
    expect((error as Error).message).toContain(`(its sha256 is ${sha256Hex(bytes)}, not ${PERSUSAFETY_FIXTURE_RECIPES.constrainedScenes.sha256})`);
  });

  it('says where to put a file and where it comes from when the data folder has none', async () => {
    const error = await refusal(join(folder, 'empty'));
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(
      `${join(folder, 'empty')} has no benchmarks/persusafety/dataset/harmful_scenarios_full.json (${PERSUSAFETY_RECIPES.harmfulTasks.title}): put it there (from ${PERSUSAFETY_RECIPES.harmfulTasks.url}), or use another --data-dir`,
    );
  });
});

describeWithTestData("PersuSafety's data through the pinned recipes", (testData) => {
  it('reads every file: 101 tasks by level as published, 67 + 30 scenes, 5 persuadee and 3 persuader profiles', async () => {
    const items = await readPersusafetyItems(localDataFiles(testData.data));
    expect(items.harmfulTasks).toHaveLength(PERSUSAFETY_FILES.harmfulTasks.items);
    const byLevel = { Low: 0, Medium: 0, High: 0 };
    for (const task of items.harmfulTasks) byLevel[task.harmfulness] += 1;
    expect(byLevel).toEqual(PERSUSAFETY_HARMFUL_TASKS_BY_LEVEL);
    expect(items.neutralScenes).toHaveLength(67);
    expect(items.constrainedScenes).toHaveLength(30);
    expect(items.persuadeeProfiles.size).toBe(5);
    expect(items.persuaderProfiles.size).toBe(3);
  });

  it("holds in its fixture only items of the pinned files, and the benchmark's licence text", () => {
    for (const key of ['harmfulTasks', 'neutralScenes', 'constrainedScenes'] as const) {
      const pinned = JSON.parse(readFileSync(join(testData.data, PERSUSAFETY_RECIPES[key].path), 'utf8')) as unknown[];
      const fixture = JSON.parse(readFileSync(join(FIXTURE_DATA, PERSUSAFETY_FIXTURE_RECIPES[key].path), 'utf8')) as unknown[];
      for (const item of fixture) expect(pinned, key).toContainEqual(item);
    }
    const licence = 'benchmarks/persusafety/LICENSE';
    expect(readFileSync(join(FIXTURE_DATA, licence))).toEqual(readFileSync(join(testData.data, licence)));
  });
});
