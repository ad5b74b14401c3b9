import { labelModel } from '../../domain/text-labels.js';
import type { ProtocolFigures, ProtocolTableCell } from '../../studies/protocol-outputs.js';
import { estimateText } from '../markdown/markdown-text.js';
import { formatTextTable } from './text-table.js';

/** A protocol table's cell as a terminal shows it: an estimate with its interval and n, or why it has none. */
function cellText(cell: ProtocolTableCell): string {
  if (typeof cell === 'string') return cell;
  if (typeof cell === 'number') return String(cell);
  if ('model' in cell) return labelModel(cell.model);
  if (cell.reason !== undefined) return `n/a: ${cell.reason} (n = ${cell.n})`;
  return estimateText(cell.estimate, cell.ciLow, cell.ciHigh, cell.n, cell.thin);
}

/** A protocol's figures (a report section, or a part of one) as lines of text: its paragraphs, then each table with its title and note. */
export function protocolFiguresText(figures: ProtocolFigures): string[] {
  return [
    ...figures.paragraphs,
    ...figures.tables.flatMap((table) => [
      '',
      table.title,
      ...(table.note === undefined ? [] : [table.note]),
      formatTextTable(
        table.header.map((title) => title),
        table.rows.map((row) => row.map(cellText)),
      ),
    ]),
  ];
}
