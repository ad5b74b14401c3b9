/**
 * The formats commands write, kept in one light module so that the program can declare every
 * command's `--format` at start without loading the code that writes them.
 */

/** The files `pmiyc report` can write: HTML, Markdown with SVG charts, JSON, and CSV tables. */
export type ReportFormat = 'html' | 'md' | 'json' | 'csv';

export const REPORT_FORMATS: readonly ReportFormat[] = ['html', 'md', 'json', 'csv'];

/** `pmiyc export`: a run's conversations as JSON lines or CSV rows, or its turns as CSV rows (`turns-csv`). */
export type ExportFormat = 'jsonl' | 'csv' | 'turns-csv';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['jsonl', 'csv', 'turns-csv'];

/** `pmiyc claims`: a claim set's items as JSON lines or a table. */
export type ClaimsFormat = 'jsonl' | 'table';
export const CLAIMS_FORMATS: readonly ClaimsFormat[] = ['jsonl', 'table'];
