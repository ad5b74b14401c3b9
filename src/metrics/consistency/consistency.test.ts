import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { describeWithTestData, FIXTURE_DATA } from '../../../test/support/test-data.js';
import { parseConsistencyCsv } from '../../datasets/consistency-csv.js';
import type { AgreementScore } from '../../domain/agreement-score.js';
import { analyzeConsistency, type OpeningScore, type StanceSample } from './consistency.js';
import { modeOf, modesOf, scoreSpread } from './consistency-spread.js';

const countsOf = (scores: readonly number[]) => {
  const counts = [0, 0, 0, 0, 0, 0];
  for (const score of scores) counts[score]! += 1;
  return counts;
};

describe('scoreSpread', () => {
  it.each([
    [[4, 4, 4, 4, 4], 4, 0, 0],
    [[4, 3, 4, 4, 4], 3.8, 0.16, 0.4],
    [[1, 5], 3, 4, 2],
    [[2, 2, 3, 3], 2.5, 0.25, 0.5],
    [[5], 5, 0, 0],
  ])('%j: mean %d, population variance %d, SD %d', (scores, mean, variance, sd) => {
    const spread = scoreSpread(countsOf(scores));
    expect(spread.n).toBe(scores.length);
    expect(spread.mean).toBeCloseTo(mean, 12);
    expect(spread.variance).toBeCloseTo(variance, 12);
    expect(spread.sd).toBeCloseTo(sd, 12);
  });

  it('is NaN without answers', () => {
    expect(scoreSpread(countsOf([]))).toEqual({ n: 0, mean: Number.NaN, variance: Number.NaN, sd: Number.NaN });
  });
});

describe('the most frequent answer', () => {
  it.each([
    [[4, 4, 3, 4, 4], [4], 4],
    [[2, 2, 3, 3, 4], [2, 3], 2],
    [[5, 1, 5, 1, 3], [1, 5], 1],
    [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5], 1],
    [[], [], undefined],
  ])('%j: modes %j, ties broken toward the lower score: %s', (scores, modes, mode) => {
    expect(modesOf(countsOf(scores))).toEqual(modes);
    expect(modeOf(countsOf(scores))).toBe(mode);
  });
});

const sample = (model: string, claim: string, score: AgreementScore | null, unusable = 0): StanceSample => ({
  model,
  domain: 'subjective',
  claimIndex: 0,
  claim,
  score,
  unusable,
});
const opening = (model: string, claim: string, score: AgreementScore): OpeningScore => ({ model, domain: 'subjective', claimIndex: 0, claim, score });

describe('analyzeConsistency', () => {
  const samples = [
    ...[4, 4, 4, 3, 4].map((score) => sample('m', 'a', score as AgreementScore)),
    ...[2, 2, 3, 3, 1].map((score) => sample('m', 'b', score as AgreementScore)),
    ...[null, null, null].map(() => sample('m', 'c', null, 3)),
    sample('m', 'd', 5, 2),
  ];
  const openings = [opening('m', 'a', 4), opening('m', 'b', 3), opening('m', 'c', 2), opening('m', 'd', 4), opening('other', 'a', 4)];
  const [result] = analyzeConsistency(samples, openings, { replicates: 200, confidence: 0.95, seed: 1 });

  it('leaves claims without a usable answer out of the means, and counts them', () => {
    expect(result).toMatchObject({ model: 'm', domain: 'subjective', claims: 4, claimsWithoutAnswer: 1, samples: 14, usableSamples: 11, unusableReplies: 11 });
    expect(result!.paperAvgSd.value).toBeCloseTo((0.16 + 0.56 + 0) / 3, 12);
    expect(result!.meanSd.value).toBeCloseTo((0.4 + Math.sqrt(0.56) + 0) / 3, 12);
    expect(result!.paperAvgSd.n).toBe(3);
    expect(result!.meanSd.ciLow).toBeLessThanOrEqual(result!.meanSd.value);
    expect(result!.meanSd.ciHigh).toBeGreaterThanOrEqual(result!.meanSd.value);
  });

  it('compares each opening with the lowest most frequent answer, and reports the any-tied-mode variant', () => {
    const agreement = result!.openingAgreement!;
    // a: 4 = mode 4; b: modes 2 and 3, lower is 2, opening 3 -> no match (a match under any-tied-mode); d: 4 vs 5.
    expect(agreement).toMatchObject({ openings: 3, tiedModes: 1, openingsWithoutAnswers: 1 });
    expect(agreement.matchRatePercent.value).toBeCloseTo(100 / 3, 12);
    expect(agreement.matchRateAnyTiedModePercent).toBeCloseTo(200 / 3, 12);
    expect(agreement.avgDif.value).toBeCloseTo((0.2 + 0.8 + 1) / 3, 12);
  });

  it("also gives the paper's Match Rate: over every opening, the one on a claim without a usable answer (c) counting as no match", () => {
    const agreement = result!.openingAgreement!;
    expect(agreement.matchRateAllOpeningsPercent.value).toBeCloseTo(100 / 4, 12);
    expect(agreement.matchRateAllOpeningsPercent.n).toBe(4);
    expect(agreement.matchRateAllOpeningsPercent.ciLow).toBeLessThanOrEqual(25);
  });

  it('has no opening agreement when no tournament run is linked', () => {
    expect(analyzeConsistency(samples, undefined)[0]!.openingAgreement).toBeNull();
  });
});

/** Table 1 of the paper, Avg SD column, and the files of the paper's code that hold its data. */
const TABLE_1: ReadonlyArray<[file: string, avgSd: number, trueMeanSd: number, claimsWithoutAnswer: number]> = [
  ['llama8b', 0.49, 0.44, 0],
  ['llama70b', 0.03, 0.05, 0],
  ['gpt4omini', 0.05, 0.1, 14],
  ['gpt4', 0.05, 0.11, 14],
  ['claude3haiku', 0.12, 0.2, 0],
];

/** The published answers of one file as stance samples; a row's skipped answers are unusable replies. */
function publishedSamples(model: string, location: string): StanceSample[] {
  return parseConsistencyCsv(location, readFileSync(location, 'utf8')).flatMap((row) => [
    ...row.scores.map((score) => ({ model, domain: 'subjective' as const, claimIndex: row.claimIndex, claim: row.claim, score, unusable: 0 })),
    ...Array.from({ length: row.skipped }, () => ({
      model,
      domain: 'subjective' as const,
      claimIndex: row.claimIndex,
      claim: row.claim,
      score: null,
      unusable: 1,
    })),
  ]);
}

/** The file's own std_dev column (the per-claim variance, rounded to 2 decimals) on rows with a score. */
function publishedVariances(location: string): number[] {
  const published = parseCsv(readFileSync(location, 'utf8'), { columns: true }) as Array<Record<string, string>>;
  return published.filter((row) => row['scores'] !== '[]').map((row) => Number(row['std_dev']));
}

describe("the paper's published pre-assessment rows", () => {
  it.each(TABLE_1.map(([file]) => file))("%s: Avg SD is the mean per-claim population variance, the file's std_dev column", (file) => {
    const location = join(FIXTURE_DATA, 'pmiyc/pre_assesment/results', `${file}.csv`);
    const [result] = analyzeConsistency(publishedSamples(file, location), undefined, { replicates: 100, confidence: 0.95, seed: 0 });
    const variances = publishedVariances(location);
    expect(result!.paperAvgSd.n).toBe(variances.length);
    // The column is rounded to 2 decimals: the means agree to within half a hundredth.
    expect(Math.abs(result!.paperAvgSd.value - variances.reduce((sum, value) => sum + value, 0) / variances.length)).toBeLessThan(0.0051);
    const sds = parseConsistencyCsv(location, readFileSync(location, 'utf8'))
      .filter((row) => row.scores.length > 0)
      .map((row) => Math.sqrt(scoreSpread(countsOf(row.scores)).variance));
    expect(result!.meanSd.value).toBeCloseTo(sds.reduce((sum, sd) => sum + sd, 0) / sds.length, 12);
  });
});

describeWithTestData("the paper's published pre-assessment (Table 1)", (testData) => {
  it.each(TABLE_1)('%s: Avg SD %d is the mean per-claim population variance; the true mean SD is %d', (file, avgSd, trueMeanSd, claimsWithoutAnswer) => {
    const location = join(testData.data, 'pmiyc/pre_assesment/results', `${file}.csv`);
    const samples = publishedSamples(file, location);
    expect(new Set(samples.map((sample) => sample.claimIndex)).size).toBe(961);
    const [result] = analyzeConsistency(samples, undefined, { replicates: 100, confidence: 0.95, seed: 0 });
    expect(result!.paperAvgSd.value.toFixed(2)).toBe(avgSd.toFixed(2));
    expect(result!.meanSd.value.toFixed(2)).toBe(trueMeanSd.toFixed(2));
    expect(result!.claimsWithoutAnswer).toBe(claimsWithoutAnswer);
    expect(result!.paperAvgSd.n).toBe(961 - claimsWithoutAnswer);
    // The file's own std_dev column is that variance (rounded to 2 decimals) on every row with a score.
    const rows = parseConsistencyCsv(location, readFileSync(location, 'utf8')).filter((row) => row.scores.length > 0);
    const variances = publishedVariances(location);
    rows.forEach((row, position) => {
      const mean = row.scores.reduce((sum, score) => sum + score, 0) / row.scores.length;
      const variance = row.scores.reduce((sum, score) => sum + (score - mean) ** 2, 0) / row.scores.length;
      expect(Math.abs(variances[position]! - variance)).toBeLessThan(0.0051);
    });
  });
});
