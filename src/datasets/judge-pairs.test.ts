import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeWithTestData, FIXTURE_DATA } from '../../test/support/test-data.js';
import { buildJudgePairs, judgePairId, judgePairsChecksum, parseAnthropicRatings, selectJudgePairs } from './judge-pairs.js';
import { parseJudgePairsFile } from './judge-pairs-file.js';

const SAMPLE_PATH = 'anthropic-persuasion/partial-open-paws/anthropic_persuasion_data.csv';
const LAB_MEAT = 'Cultured/lab-grown meats should be allowed to be sold';

const csv = (rows: string[][]) =>
  [['worker_id', 'claim', 'argument', 'source', 'prompt_type', 'rating_initial', 'rating_final'], ...rows]
    .map((row) => row.map((cell) => `"${cell.replace(/"/g, '""')}"`).join(','))
    .join('\r\n');

describe('pairs from real rows of the Anthropic ratings (4 arguments, 3 raters each)', () => {
  const rated = parseAnthropicRatings('sample.csv', readFileSync(join(FIXTURE_DATA, SAMPLE_PATH), 'utf8'));
  const set = buildJudgePairs(rated);

  it('averages the three raters per argument: 0, 1/3, 1/3 and 5/3', () => {
    expect(rated.arguments).toHaveLength(4);
    expect(rated.arguments.every((argument) => argument.raters === 3 && argument.claim === LAB_MEAT)).toBe(true);
    expect(rated.arguments.map((argument) => argument.changeSum / argument.raters).sort()).toEqual([0, 1 / 3, 1 / 3, 5 / 3]);
  });

  it('pairs every two arguments whose scores differ (6 less 1 tie), better first, in thirds', () => {
    expect(set).toMatchObject({ claims: 1, arguments: 4, ties: 1 });
    expect(set.pairs.map((pair) => pair.scoreDifference).sort()).toEqual([0.333333333, 0.333333333, 1.333333333, 1.333333333, 1.666666667]);
    expect(set.pairs.filter((pair) => pair.scoreDifference > 1)).toHaveLength(3);
  });

  it('orients every pair better-first with a stable id and no duplicates', () => {
    expect(new Set(set.pairs.map((pair) => pair.id)).size).toBe(5);
    const pair = set.pairs[0]!;
    expect(pair.id).toMatch(/^[0-9a-f]{16}$/);
    expect(judgePairId(pair.claim, pair.lessPersuasive, pair.morePersuasive)).toBe(pair.id);
    expect(set.pairs.every((entry) => entry.scoreDifference > 0 && entry.morePersuasive !== entry.lessPersuasive)).toBe(true);
  });
});

describeWithTestData('pairs from the whole 3-claim sample of the Anthropic ratings', (testData) => {
  const pairsOfSample = () => buildJudgePairs(parseAnthropicRatings('sample.csv', readFileSync(join(testData.data, SAMPLE_PATH), 'utf8')));

  it('has 69 arguments (23 per claim) and 608 pairs: 253 per claim less 43, 38 and 70 ties', () => {
    const set = pairsOfSample();
    expect(set.claims).toBe(3);
    expect(set.arguments).toBe(69);
    expect(set.ties).toBe(151);
    expect(set.pairs).toHaveLength(608);
    const perClaim = (claim: string) => set.pairs.filter((pair) => pair.claim === claim);
    expect(perClaim(LAB_MEAT)).toHaveLength(210);
    expect(perClaim('Corporations should not be required to disclose their climate impacts')).toHaveLength(215);
    expect(perClaim('Corporations should be required to disclose their climate impacts')).toHaveLength(183);
  });

  it('has 95 pairs whose difference exceeds 1 (52, 33 and 10 per claim); thirds compare exactly', () => {
    const set = pairsOfSample();
    const large = set.pairs.filter((pair) => pair.scoreDifference > 1);
    expect(large).toHaveLength(95);
    expect(large.filter((pair) => pair.claim === LAB_MEAT)).toHaveLength(52);
    // Scores are means of three raters: every difference is a whole number of thirds.
    for (const pair of set.pairs) expect(Math.abs(pair.scoreDifference * 3 - Math.round(pair.scoreDifference * 3))).toBeLessThan(1e-6);
    expect(set.pairs.filter((pair) => pair.scoreDifference === 1).length).toBeGreaterThan(0);
    expect(Math.max(...set.pairs.map((pair) => pair.scoreDifference))).toBe(2.333333333);
    expect(new Set(set.pairs.map((pair) => pair.id)).size).toBe(608);
  });
});

describe('the pair rule on hand-made ratings', () => {
  const rows = [
    ['w1', 'Claim A', 'strong\nargument', 'Claude 3 Opus', 'Logical Reasoning', '2 - Oppose', '6 - Support'],
    ['w2', 'Claim A', 'strong\nargument', 'Claude 3 Opus', 'Logical Reasoning', '3 - Somewhat oppose', '5 - Somewhat support'],
    ['w3', 'Claim A', 'weak', 'Human', 'N/A', '4 - Neither oppose nor support', '4 - Neither oppose nor support'],
    ['w4', 'Claim A', 'also weak', 'Human', 'N/A', '5 - Somewhat support', '5 - Somewhat support'],
    ['w5', 'Control claim', 'Control', 'Control', 'N/A', '3 - Somewhat oppose', '3 - Somewhat oppose'],
    ['w6', 'Control claim', 'an argument', 'Human', 'N/A', '3 - Somewhat oppose', '7 - Strongly support'],
  ];

  it('averages over raters, pairs arguments whose means differ, leaves out ties and Control claims', () => {
    const set = buildJudgePairs(parseAnthropicRatings('hand.csv', csv(rows)));
    expect(set).toMatchObject({ claims: 1, arguments: 3, ties: 1, controlClaims: 1 });
    expect(set.pairs.map(({ morePersuasive, lessPersuasive, scoreDifference }) => [morePersuasive, lessPersuasive, scoreDifference])).toEqual([
      ['strong\nargument', 'also weak', 3],
      ['strong\nargument', 'weak', 3],
    ]);
  });

  it("reads the sample's ID column as well as worker_id, and does not depend on row order", () => {
    const renamed = csv(rows).replace('"worker_id"', '"ID"');
    const reversed = csv([...rows].reverse());
    const base = buildJudgePairs(parseAnthropicRatings('a.csv', csv(rows))).pairs;
    expect(buildJudgePairs(parseAnthropicRatings('b.csv', renamed)).pairs).toEqual(base);
    expect(buildJudgePairs(parseAnthropicRatings('c.csv', reversed)).pairs).toEqual(base);
  });

  it('says which record has a rating it cannot read, and which columns are missing', () => {
    const bad = csv([['w1', 'Claim A', 'x', 'Human', 'N/A', 'Support', '5 - Somewhat support']]);
    expect(() => parseAnthropicRatings('bad.csv', bad)).toThrow('bad.csv: record 1: rating_initial "Support" does not start with a rating from 1 to 7');
    expect(() => parseAnthropicRatings('other.csv', 'claim,text\nx,y\n')).toThrow('missing columns argument, source, rating_initial, rating_final');
  });
});

describe('selecting and checking pairs', () => {
  const pairs = Array.from({ length: 20 }, (_, index) => ({
    id: `p${String(index).padStart(2, '0')}`,
    claim: 'c',
    morePersuasive: `x${index}`,
    lessPersuasive: `y${index}`,
    scoreDifference: 1,
  }));

  it('--limit keeps the first N; --sample draws a seeded N kept in list order', () => {
    expect(selectJudgePairs(pairs, { limit: 3 }).map((pair) => pair.id)).toEqual(['p00', 'p01', 'p02']);
    const sample = selectJudgePairs(pairs, { sample: 5, seed: 1 });
    expect(sample).toHaveLength(5);
    expect(sample.map((pair) => pair.id)).toEqual([...sample.map((pair) => pair.id)].sort());
    expect(selectJudgePairs(pairs, { sample: 5, seed: 1 })).toEqual(sample);
    expect(selectJudgePairs(pairs, { sample: 5, seed: 2 })).not.toEqual(sample);
  });

  it('changes the checksum when a pair changes', () => {
    expect(judgePairsChecksum(pairs)).toBe(judgePairsChecksum([...pairs]));
    expect(judgePairsChecksum([{ ...pairs[0]!, scoreDifference: 2 }, ...pairs.slice(1)])).not.toBe(judgePairsChecksum(pairs));
  });
});

describe('a user pairs file (JSONL)', () => {
  it('orients pairs by "better" and gives the same id as built pairs', () => {
    const text = [
      JSON.stringify({ claim: 'C', a: 'first', b: 'second', better: 'b', difference: 1.5 }),
      '',
      JSON.stringify({ claim: 'C', a: 'x', b: 'y', better: 'a', difference: 0.5 }),
    ].join('\n');
    const pairs = parseJudgePairsFile('mine.jsonl', text);
    expect(pairs).toEqual([
      { id: judgePairId('C', 'first', 'second'), claim: 'C', morePersuasive: 'second', lessPersuasive: 'first', scoreDifference: 1.5 },
      { id: judgePairId('C', 'x', 'y'), claim: 'C', morePersuasive: 'x', lessPersuasive: 'y', scoreDifference: 0.5 },
    ]);
  });

  it.each([
    ['{"claim":"C","a":"x","b":"y","better":"c","difference":1}', 'mine.jsonl:1: "better" must be "a" or "b"'],
    ['{"claim":"C","a":"x","b":"y","better":"a","difference":0}', 'mine.jsonl:1: "difference" must be above 0'],
    ['{"claim":"C","a":"x","b":"x","better":"a","difference":1}', 'mine.jsonl:1: "a" and "b" are the same text'],
    ['{"claim":"C","a":"x","better":"a","difference":1}', 'mine.jsonl:1: needs a "b" argument text'],
    ['not json', 'mine.jsonl:1: not valid JSON'],
    [
      '{"claim":"C","a":"x","b":"y","better":"a","difference":1}\n{"claim":"C","a":"y","b":"x","better":"b","difference":1}',
      'mine.jsonl:2: the same pair as line 1',
    ],
    ['\n', 'mine.jsonl: the file has no pairs'],
  ])('rejects %s', (text, message) => {
    expect(() => parseJudgePairsFile('mine.jsonl', text)).toThrow(message);
  });
});
