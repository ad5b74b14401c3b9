import { describe, expect, it } from 'vitest';
import { DatasetError } from '../domain/errors/dataset-error.js';
import { InputError } from '../domain/errors/input-error.js';
import { parseClaimsFile } from './claims-file.js';

/** The DatasetError `parseClaimsFile` throws for `content`. */
function errorOf(fileName: string, content: string): DatasetError {
  try {
    parseClaimsFile(fileName, content);
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetError);
    return error as DatasetError;
  }
  throw new Error('expected an error');
}

describe('parseClaimsFile', () => {
  it('reads JSONL with subjective and misinformation rows, keeping spaces', () => {
    const { claims, warnings } = parseClaimsFile(
      'dir/claims.jsonl',
      '{"claim": " Cats are better than dogs "}\n\n{"claim": "The Moon is made of cheese", "question": "What is the Moon made of?", "id": 7}\n',
    );
    expect(claims).toEqual([
      { index: 0, domain: 'subjective', claim: ' Cats are better than dogs ', origin: 'claims.jsonl', license: 'unknown (user file)' },
      {
        index: 1,
        domain: 'misinformation',
        claim: 'The Moon is made of cheese',
        question: 'What is the Moon made of?',
        id: '7',
        origin: 'claims.jsonl',
        license: 'unknown (user file)',
      },
    ]);
    expect(warnings).toEqual([]);
  });

  it('reads CSV with quoted fields spanning lines', () => {
    const { claims } = parseClaimsFile('c.csv', 'claim,question\n"A claim, with a comma",\n"Two\nlines",Why?\n');
    expect(claims.map((claim) => [claim.domain, claim.claim, claim.question])).toEqual([
      ['subjective', 'A claim, with a comma', undefined],
      ['misinformation', 'Two\nlines', 'Why?'],
    ]);
  });

  it.each([
    ['claims.jsonl', '{"claim": "ok"}\n{"claim": "ok 2"}\n\n{"claim": oops}\n', 'claims.jsonl:4: not valid JSON'],
    ['claims.jsonl', '{"claim": "ok"}\n{"text": "no claim field"}\n', 'claims.jsonl:2: needs a "claim" text field'],
    ['claims.jsonl', '{"claim": "ok"}\n{"claim": "   "}\n', 'claims.jsonl:2: the claim is empty'],
    ['claims.jsonl', '{"claim": 5}\n', 'claims.jsonl:1: needs a "claim" text field'],
    ['claims.csv', 'text,question\nhello,\n', 'claims.csv:1: no "claim" column'],
    ['claims.csv', 'claim\nfine\n""\n', 'claims.csv:3: the claim is empty'],
    ['claims.csv', 'claim,question\n"a\nb",\nunterminated "quote,\n', 'claims.csv:4: not valid CSV'],
    ['claims.txt', 'anything', 'claims.txt: a claims file must end in .csv or .jsonl'],
    ['claims.jsonl', '\n\n', 'claims.jsonl: the file has no claims'],
  ])('%s: rejects bad input with file:line (%#)', (fileName, content, message) => {
    let thrown: unknown;
    try {
      parseClaimsFile(fileName, content);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InputError);
    expect((thrown as Error).message.startsWith(message)).toBe(true);
  });

  it('lists every row that is not a claim with its line, up to 20, and counts the rest', () => {
    const text = [
      '{"claim": "ok"}',
      '{"claim": oops}',
      '{"text": "no claim field"}',
      '{"claim": "fine"}',
      '{"claim": " "}',
      '{"claim": "q", "question": ""}',
    ].join('\n');
    const error = errorOf('claims.jsonl', text);
    expect(error.line).toBe(2);
    expect(error.problems.map((problem) => problem.line)).toEqual([2, 3, 5, 6]);
    expect(error.message.split('\n')).toEqual([
      expect.stringMatching(/^claims\.jsonl:2: not valid JSON \(/),
      'claims.jsonl:3: needs a "claim" text field',
      'claims.jsonl:5: the claim is empty',
      'claims.jsonl:6: the question is empty',
    ]);

    const csv = `claim\n${Array.from({ length: 30 }, (_, index) => (index % 2 === 0 ? `claim ${index}` : '""')).join('\n')}\n`;
    const csvLines = errorOf('claims.csv', csv).message.split('\n');
    expect(csvLines).toHaveLength(15);
    expect(csvLines[0]).toBe('claims.csv:3: the claim is empty');
    expect(csvLines[14]).toBe('claims.csv:31: the claim is empty');

    const many = errorOf('many.jsonl', Array.from({ length: 45 }, () => '{"claim": ""}').join('\n')).message.split('\n');
    expect(many).toHaveLength(20 + 1);
    expect(many[19]).toBe('many.jsonl:20: the claim is empty');
    expect(many.at(-1)).toBe('many.jsonl: and 25 more problems');
  });

  it('merges duplicates into the first, numbers the kept claims without gaps and names both lines', () => {
    const { claims, warnings } = parseClaimsFile(
      'd.jsonl',
      '{"claim": "same", "id": "a"}\n{"claim": "other"}\n\n{"claim": "same", "id": "b"}\n{"claim": "last"}\n{"claim": "same"}\n',
    );
    expect(claims.map((claim) => [claim.index, claim.claim, claim.id])).toEqual([
      [0, 'same', 'a'],
      [1, 'other', undefined],
      [2, 'last', undefined],
    ]);
    expect(warnings).toEqual(['d.jsonl:4: the same claim as line 1: kept once', 'd.jsonl:6: the same claim as line 1: kept once']);
  });

  it('counts a claim as a duplicate only with the same question, and names CSV lines after multi-line fields', () => {
    const { claims, warnings } = parseClaimsFile('d.csv', 'claim,question\n"Two\nlines",\nYes,Is it?\nYes,Is it really?\nYes,Is it?\n"Two\nlines",\n');
    expect(claims.map((claim) => [claim.index, claim.claim, claim.question])).toEqual([
      [0, 'Two\nlines', undefined],
      [1, 'Yes', 'Is it?'],
      [2, 'Yes', 'Is it really?'],
    ]);
    expect(warnings).toEqual(['d.csv:6: the same claim as line 4: kept once', 'd.csv:7: the same claim as line 2: kept once']);
  });

  it.each([
    ['claims.jsonl', '\uFEFF{"claim": "with a mark"}\n'],
    ['claims.csv', '\uFEFFclaim\nwith a mark\n'],
  ])('%s: ignores a leading byte order mark', (fileName, content) => {
    expect(parseClaimsFile(fileName, content).claims.map((claim) => claim.claim)).toEqual(['with a mark']);
  });
});
