import type { ProtocolCsv } from '../../studies/protocol-outputs.js';
import { csvLine } from './csv-table.js';

/** A protocol's CSV file as written (`pmiyc export --format csv --out DIR`): the header line, then a line per row, as every pmiyc CSV. */
export function protocolCsvText(csv: ProtocolCsv): string {
  return csvLine(csv.header) + csv.rows.map(csvLine).join('');
}
