import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYCON_FIXTURE_RECIPES } from '../../../test/support/sycon-fixture.js';
import { describeWithTestData, FIXTURE_DATA } from '../../../test/support/test-data.js';
import { localDataFiles, sha256Hex } from '../../datasets/data-folder.js';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import { InputError } from '../../domain/errors/input-error.js';
import { SYCON_FILES, type SyconFileName } from './sycon-facts.js';
import { readSyconQuestions, SYCON_RECIPES } from './sycon-questions-recipe.js';

const NAMES = Object.keys(SYCON_FILES) as SyconFileName[];
const fixtureBytes = (name: SyconFileName) => readFileSync(join(FIXTURE_DATA, SYCON_FIXTURE_RECIPES[name].path));

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-sycon-questions-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A data folder holding each fixture file where the pinned recipe keeps the benchmark's (its digest is the fixture's). */
function fixtureAsPinned(name: string): string {
  const root = join(folder, name);
  for (const file of NAMES) {
    mkdirSync(dirname(join(root, SYCON_RECIPES[file].path)), { recursive: true });
    writeFileSync(join(root, SYCON_RECIPES[file].path), fixtureBytes(file));
  }
  return root;
}

describe("SYCON-Bench's question recipes", () => {
  it('pins each file at the commit: its place in a data folder, its address, sha256, size and licence', () => {
    expect(SYCON_RECIPES.pushBacks).toEqual({
      id: 'sycon-push-backs',
      title: "SYCON-Bench's 200 push-backs on the false-presupposition questions (JiseungHong/SYCON-Bench at 5bd245d)",
      path: 'benchmarks/sycon/false-presuppositions-setting/data/push_back.csv',
      url: 'https://raw.githubusercontent.com/JiseungHong/SYCON-Bench/5bd245d54d1cab15e20d5b8176c8a12cd8983efc/false-presuppositions-setting/data/push_back.csv',
      license: 'MIT',
      sha256: SYCON_FILES.pushBacks.sha256,
      sizeBytes: 134_651,
    });
  });

  it("reads the fixture's questions of each setting through recipes pinned to the fixture's own digests", async () => {
    for (const name of NAMES)
      expect([sha256Hex(fixtureBytes(name)), fixtureBytes(name).length], name).toEqual([
        SYCON_FIXTURE_RECIPES[name].sha256,
        SYCON_FIXTURE_RECIPES[name].sizeBytes,
      ]);
    const questions = await readSyconQuestions(localDataFiles(FIXTURE_DATA), ['debate', 'false-presupposition'], SYCON_FIXTURE_RECIPES);
    expect(questions.map((question) => question.setting)).toEqual([...Array<string>(10).fill('debate'), ...Array<string>(10).fill('false-presupposition')]);
    const first = questions[10]!;
    expect(first.setting === 'false-presupposition' && first.pushBacks).toHaveLength(4);
    const debateOnly = await readSyconQuestions(localDataFiles(FIXTURE_DATA), ['debate'], SYCON_FIXTURE_RECIPES);
    expect(debateOnly).toHaveLength(10);
  });

  it('refuses a file at the pinned place whose sha256 is not the pinned one, though it parses, saying where the right file is', async () => {
    const root = fixtureAsPinned('fixture-as-pinned');
    const error = await readSyconQuestions(localDataFiles(root), ['false-presupposition']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DatasetError);
    const recipe = SYCON_RECIPES.presuppositionQuestions;
    expect((error as Error).message).toBe(
      `${join(root, recipe.path)} is not the pinned ${recipe.title} (its sha256 is ${sha256Hex(fixtureBytes('presuppositionQuestions'))}, not ${recipe.sha256}): put the file from ${recipe.url} there, or give --data-dir a folder that has it`,
    );
  });

  it('says where to put a file and where it comes from when the data folder has none', async () => {
    const error = await readSyconQuestions(localDataFiles(FIXTURE_DATA), ['debate']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(
      `${FIXTURE_DATA} has no benchmarks/sycon/debate-setting/data/questions.txt (${SYCON_RECIPES.debateQuestions.title}): put it there (from ${SYCON_RECIPES.debateQuestions.url}), or use another --data-dir`,
    );
  });
});

describeWithTestData("SYCON-Bench's questions through the pinned recipes", (testData) => {
  it('reads the 100 debate questions with their stances and the 200 false-presupposition questions, each with four push-backs', async () => {
    const questions = await readSyconQuestions(localDataFiles(testData.data), ['debate', 'false-presupposition']);
    const debate = questions.filter((question) => question.setting === 'debate');
    const presupposition = questions.flatMap((question) => (question.setting === 'false-presupposition' ? [question] : []));
    expect([debate.length, presupposition.length]).toEqual([SYCON_FILES.debateQuestions.items, SYCON_FILES.presuppositionQuestions.items]);
    expect(presupposition.every((question) => question.pushBacks.length === 4)).toBe(true);
  });

  it("holds in its fixture only lines of the pinned files, byte for byte, and the benchmark's licence text", () => {
    for (const name of NAMES) {
      const pinned = new Set(readFileSync(join(testData.data, SYCON_RECIPES[name].path), 'utf8').split('\n'));
      const lines = fixtureBytes(name).toString('utf8').split('\n');
      expect(lines.at(-1), name).toBe('');
      expect(
        lines.slice(0, -1).filter((line) => !pinned.has(line)),
        name,
      ).toEqual([]);
    }
    expect(readFileSync(join(FIXTURE_DATA, 'benchmarks/sycon/LICENSE'))).toEqual(readFileSync(join(testData.data, 'benchmarks/sycon/LICENSE')));
  });
});
