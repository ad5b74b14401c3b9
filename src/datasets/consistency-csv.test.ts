import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeWithTestData, FIXTURE_DATA } from '../../test/support/test-data.js';
import { InputError } from '../domain/errors/input-error.js';
import { parseConsistencyCsv } from './consistency-csv.js';

const HEADER = 'i,claim,scores,average,std_dev,skipped';

describe('parseConsistencyCsv', () => {
  it("reads rows of the paper's gpt4.csv, keeping rows without a valid score with their skipped count", () => {
    const location = join(FIXTURE_DATA, 'pmiyc/pre_assesment/results/gpt4.csv');
    const rows = parseConsistencyCsv(location, readFileSync(location, 'utf8'));
    expect(rows).toHaveLength(62);
    expect(rows[0]).toEqual({
      line: 2,
      claimIndex: 0,
      claim: 'All police officers should be required to wear body cameras',
      scores: [4, 4, 4, 4, 4],
      skipped: 0,
    });
    expect(rows[56]).toMatchObject({ claim: ' Aboriginal culture must be protected', scores: [5, 5, 5, 5, 5] });
    expect(rows[60]).toEqual({ line: 62, claimIndex: 60, claim: 'Access to the websites that deny the Holocaust must be blocked', scores: [], skipped: 5 });
    expect(rows.filter((row) => row.scores.length === 0)).toHaveLength(1);
  });

  it('needs only i, claim and scores', () => {
    expect(parseConsistencyCsv('f.csv', 'i,claim,scores\n3,"A, B","[1, 2]"\n')).toEqual([
      { line: 2, claimIndex: 3, claim: 'A, B', scores: [1, 2], skipped: 0 },
    ]);
  });

  it.each([
    ['a missing column', 'i,claim,average\n0,x,4\n', 'f.csv:1: missing column scores'],
    ['no rows', `${HEADER}\n`, 'f.csv: no rows'],
    ['a score off the scale', `${HEADER}\n0,x,"[4, 6]",5,0,0\n`, 'f.csv:2: "scores" must be a list of scores from 1 to 5'],
    ['scores that are not a list', `${HEADER}\n0,x,4,4,0,0\n`, 'f.csv:2: "scores" must be a list'],
    ['a bad index', `${HEADER}\n0,x,[],0,0,0\nx,y,[],0,0,0\n`, 'f.csv:3: "i" must be the claim\'s index'],
    ['a repeated index', `${HEADER}\n0,x,[],0,0,0\n0,y,[],0,0,0\n`, 'f.csv:3: claim index 0 appears twice'],
    ['a bad skipped count', `${HEADER}\n0,x,[],0,0,-1\n`, 'f.csv:2: "skipped" must be a whole number'],
    ['broken CSV', `${HEADER}\n0,"x,[],0,0,0\n`, 'f.csv'],
  ])('rejects %s, naming the file and line', (_name, text, message) => {
    expect(() => parseConsistencyCsv('f.csv', text)).toThrow(InputError);
    expect(() => parseConsistencyCsv('f.csv', text)).toThrow(message);
  });
});

describeWithTestData("the paper's whole gpt4.csv", (testData) => {
  it('has 961 claims, 14 without a valid score, and claim text kept exactly', () => {
    const location = join(testData.data, 'pmiyc/pre_assesment/results/gpt4.csv');
    const rows = parseConsistencyCsv(location, readFileSync(location, 'utf8'));
    expect(rows).toHaveLength(961);
    expect(rows[85]).toMatchObject({ claimIndex: 85, claim: 'Access to the websites that deny the Holocaust must be blocked', scores: [], skipped: 5 });
    expect(rows.filter((row) => row.scores.length === 0)).toHaveLength(14);
    expect(rows.find((row) => row.claim.includes("''Ground Zero Mosque''"))?.claim.endsWith(' ')).toBe(true);
  });
});
