import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';

/**
 * The full published data sets and the real GGUF model are not in the repository (they are large and
 * keep their own licences). Tests that need them find them through this one variable: a folder with
 * `data/` (laid out as pmiyc's data folder: `truthfulqa/TruthfulQA.csv`, `perspectrum/...`,
 * `pmiyc/pre_assesment/results/*.csv`, `anthropic-persuasion/partial-open-paws/...`) and
 * `models/stories260K.gguf`. `.ci/run` sets it to the shared folder beside the clone.
 */
const TEST_DATA_VARIABLE = 'PMIYC_TEST_DATA';

/** Why a test was skipped; the summary line of the test run repeats it. */
const TEST_DATA_SKIP_NOTE = `needs the published data sets and the GGUF model: set ${TEST_DATA_VARIABLE} (see README)`;

/** The small fixtures shipped under test/fixtures (a licence note per file in test/fixtures/README.md). */
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
/** A data folder laid out as `--data-dir` expects, with a few real rows of each source. */
export const FIXTURE_DATA = join(FIXTURES, 'data');

export interface TestData {
  /** The data folder (the layout of `--data-dir`, plus the PMIYC result files). */
  readonly data: string;
  /** The folder holding stories260K.gguf. */
  readonly models: string;
}

function findTestData(): TestData | undefined {
  const root = process.env[TEST_DATA_VARIABLE];
  if (root === undefined || root === '') return undefined;
  const folder = isAbsolute(root) ? root : resolve(root);
  const found = { data: join(folder, 'data'), models: join(folder, 'models') };
  // Set but wrong is a mistake to report, never a reason to skip quietly.
  for (const path of [found.data, found.models]) {
    if (!existsSync(path)) throw new Error(`${TEST_DATA_VARIABLE}=${root}, but ${path} does not exist: point it at a folder with data/ and models/`);
  }
  return found;
}

/** The published data, when `PMIYC_TEST_DATA` is set. */
const testData: TestData | undefined = findTestData();

/** Placeholder paths while collecting skipped tests: nothing reads them, because skipped tests and their hooks do not run. */
const ABSENT: TestData = { data: '/nonexistent/pmiyc-test-data/data', models: '/nonexistent/pmiyc-test-data/models' };

/**
 * A describe block whose tests need the published data: run when `PMIYC_TEST_DATA` is set, otherwise
 * reported as skipped, with the reason in the block's name (`[skipped: ...]`, which the summary line
 * counts). Read files in hooks or tests, never in the body: the body runs to collect skipped tests too.
 */
export function describeWithTestData(name: string, body: (data: TestData) => void): void {
  if (testData) describe(name, () => body(testData));
  else describe.skip(`${name} [skipped: ${TEST_DATA_SKIP_NOTE}]`, () => body(ABSENT));
}
