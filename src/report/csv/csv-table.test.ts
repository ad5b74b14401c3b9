import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { type CsvColumn, type CsvValue, csvChunks, csvField, csvTable } from './csv-table.js';

/** Values a CSV file of pmiyc meets: names with commas, quotes and line breaks, no data, booleans, numbers at full precision. */
const HOSTILE: readonly CsvValue[] = [
  'plain',
  '',
  'a, b',
  'say "yes"',
  '"',
  'line\nbreak',
  'carriage\rreturn',
  'both\r\n',
  ' leading space',
  '=1+1',
  '-3',
  'café ☕',
  0,
  -0,
  -1,
  1 / 3,
  1e21,
  5e-324,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  true,
  false,
  null,
  undefined,
];

describe('csvField', () => {
  it.each([
    ['plain', 'plain'],
    ['a, b', '"a, b"'],
    ['say "yes"', '"say ""yes"""'],
    ['line\nbreak', '"line\nbreak"'],
    ['carriage\rreturn', '"carriage\rreturn"'],
    [1 / 3, '0.3333333333333333'],
    [-0, '0'],
    [Number.NaN, ''],
    [Number.POSITIVE_INFINITY, ''],
    [true, 'true'],
    [false, 'false'],
    [null, ''],
    [undefined, ''],
  ] as const)('writes %j as %j', (value, field) => {
    expect(csvField(value)).toBe(field);
  });
});

describe('csvTable', () => {
  const columns: CsvColumn<number>[] = [
    { header: 'index', value: (index) => index },
    { header: 'value, hostile', value: (index) => HOSTILE[index] },
  ];

  it('writes the bytes csv-stringify writes with its defaults, no data empty and booleans as true/false', () => {
    const rows = HOSTILE.map((_, index) => index);
    const cleaned = rows.map((index) => {
      const value = HOSTILE[index];
      return [index, typeof value === 'number' && !Number.isFinite(value) ? '' : (value ?? '')];
    });
    const expected = stringify([['index', 'value, hostile'], ...cleaned], { cast: { boolean: (value) => String(value) } });
    expect(csvTable(columns, rows)).toBe(expected);
  });

  it('writes the header alone for no rows', () => {
    expect(csvTable(columns, [])).toBe('index,"value, hostile"\n');
  });

  it('gives a long table in chunks of 10,000 lines, none empty, that join to the whole table', () => {
    const plain: CsvColumn<number>[] = [{ header: 'index', value: (index) => index }];
    const rows = Array.from({ length: 19_999 }, (_, index) => index);
    const chunks = [...csvChunks(plain, rows)];
    expect(chunks.map((chunk) => chunk.split('\n').length - 1)).toEqual([10_000, 10_000]);
    expect(chunks.join('')).toBe(csvTable(plain, rows));
    expect([...csvChunks(plain, rows.slice(1))].map((chunk) => chunk.split('\n').length - 1)).toEqual([10_000, 9_999]);
  });
});
