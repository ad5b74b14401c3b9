import { type CsvColumn, csvTable } from '../csv/csv-table.js';
import { sectionHtml, tableHtml } from '../html/html-blocks.js';
import { html, type SafeHtml } from '../html/safe-html.js';
import { escapeMarkdown, markdownTable } from '../markdown/markdown-text.js';
import type { ModelLabels } from '../model-labels.js';
import type { AcrossProtocols } from './across-protocols-shape.js';
import { ACROSS_INTRO, ACROSS_TITLE, acrossCorrelationsTable, acrossFiguresTable, acrossNotes, correlationsText } from './across-protocols-tables.js';
import { protocolTableCsv } from './protocol-csv.js';

/** The table across protocols in the HTML and Markdown reports and as CSV files (docs/design/protocols.md, "One table across protocols"). */

/** Its anchor and the contents' entry. */
const ACROSS_ANCHOR = 'across-protocols';

export function acrossTocEntries(across: AcrossProtocols | undefined): Array<readonly [string, string]> {
  return across ? [[ACROSS_ANCHOR, ACROSS_TITLE]] : [];
}

/** The section: the table of figures, its notes, then the rank correlations. */
export function acrossProtocolsHtml(across: AcrossProtocols | undefined, labels: ModelLabels): SafeHtml {
  if (across === undefined) return html``;
  return sectionHtml(ACROSS_ANCHOR, ACROSS_TITLE, '', ACROSS_INTRO, [
    html`<div id="across-protocols-figures">${tableHtml(acrossFiguresTable(across), labels)}</div>`,
    ...acrossNotes(across).map((note) => html`<p class="intro">${note}</p>`),
    html`<h3>Rank correlation across models</h3><p class="intro">${correlationsText(across)}</p>`,
    html`<div id="across-protocols-correlations">${tableHtml(acrossCorrelationsTable(across), labels)}</div>`,
  ]);
}

/** The same in report.md; '' without a table. */
export function acrossProtocolsMarkdown(across: AcrossProtocols | undefined, labels: ModelLabels): string {
  if (across === undefined) return '';
  return [
    `## ${ACROSS_TITLE}`,
    escapeMarkdown(ACROSS_INTRO),
    markdownTable(acrossFiguresTable(across), labels),
    ...acrossNotes(across).map(escapeMarkdown),
    '### Rank correlation across models',
    escapeMarkdown(correlationsText(across)),
    markdownTable(acrossCorrelationsTable(across), labels),
  ].join('\n\n');
}

type Correlation = AcrossProtocols['correlations'][number];

const CORRELATION_COLUMNS: ReadonlyArray<CsvColumn<Correlation>> = [
  { header: 'first', value: (entry) => entry.first },
  { header: 'second', value: (entry) => entry.second },
  { header: 'models', value: (entry) => entry.models },
  { header: 'rho', value: (entry) => entry.rho },
  { header: 'ciLow', value: (entry) => entry.ciLow },
  { header: 'ciHigh', value: (entry) => entry.ciHigh },
];

/**
 * `across-protocols.csv` (a row per model: `model`, `modelSimulated`, then per column its id in camelCase spread into
 * the figure, `...CiLow`, `...CiHigh`, `...N` and `...Thin`, empty where the model took part in no run of it) and
 * `across-protocols-correlations.csv` (`first`, `second`, `models`, `rho`, `ciLow`, `ciHigh`).
 */
export function acrossProtocolsCsvFiles(across: AcrossProtocols | undefined, labels: ModelLabels): Array<{ readonly path: string; readonly content: string }> {
  if (across === undefined) return [];
  const figures = { ...acrossFiguresTable(across), header: ['model', ...across.columns.map((column) => column.id)] };
  return [
    { path: 'across-protocols.csv', content: protocolTableCsv(figures, labels) },
    { path: 'across-protocols-correlations.csv', content: csvTable(CORRELATION_COLUMNS, across.correlations) },
  ];
}
