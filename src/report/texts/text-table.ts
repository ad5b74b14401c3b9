/**
 * A plain-text table. By default the first column is left-aligned and the others, which hold
 * numbers, right-aligned; `align: 'left'` left-aligns every column (for tables of words).
 */
export function formatTextTable(header: readonly string[], rows: readonly (readonly string[])[], options: { align?: 'numbers' | 'left' } = {}): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const leftAligned = (column: number) => column === 0 || options.align === 'left';
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (leftAligned(column) ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}
