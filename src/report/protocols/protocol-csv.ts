import { camelCaseName } from '../../domain/text-labels.js';
import type { ProtocolTable, ProtocolTableCell } from '../../studies/protocol-outputs.js';
import { type CsvColumn, csvTable } from '../csv/csv-table.js';
import type { ModelLabels } from '../model-labels.js';
import type { ReportProtocolSection } from '../report-document.js';
import { safeFileName } from '../texts/report-written-text.js';

/**
 * One CSV file per table of each protocol section, `<run>.<table id>.csv`: a column per column of the table,
 * named in camelCase from its header; a model column is followed by `<name>Simulated`, and an estimate column
 * spreads into `<name>`, `<name>CiLow`, `<name>CiHigh`, `<name>N` and `<name>Thin` (and `<name>Reason`, why a cell has
 * no value, when one of its cells says). Numbers at full precision.
 */

type Row = readonly ProtocolTableCell[];

const isModel = (cell: ProtocolTableCell | undefined): cell is { readonly model: string } => typeof cell === 'object' && 'model' in cell;
const estimateOf = (cell: ProtocolTableCell | undefined) => (typeof cell === 'object' && 'estimate' in cell ? cell : undefined);

function columnsOf(table: ProtocolTable, labels: ModelLabels): CsvColumn<Row>[] {
  return table.header.flatMap((title, index): CsvColumn<Row>[] => {
    const name = camelCaseName(title);
    if (table.rows.some((row) => isModel(row[index]))) {
      const model = (row: Row) => {
        const cell = row[index];
        return isModel(cell) ? cell.model : undefined;
      };
      return [
        { header: name, value: model },
        { header: `${name}Simulated`, value: (row) => (model(row) === undefined ? undefined : labels.isSimulated(model(row)!)) },
      ];
    }
    if (table.rows.some((row) => estimateOf(row[index]) !== undefined)) {
      return [
        { header: name, value: (row) => estimateOf(row[index])?.estimate },
        { header: `${name}CiLow`, value: (row) => estimateOf(row[index])?.ciLow },
        { header: `${name}CiHigh`, value: (row) => estimateOf(row[index])?.ciHigh },
        { header: `${name}N`, value: (row) => estimateOf(row[index])?.n },
        { header: `${name}Thin`, value: (row) => (estimateOf(row[index]) === undefined ? undefined : (estimateOf(row[index])!.thin ?? false)) },
        // Why a cell has no value, where any of the column's cells says so.
        ...(table.rows.some((row) => estimateOf(row[index])?.reason !== undefined)
          ? [{ header: `${name}Reason`, value: (row: Row) => estimateOf(row[index])?.reason }]
          : []),
      ];
    }
    return [{ header: name, value: (row) => (typeof row[index] === 'object' ? undefined : row[index]) }];
  });
}

/** One table as a CSV file's text, its columns spread as above. */
export const protocolTableCsv = (table: ProtocolTable, labels: ModelLabels): string => csvTable(columnsOf(table, labels), table.rows);

const fileName = (run: string, table: ProtocolTable) => `${safeFileName(run)}.${table.id}.csv`;

/** The CSV files of every section's tables. */
export function protocolCsvFiles(sections: readonly ReportProtocolSection[], labels: ModelLabels): Array<{ readonly path: string; readonly content: string }> {
  return sections.flatMap((section) =>
    section.figures.tables.map((table) => ({ path: fileName(section.run, table), content: protocolTableCsv(table, labels) })),
  );
}
