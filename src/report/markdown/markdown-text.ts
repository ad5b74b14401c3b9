import { shownText } from '../../domain/printable-text.js';
import { formatCount } from '../../domain/text-labels.js';
import { noDataText } from '../../metrics/role-coverage.js';
import type { ModelLabels } from '../model-labels.js';
import { formatNumber } from '../number-format.js';
import type { ReportTable, TableCell } from '../tables/report-tables.js';

/**
 * A `<` or `>` with white space (or the text's end) after it and white space (or the text's start) before it is a
 * comparison sign ("p < 0.001", "> 100,000"): no renderer reads markup or an autolink from it, so it is shown as
 * written. Any other is an entity. A `>` that opens a line is escaped with the other line markers.
 */
function angleBracket(sign: string, offset: number, text: string): string {
  const before = offset === 0 ? ' ' : text[offset - 1]!;
  const after = text[offset + 1] ?? ' ';
  if (/\s/.test(before) && /\s/.test(after)) return sign;
  return sign === '<' ? '&lt;' : '&gt;';
}

/**
 * Escapes text for Markdown: HTML-significant characters become entities (renderers pass raw HTML
 * through, so a model's `<script>` must not reach them as markup), but for a comparison sign between
 * spaces, and Markdown punctuation is backslash-escaped so that model text cannot create links, images,
 * emphasis or table cells.
 * Terminal escape sequences and control characters are removed: report.md is read in terminals too.
 * Bidirectional controls are shown as their code points (`shownText`).
 */
export function escapeMarkdown(text: string): string {
  return shownText(text)
    .replace(/[\\`*_[\]|~]/g, (character) => `\\${character}`)
    .replace(/&/g, '&amp;')
    .replace(/[<>]/g, angleBracket)
    .replace(/^(\s*)([#+=>-]|\d+\.)/gm, (_match, space: string, marker: string) =>
      // A list number is escaped at its period ("1\."): a backslash before a digit is no escape and would show.
      /^\d/.test(marker) ? `${space}${marker.slice(0, -1)}\\.` : `${space}\\${marker}`,
    );
}

/** One line of a table cell: newlines become spaces. */
export function escapeCell(text: string): string {
  return escapeMarkdown(text.replace(/\s*\n\s*/g, ' '));
}

/**
 * "0.42 [0.31, 0.55] (n = 36)", "0.42 ~[0.31, 0.55] (n = 6)" when the interval is thin, or "n/a (n = 0)".
 * What n counts is said by the table's header, or by `nCounts` ("(n = 36 conversations)").
 */
export function estimateText(estimate: number, ciLow: number, ciHigh: number, n: number, thin = false, nCounts = ''): string {
  const count = `(n = ${n}${nCounts ? ` ${nCounts}` : ''})`;
  if (!Number.isFinite(estimate)) return `n/a ${count}`;
  const mark = thin ? '~' : '';
  const interval = Number.isFinite(ciLow) ? ` ${mark}[${formatNumber(ciLow)}, ${formatNumber(ciHigh)}]` : mark;
  return `${formatNumber(estimate)}${interval} ${count}`;
}

function cellText(cell: TableCell, labels: ModelLabels): string {
  if (typeof cell === 'string') return escapeCell(cell);
  if (typeof cell === 'number') return formatCount(cell);
  if ('model' in cell) return escapeCell(labels.text(cell.model));
  if (cell.reason !== undefined) return `${escapeCell(noDataText(cell.reason))} (n = ${cell.n})`;
  return estimateText(cell.estimate, cell.ciLow, cell.ciHigh, cell.n, cell.thin);
}

const isNumeric = (cell: TableCell | undefined) => typeof cell === 'number' || (typeof cell === 'object' && 'estimate' in cell);

/** A GitHub-flavoured Markdown table; numeric columns right-aligned. */
export function markdownTable(table: ReportTable, labels: ModelLabels): string {
  if (table.rows.length === 0) return '_No data._';
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(table.header.map((title) => escapeCell(typeof title === 'string' ? title : labels.text(title.model)))),
    line(table.header.map((_, column) => (table.rows.every((row) => isNumeric(row[column])) ? '---:' : '---'))),
    ...table.rows.map((row) => line(row.map((cell) => cellText(cell, labels)))),
  ].join('\n');
}

/** A block quote of model text, every line escaped. */
export function quote(text: string): string {
  return escapeMarkdown(text)
    .split('\n')
    .map((line) => `> ${line}`.trimEnd())
    .join('\n');
}
