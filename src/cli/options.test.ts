import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { describeInvalidRunName } from '../domain/validation.js';
import { parseCommaList, parseConcurrency, parseDistinctNames, parseJudges, parseReportFormats, parseRunName, parseRunNames } from './options.js';

function messageOf(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return (error as Error).message;
  }
  throw new Error('expected the parser to refuse the value');
}

const RULE = 'a run name must start with a letter or digit and hold only letters, digits, ".", "_" and "-", at most 64 characters';

describe('describeInvalidRunName and parseRunName', () => {
  it.each(['first', 'demo-1', 'consistency-3', '2025.06.01_gpt4', 'A', '9', 'a..b', 'x'.repeat(64)])('accepts %s', (name) => {
    expect(describeInvalidRunName(name)).toBeUndefined();
    expect(parseRunName('--run')(name)).toBe(name);
  });

  it.each([
    ['', `${RULE}; got ""`],
    ['.', `${RULE}; got "."`],
    ['..', `${RULE}; got ".."`],
    ['a,b', `${RULE}; got "a,b"`],
    ['runs/a', `${RULE}; got "runs/a"`],
    ['../other', `${RULE}; got "../other"`],
    ['my run', `${RULE}; got "my run"`],
    ['a\n', `${RULE}; got "a\\n"`],
    ['line\nbreak', `${RULE}; got "line\\nbreak"`],
    ['-flag', `${RULE}; got "-flag"`],
    ['_hidden', `${RULE}; got "_hidden"`],
    ['café', `${RULE}; got "café"`],
    ['x'.repeat(65), `${RULE}; got 65 characters`],
  ])('refuses %j, saying what is allowed', (name, problem) => {
    expect(describeInvalidRunName(name)).toBe(problem);
    expect(messageOf(() => parseRunName('--study')(name))).toBe(`--study: ${problem}.`);
  });
});

describe('parseConcurrency', () => {
  it.each([
    ['1', 1],
    ['16', 16],
    [' 64 ', 64],
    ['1000', 1000],
  ])('accepts %j', (value, concurrency) => {
    expect(parseConcurrency(value)).toBe(concurrency);
  });

  it.each(['0', '1001', '1000000', '-1', '2.5', '1e3', '', 'many', '0x10'])('refuses %j', (value) => {
    expect(messageOf(() => parseConcurrency(value))).toBe(
      `--concurrency must be a whole number from 1 to 1000 (model calls in flight at once), got "${value}".`,
    );
  });
});

describe('parseCommaList and the list options built on it', () => {
  it.each([
    ['a,b', ['a', 'b']],
    [' a , b ', ['a', 'b']],
    ['a,,b,', ['a', 'b']],
    [',', []],
    ['', []],
    ['sim/eloquent', ['sim/eloquent']],
  ])('reads %j as its trimmed, non-empty items', (value, items) => {
    expect(parseCommaList(value)).toEqual(items);
  });

  it('refuses a model or variant named twice, naming the flag and the name (exit 2 as any usage error)', () => {
    expect(parseDistinctNames('--models')('sim/a, sim/b')).toEqual(['sim/a', 'sim/b']);
    expect(messageOf(() => parseDistinctNames('--models')('sim/a,sim/a'))).toBe('--models names sim/a twice: name each once.');
    expect(messageOf(() => parseDistinctNames('--persuaders')('sim/a, sim/b ,sim/a'))).toBe('--persuaders names sim/a twice: name each once.');
  });

  it('keeps what each list option did before: judges twice refused, runs and formats named twice kept once', () => {
    expect(messageOf(() => parseJudges('sim/a, sim/a'))).toMatch(/^--judge names sim\/a twice/);
    expect(parseRunNames(' a,b,,a ')).toEqual(['a', 'b']);
    expect(parseReportFormats('md, md,csv')).toEqual(['md', 'csv']);
  });
});
