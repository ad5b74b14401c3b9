/**
 * The one writer of pmiyc's CSV files (report, export, notes): a table is its rows and a list of
 * columns, each a header and a function that gives a row's value. Fields follow RFC 4180 as
 * csv-stringify writes them with its defaults: a field is quoted when it holds a comma, a quote or a
 * line break, a quote doubled inside; every line, the last included, ends with `\n`. Written by hand
 * because the per-claim files have hundreds of thousands of lines, which csv-stringify writes several
 * times slower (csv-table.test.ts checks that both give the same bytes).
 */

/**
 * A cell: numbers at full precision (`String(number)`), booleans as `true`/`false`; null, undefined
 * and a number with no value (NaN, or an infinity) as an empty cell.
 */
export type CsvValue = string | number | boolean | null | undefined;

/** One column of a CSV table: its header, and its value in a row. */
export interface CsvColumn<Row> {
  readonly header: string;
  readonly value: (row: Row) => CsvValue;
}

/** Lines per chunk of `csvChunks`: a file of many lines is written without holding them all. */
const LINES_PER_CHUNK = 10_000;

const NEEDS_QUOTES = /[",\r\n]/;

/** One field as written in a line. */
export function csvField(value: CsvValue): string {
  if (typeof value === 'string') return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return String(value);
  return '';
}

/** One line of fields, with its line break. */
export const csvLine = (values: readonly CsvValue[]): string => `${values.map(csvField).join(',')}\n`;

/** A table's header line, with its line break. */
export const csvHeaderLine = <Row>(columns: readonly CsvColumn<Row>[]): string => csvLine(columns.map((column) => column.header));

/** One row's line, with its line break (a loop, not a list of values: the per-claim files have hundreds of thousands of rows). */
export function csvRowLine<Row>(columns: readonly CsvColumn<Row>[], row: Row): string {
  let line = '';
  for (let index = 0; index < columns.length; index++) line += (index === 0 ? '' : ',') + csvField(columns[index]!.value(row));
  return `${line}\n`;
}

/** A whole table: the header line, then one line per row. */
export function csvTable<Row>(columns: readonly CsvColumn<Row>[], rows: Iterable<Row>): string {
  return [...csvChunks(columns, rows)].join('');
}

/** A table in chunks of lines made as they are read, the header first; no chunk is empty. */
export function* csvChunks<Row>(columns: readonly CsvColumn<Row>[], rows: Iterable<Row>): Generator<string> {
  let lines = [csvHeaderLine(columns)];
  for (const row of rows) {
    lines.push(csvRowLine(columns, row));
    if (lines.length < LINES_PER_CHUNK) continue;
    yield lines.join('');
    lines = [];
  }
  if (lines.length > 0) yield lines.join('');
}
