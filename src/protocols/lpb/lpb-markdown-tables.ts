import { DatasetError } from '../../domain/errors/dataset-error.js';

/** One row of a Markdown table: its cells by column, and its line in the file (1-based). */
export interface MarkdownRow {
  readonly line: number;
  readonly cells: ReadonlyMap<string, string>;
}

/** A `## Title` section's first table: its header and rows; null when the section has no table. */
export interface MarkdownTable {
  readonly headerLine: number;
  readonly header: readonly string[];
  readonly rows: readonly MarkdownRow[];
}

/** A table row's cells: between the outer pipes, split at pipes not escaped (`\|`), trimmed. */
function cellsOf(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

const isTableLine = (line: string) => line.trimStart().startsWith('|');
const isDivider = (cells: readonly string[]) => cells.every((cell) => /^:?-{3,}:?$/.test(cell));

/**
 * The sections of a Markdown report that hold tables, by their `## ` title: each section's first table, read
 * row by row. A row whose cells do not match its header in number is a DatasetError naming the file and line.
 */
export function markdownTables(file: string, text: string, titles: readonly string[]): Map<string, MarkdownTable | null> {
  const wanted = new Set(titles);
  const found = new Map<string, MarkdownTable | null>();
  const lines = text.split(/\r?\n/);
  let section: string | undefined;
  let table: { headerLine: number; header: string[]; rows: MarkdownRow[] } | undefined;
  const close = () => {
    if (section !== undefined && !found.has(section)) found.set(section, table ?? null);
    table = undefined;
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.startsWith('## ')) {
      close();
      const title = line.slice(3).trim();
      section = wanted.has(title) && !found.has(title) ? title : undefined;
      continue;
    }
    if (section === undefined) continue;
    if (!isTableLine(line)) {
      if (table !== undefined) {
        close();
        section = undefined;
      }
      continue;
    }
    const cells = cellsOf(line);
    if (table === undefined) {
      table = { headerLine: index + 1, header: cells, rows: [] };
      continue;
    }
    if (table.rows.length === 0 && isDivider(cells)) continue;
    if (cells.length !== table.header.length)
      throw new DatasetError(
        { file, line: index + 1 },
        `the row has ${cells.length} cells where the table "${section}" (header at line ${table.headerLine}) has ${table.header.length} columns: is the file whole, and is a pipe in a cell escaped as \\|?`,
      );
    table.rows.push({ line: index + 1, cells: new Map(table.header.map((name, at) => [name, cells[at]!])) });
  }
  close();
  return found;
}
