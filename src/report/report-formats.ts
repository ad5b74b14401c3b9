/** The files `pmiyc report` can write: HTML, Markdown with SVG charts, JSON, and CSV tables. */
export type ReportFormat = 'html' | 'md' | 'json' | 'csv';

export const REPORT_FORMATS: readonly ReportFormat[] = ['html', 'md', 'json', 'csv'];
