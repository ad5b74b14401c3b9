import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APE_FIXTURE_TOPICS_RECIPE } from '../../../test/support/ape-topics-fixture.js';
import { StaticServer } from '../../../test/support/static-server.js';
import { describeWithTestData, FIXTURE_DATA } from '../../../test/support/test-data.js';
import { cachedDataFiles, localDataFiles, sha256Hex } from '../../datasets/data-folder.js';
import type { DataSource } from '../../datasets/data-sources.js';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import { InputError } from '../../domain/errors/input-error.js';
import { APE_CATEGORIES, APE_SOURCE, APE_TOPICS_FILE } from './ape-facts.js';
import { APE_TOPICS_RECIPE, readApeTopics } from './ape-topics-recipe.js';

const FIXTURE_BYTES = readFileSync(join(FIXTURE_DATA, APE_FIXTURE_TOPICS_RECIPE.path));

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-ape-topics-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A data folder holding `bytes` where `source` is kept. */
function dataFolderWith(name: string, source: DataSource, bytes: Uint8Array): string {
  const root = join(folder, name);
  mkdirSync(dirname(join(root, source.path)), { recursive: true });
  writeFileSync(join(root, source.path), bytes);
  return root;
}

/** What reading a folder's topics by a recipe throws. */
async function refusal(root: string, recipe?: DataSource): Promise<unknown> {
  return readApeTopics(localDataFiles(root), recipe).then(
    () => new Error('the topics were read'),
    (error: unknown) => error,
  );
}

describe("APE's topic recipe", () => {
  it('pins the benchmark file at its commit: its place in a data folder, its address, its sha256, size and licence', () => {
    expect(APE_TOPICS_RECIPE).toEqual({
      id: 'ape-topics',
      title: "APE's 600 topics (AlignmentResearch/AttemptPersuadeEval at 3a6d370)",
      path: 'benchmarks/ape/src/topics/diverse_topics.jsonl',
      url: `https://raw.githubusercontent.com/AlignmentResearch/AttemptPersuadeEval/${APE_SOURCE.commit}/src/topics/diverse_topics.jsonl`,
      license: 'Apache-2.0',
      sha256: APE_TOPICS_FILE.sha256,
      sizeBytes: 131_215,
    });
  });

  it("reads the fixture's 12 topics through a recipe pinned to the fixture's own digest", async () => {
    expect(sha256Hex(FIXTURE_BYTES)).toBe(APE_FIXTURE_TOPICS_RECIPE.sha256);
    expect(FIXTURE_BYTES.length).toBe(APE_FIXTURE_TOPICS_RECIPE.sizeBytes);
    const topics = await readApeTopics(localDataFiles(FIXTURE_DATA), APE_FIXTURE_TOPICS_RECIPE);
    expect(topics).toHaveLength(12);
    expect(topics.map((topic) => topic.shortTitle).slice(0, 3)).toEqual(['Chemtrails', 'Northwoods', 'Pizza Tastiest Meal']);
  });

  it('refuses a file at the pinned place whose sha256 is not the pinned one, though its topics parse, saying where the right file is', async () => {
    const root = dataFolderWith('fixture-as-pinned', APE_TOPICS_RECIPE, FIXTURE_BYTES);
    const error = await refusal(root);
    expect(error).toBeInstanceOf(DatasetError);
    expect((error as Error).message).toBe(
      `${join(root, APE_TOPICS_RECIPE.path)} is not the pinned ${APE_TOPICS_RECIPE.title} (its sha256 is ${sha256Hex(FIXTURE_BYTES)}, not ${APE_TOPICS_FILE.sha256}): put the file from ${APE_TOPICS_RECIPE.url} there, or give --data-dir a folder that has it`,
    );
  });

  it('refuses the fixture with one byte of one topic changed', async () => {
    const changed = Buffer.from(FIXTURE_BYTES.toString('utf8').replace('"Chemtrails"', '"Chemtrailz"'), 'utf8');
    expect(changed.length).toBe(FIXTURE_BYTES.length);
    const root = dataFolderWith('changed-byte', APE_FIXTURE_TOPICS_RECIPE, changed);
    const error = await refusal(root, APE_FIXTURE_TOPICS_RECIPE);
    expect(error).toBeInstanceOf(DatasetError);
    expect((error as Error).message).toContain(`(its sha256 is ${sha256Hex(changed)}, not ${APE_FIXTURE_TOPICS_RECIPE.sha256})`);
  });

  it('says where to put the file and where it comes from when the data folder has none', async () => {
    const error = await refusal(FIXTURE_DATA);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(
      `${FIXTURE_DATA} has no benchmarks/ape/src/topics/diverse_topics.jsonl (${APE_TOPICS_RECIPE.title}): put it there (from ${APE_TOPICS_RECIPE.url}), or use another --data-dir`,
    );
  });

  it('downloads the file once from a mirror laid out like a data folder, checks it and reads it from the cache after', async () => {
    const mirror = await StaticServer.start(FIXTURE_DATA);
    try {
      const cacheFolder = join(folder, 'cache');
      const first = await readApeTopics(cachedDataFiles({ cacheFolder, mirror: mirror.url }), APE_FIXTURE_TOPICS_RECIPE);
      const again = await readApeTopics(cachedDataFiles({ cacheFolder, mirror: mirror.url }), APE_FIXTURE_TOPICS_RECIPE);
      expect(again).toEqual(first);
      expect(first).toHaveLength(12);
      expect(mirror.requests).toEqual([`/${APE_FIXTURE_TOPICS_RECIPE.path}`]);
      expect(readFileSync(join(cacheFolder, APE_FIXTURE_TOPICS_RECIPE.path))).toEqual(FIXTURE_BYTES);
    } finally {
      await mirror.close();
    }
  });
});

describeWithTestData("APE's 600 topics through the pinned recipe", (testData) => {
  it('reads every topic of the benchmark file, 100 per category in its order, ground_truth on 91 conspiracy topics, all false', async () => {
    const topics = await readApeTopics(localDataFiles(testData.data));
    expect(topics).toHaveLength(APE_TOPICS_FILE.topics);
    expect(topics.map((topic) => topic.index)).toEqual([...Array(600).keys()]);
    expect(topics.map((topic) => topic.category)).toEqual(APE_CATEGORIES.flatMap((category) => Array<string>(100).fill(category)));
    const withGroundTruth = topics.filter((topic) => topic.groundTruth !== undefined);
    expect(withGroundTruth).toHaveLength(91);
    expect(withGroundTruth.every((topic) => topic.category === 'Conspiracy' && topic.groundTruth === false)).toBe(true);
    expect(new Set(topics.map((topic) => topic.shortTitle)).size).toBe(600);
  });

  it("holds in its fixture only lines of the pinned file, byte for byte, and the benchmark's licence text", () => {
    const pinnedLines = new Set(readFileSync(join(testData.data, APE_TOPICS_RECIPE.path), 'utf8').split('\n'));
    const fixtureLines = FIXTURE_BYTES.toString('utf8').split('\n');
    expect(fixtureLines.at(-1)).toBe('');
    expect(fixtureLines.slice(0, -1).filter((line) => !pinnedLines.has(line))).toEqual([]);
    expect(readFileSync(join(FIXTURE_DATA, 'benchmarks/ape/LICENSE'))).toEqual(readFileSync(join(testData.data, 'benchmarks/ape/LICENSE')));
  });
});
