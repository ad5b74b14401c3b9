import type { ResearchNote } from '../../studies/notes/research-notes.js';
import type { ExportFormat } from '../report-formats.js';
import { csvLine } from './csv-table.js';

/** The columns of `pmiyc export --notes --format csv`, in the order of the JSON lines' fields. */
const NOTE_COLUMNS = ['run', 'conversationId', 'turn', 'tag', 'grade', 'note', 'createdAt', 'updatedAt', 'id'] as const;

/** The CSV header line of `pmiyc export --notes --format csv`. */
export const noteCsvHeader = (): string => csvLine(NOTE_COLUMNS);

/**
 * One research note as an export line: a JSON object with the fields in the CSV's order (turn null
 * for a note on the whole conversation, tag and grade null when absent), or its CSV row.
 */
export function noteLine(note: ResearchNote, format: ExportFormat): string {
  const values = NOTE_COLUMNS.map((column) => note[column]);
  return format === 'jsonl' ? `${JSON.stringify(Object.fromEntries(NOTE_COLUMNS.map((column, index) => [column, values[index]])))}\n` : csvLine(values);
}
