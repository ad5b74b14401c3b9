import { el } from '../../browser/dom.js';
import type { AcrossAnswer, AcrossCell } from '../../wire/across-answers.js';
import { link, numberCell, table, td } from './view-parts.js';
import { api, crumbs, isCurrent, show } from './view-shell.js';
import { count, intervalText, modelText, number } from './view-text.js';

/** A figure as the report writes it: "0.42 [0.31, 0.55] n = 36", "n/a" or the reason it has none; a dash where the model took no part. */
function cellText(cell: AcrossCell | null): string {
  if (cell === null) return '–';
  const n = `n = ${count(cell.n)}`;
  if (cell.estimate === null) return `${cell.reason === null ? 'n/a' : `no data (${cell.reason})`} ${n}`;
  return `${number(cell.estimate)} ${intervalText(cell) === '-' ? '' : `${intervalText(cell)} `}${n}`;
}

function correlationText(entry: AcrossAnswer['correlations'][number], minimum: number): string {
  if (entry.rho !== null) return `${number(entry.rho)} ${intervalText(entry)} n = ${count(entry.models)}`;
  return entry.models < minimum ? `too few models (${entry.models}; ${minimum} needed)` : 'no spread';
}

/**
 * One table across the protocols of the runs named (`#/across?runs=a,b,c`): a row per model, each protocol's
 * headline figures with their intervals and n, and the rank correlations, as `pmiyc report --run a,b,c` gives them.
 */
export async function acrossPage(current: number, query: URLSearchParams): Promise<void> {
  const data = await api<AcrossAnswer>(`across?${new URLSearchParams({ runs: query.get('runs') ?? '' })}`);
  if (!isCurrent(current)) return;
  crumbs(link([], null, 'runs'), el('span', {}, `one table across ${data.runs.join(', ')}`));
  const rows = data.rows.map((row) =>
    el(
      'tr',
      {},
      td(modelText(row.model, row.simulated)),
      row.cells.map((cell) => numberCell(cellText(cell))),
    ),
  );
  const correlations = data.correlations.map((entry) =>
    el('tr', {}, td(entry.first), td(entry.second), numberCell(correlationText(entry, data.minimumModels))),
  );
  show(
    el('h2', {}, 'One table across protocols'),
    el('p', { className: 'note' }, data.intro),
    el('div', { id: 'across-figures' }, table(['model', ...data.columns.map((column) => `${column.title} (n = ${column.unit})`)], rows)),
    el(
      'div',
      { id: 'across-notes' },
      data.notes.map((note) => el('p', { className: 'note' }, note)),
    ),
    el('h3', {}, 'Rank correlation across models'),
    el('p', { className: 'note' }, data.correlationsText),
    el('div', { id: 'across-correlations' }, table(['figure', 'against', "Spearman's rho (n = models)"], correlations)),
  );
}
