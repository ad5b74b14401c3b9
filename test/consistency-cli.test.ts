import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeStudy } from '../src/report/studies/consistency-study-source.js';
import { ResultStore } from '../src/store/result-store.js';
import { runCli } from './cli-helpers.js';
import { describeWithTestData, FIXTURE_DATA } from './support/test-data.js';

/** Rows of the paper's published pre-assessment files (the whole files with PMIYC_TEST_DATA). */
const PUBLISHED_ROWS = join(FIXTURE_DATA, 'pmiyc/pre_assesment/results');

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-consistency-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let counter = 0;
const freshStore = () => join(folder, `store-${++counter}.db`);

interface SampleRow {
  model: string;
  domain: string;
  claim_index: number;
  sample_index: number;
  score: number | null;
  attempts: number;
  unusable: number;
  raw: string;
}

function readStore(path: string, study: string) {
  const database = new Database(path, { readonly: true });
  try {
    const runId = database.prepare('SELECT id FROM runs WHERE name = ?').pluck().get(study) as number;
    const samples = database
      .prepare('SELECT model, domain, claim_index, sample_index, score, attempts, unusable, raw FROM consistency_samples WHERE run_id = ? ORDER BY 1, 2, 3, 4')
      .all(runId) as SampleRow[];
    const calls = database.prepare('SELECT count(*) FROM calls WHERE run_id = ?').pluck().get(runId) as number;
    return { samples, calls };
  } finally {
    database.close();
  }
}

/** The population variance of each claim's usable answers by one model, from the stored samples. */
function claimVariances(samples: readonly SampleRow[], model: string): number[] {
  const byClaim = new Map<string, number[]>();
  for (const sample of samples.filter((entry) => entry.model === model && entry.score !== null)) {
    const key = `${sample.domain}/${sample.claim_index}`;
    byClaim.set(key, [...(byClaim.get(key) ?? []), sample.score!]);
  }
  return [...byClaim.values()].map((scores) => {
    const mean = scores.reduce((sum, score) => sum + score, 0) / scores.length;
    return scores.reduce((sum, score) => sum + (score - mean) ** 2, 0) / scores.length;
  });
}

const meanOf = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
/** The paper's "Avg SD": the mean over claims of the variance. */
const meanVariance = (samples: readonly SampleRow[], model: string) => meanOf(claimVariances(samples, model));
/** The true mean SD: the mean over claims of the SD. */
const meanSd = (samples: readonly SampleRow[], model: string) => meanOf(claimVariances(samples, model).map(Math.sqrt));

function studyOf(path: string, name: string) {
  const store = ResultStore.openExisting(path);
  try {
    return analyzeStudy(store, store.findRun(name), { replicates: 100 });
  } finally {
    store.close();
  }
}

describe('pmiyc consistency with simulated agents', () => {
  const store = () => join(folder, 'sim.db');
  const args = ['consistency', '--models', 'sim/stubborn,sim/open-minded', '--claims', 'examples', '--answers', '5'];

  it('asks every model N times per claim, stores every answer, and prints Table 1 labelled simulated', async () => {
    const result = await runCli([...args, '--store', store(), '--study', 'first']);
    expect(result.stderr).not.toContain('unexpected');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('sim/stubborn [simulated]');
    expect(result.stdout).toContain('Avg SD (paper) = mean variance');
    expect(result.stdout).toContain(
      '180 answers this session, 0 already stored; calls made: 180 this session, 180 in the whole run, costing $0.0000 and $0.0000; this session also reused 0 answers within the run (shared or resumed), replayed 0 from earlier runs',
    );
    const { samples, calls } = readStore(store(), 'first');
    expect(samples).toHaveLength(2 * 18 * 5);
    expect(calls).toBe(180);
    expect(samples.every((sample) => sample.score !== null && sample.attempts === 1 && sample.unusable === 0)).toBe(true);
    // Planted: the susceptible agent's answers vary more than the stubborn one's.
    expect(meanVariance(samples, 'sim/open-minded')).toBeGreaterThan(meanVariance(samples, 'sim/stubborn') + 0.15);
  });

  it('resumes a finished study without a single call', async () => {
    const before = readStore(store(), 'first');
    const result = await runCli(['consistency', '--store', store(), '--study', 'first', '--resume']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '0 answers this session, 180 already stored; calls made: 0 this session, 180 in the whole run, costing $0.0000 and $0.0000; this session also reused 0 answers within the run (shared or resumed), replayed 0 from earlier runs',
    );
    expect(readStore(store(), 'first')).toEqual(before);
  });

  it('resumes answers that were not stored from the stored calls: no new model call, the same answers', async () => {
    const before = readStore(store(), 'first');
    const database = new Database(store());
    database.prepare("DELETE FROM consistency_samples WHERE model = 'sim/open-minded' AND claim_index < 4").run();
    database.close();
    const result = await runCli(['consistency', '--store', store(), '--resume']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '20 answers this session, 160 already stored; calls made: 0 this session, 180 in the whole run, costing $0.0000 and $0.0000; this session also reused 20 answers within the run (shared or resumed), replayed 0 from earlier runs',
    );
    expect(readStore(store(), 'first')).toEqual(before);
  });

  it('re-asks unusable replies, records them, and compares with a tournament run', async () => {
    const path = freshStore();
    const tournament = await runCli([
      'run',
      '--models',
      'sim/stubborn,sim/weak',
      '--claims',
      'examples',
      '--setting',
      'single',
      '--store',
      path,
      '--run',
      'tour',
    ]);
    expect(tournament.code).toBe(0);
    const result = await runCli([
      'consistency',
      '--models',
      'sim/stubborn,sim/x?malformed=0.4',
      '--max-attempts',
      '2',
      '--run',
      'tour',
      '--store',
      path,
      '--study',
      'checked',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Match Rate %');
    const { samples, calls } = readStore(path, 'checked');
    const flawed = samples.filter((sample) => sample.model === 'sim/x?malformed=0.4');
    expect(flawed.some((sample) => sample.attempts === 2 && sample.unusable === 1 && sample.score !== null)).toBe(true);
    expect(flawed.some((sample) => sample.score === null && sample.unusable === 2)).toBe(true);
    expect(calls).toBe(samples.reduce((sum, sample) => sum + sample.attempts, 0));
    const study = studyOf(path, 'checked');
    const stubborn = study.models.filter((row) => row.model === 'sim/stubborn');
    expect(stubborn.map((row) => [row.domain, row.openingAgreement?.openings])).toEqual([
      ['subjective', 12],
      ['misinformation', 6],
    ]);
    expect(study.models.find((row) => row.model === 'sim/x?malformed=0.4')!.openingAgreement!.openings).toBe(0);
    expect(study.notes.join('\n')).toContain('sim/x?malformed=0.4 (subjective): no opening in run tour');
  });
});

describe('pmiyc consistency --import', () => {
  it("reads the paper's published answers and shows the paper's Avg SD beside the true mean SD", async () => {
    const path = freshStore();
    const result = await runCli(['consistency', '--import', join(PUBLISHED_ROWS, 'llama8b.csv'), '--store', path]);
    expect(result.code).toBe(0);
    const llama = readStore(path, 'consistency-1').samples;
    expect(llama).toHaveLength(62 * 5);
    const [sd, variance] = [meanSd(llama, 'llama8b'), meanVariance(llama, 'llama8b')].map((value) => value.toFixed(2));
    expect(result.stdout).toMatch(new RegExp(`llama8b\\s+62\\s+${sd} \\[[\\d.]+, [\\d.]+\\]\\s+${variance} \\[`));
    expect(sd).not.toBe(variance);

    const gpt4 = await runCli([
      'consistency',
      '--import',
      join(PUBLISHED_ROWS, 'gpt4.csv'),
      '--model',
      'openai/gpt-4o',
      '--study',
      'paper-gpt4',
      '--store',
      path,
    ]);
    expect(gpt4.code).toBe(0);
    const samples = readStore(path, 'paper-gpt4').samples;
    expect(samples).toHaveLength(62 * 5);
    expect(samples.filter((sample) => sample.score === null)).toHaveLength(5);
    const gpt4Sd = meanSd(samples, 'openai/gpt-4o').toFixed(2);
    expect(gpt4.stdout).toMatch(
      new RegExp(`openai/gpt-4o\\s+61 \\(\\+1 unanswered\\)\\s+${gpt4Sd} \\[[\\d.]+, [\\d.]+\\]\\s+${meanVariance(samples, 'openai/gpt-4o').toFixed(2)} \\[`),
    );
    expect(gpt4.stdout).toContain('1 of 62 claims have no usable answer and are left out of every mean');
  });

  it.each([
    [['--import', 'missing.csv'], 'no file at missing.csv'],
    [['--import', 'x.csv', '--models', 'sim/a'], 'give either --models'],
    [['--models', 'sim/a', '--run', 'nope'], 'no store at'],
    [['--resume'], 'no store at'],
    [['--models', 'sim/a', '--answers', '0'], '--answers must be a whole number of at least 1'],
    [['--claims', 'examples'], 'name the models to ask'],
  ])('refuses %j with exit code 2, says what to do, and leaves no store behind', async (extra, message) => {
    const path = freshStore();
    const result = await runCli(['consistency', '--store', path, ...extra]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(existsSync(path)).toBe(false);
  });

  it.each([
    [['--models', 'sim/a', '--run', 'nope'], 'has no run'],
    [['--resume'], 'no consistency study to resume'],
  ])('refuses %j in a store without it, with exit code 2', async (extra, message) => {
    const path = freshStore();
    ResultStore.open(path).close();
    const result = await runCli(['consistency', '--store', path, ...extra]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});

describeWithTestData("pmiyc consistency --import of the paper's whole files (Table 1)", (testData) => {
  it('shows Avg SD 0.49 beside the true mean SD 0.44 for llama8b, and 947 of 961 claims answered for gpt4', async () => {
    const published = join(testData.data, 'pmiyc/pre_assesment/results');
    const path = freshStore();
    const result = await runCli(['consistency', '--import', join(published, 'llama8b.csv'), '--store', path]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/llama8b\s+961\s+0\.44 \[[\d.]+, [\d.]+\]\s+0\.49 \[/);
    const gpt4 = await runCli(['consistency', '--import', join(published, 'gpt4.csv'), '--model', 'openai/gpt-4o', '--study', 'paper-gpt4', '--store', path]);
    expect(gpt4.code).toBe(0);
    expect(gpt4.stdout).toMatch(/openai\/gpt-4o\s+947 \(\+14 unanswered\)\s+0\.11 \[[\d.]+, [\d.]+\]\s+0\.05 \[/);
    expect(readStore(path, 'paper-gpt4').samples).toHaveLength(961 * 5);
  });
});

describe('the report of a run with a consistency study', () => {
  it('shows the study in report.json, HTML and Markdown, for the tournament run and for the study itself', async () => {
    const path = freshStore();
    expect(
      (await runCli(['run', '--models', 'sim/stubborn,sim/open-minded', '--claims', 'examples', '--setting', 'single', '--store', path, '--run', 'tour'])).code,
    ).toBe(0);
    expect((await runCli(['consistency', '--models', 'sim/stubborn,sim/open-minded', '--run', 'tour', '--store', path, '--study', 'opinions'])).code).toBe(0);
    for (const run of ['tour', 'opinions']) {
      const out = join(folder, `report-${run}`);
      const result = await runCli(['report', '--store', path, '--run', run, '--out', out, '--format', 'html,md,json', '--replicates', '100']);
      expect(result.code).toBe(0);
      const document = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
        studies: {
          consistency: Array<{ study: string; models: Array<{ model: string; paperAvgSd: { value: number }; openingAgreement: { openings: number } }> }>;
        };
      };
      expect(document.studies.consistency.map((entry) => entry.study)).toEqual(['opinions']);
      const stubborn = document.studies.consistency[0]!.models.find((row) => row.model === 'sim/stubborn')!;
      expect(stubborn.openingAgreement.openings).toBe(12);
      expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('<section class="block" id="consistency">');
      expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('## Do models hold consistent opinions? (paper Table 1)');
    }
  });
});
