import { type Child, el, inputValue } from '../../browser/dom.js';
import { CONVERSATION_PAGE_SIZE } from '../../wire/conversation-filters.js';
import type { ProtocolItemRow, ProtocolItemsAnswer, ProtocolParticipant, ProtocolTableShown } from '../../wire/protocol-items.js';
import type { RunAnswer } from '../../wire/view-answers.js';
import { bundleInfo } from './bundle-source.js';
import { badge, link, numberCell, route, table, td } from './view-parts.js';
import { api, isCurrent, selectable, show } from './view-shell.js';
import { count, intervalText, isSimulated, modelText, number } from './view-text.js';

/*
 * The run page of a run of a protocol beside PMIYC's (docs/design/protocols.md, "Viewer"): its items as the
 * server lists them, each a row of labelled cells, filtered by any column that has few values. The page knows
 * no protocol: the columns, their names and their values are the answer's.
 */

type Filters = Record<string, string>;

/** The participants every item shares, said once: role and model, simulated ones labelled. */
function sharedParticipants(participants: readonly ProtocolParticipant[]): Child {
  if (participants.length === 0) return '';
  return el(
    'dl',
    { className: 'facts', id: 'shared-participants' },
    participants.map((entry) => [el('dt', {}, entry.role), el('dd', {}, modelText(entry.model, entry.simulated))]),
  );
}

/** The records the protocol could not read, each with its words why; the table shows the others. */
function unreadableNote(answer: ProtocolItemsAnswer): Child {
  if (answer.unreadable.length === 0) return '';
  return el(
    'div',
    { className: 'note', id: 'unreadable-items' },
    `${count(answer.unreadable.length)} stored ${answer.unreadable.length === 1 ? 'item' : 'items'} of this run cannot be read, and ${answer.unreadable.length === 1 ? 'is' : 'are'} left out of the list:`,
    el(
      'ul',
      {},
      answer.unreadable.map((entry) => el('li', {}, badge('damaged', 'failed'), ' ', entry.itemKey, ': ', entry.problem)),
    ),
  );
}

/** A select for each column with more than one value; each change opens the list again from its first item. */
function filterForm(run: string, answer: ProtocolItemsAnswer, go: (changes: Filters) => void): Child {
  const offered = answer.columns.filter((column) => column.choices !== null && column.choices.length > 1);
  if (offered.length === 0) return '';
  const text = (from: string, value: string) => (from === 'participant' ? modelText(value, answer.simulated.includes(value)) : value);
  return el(
    'form',
    { className: 'filters', id: 'item-filters', onSubmit: (event) => event.preventDefault() },
    offered.map((column) =>
      el(
        'label',
        {},
        column.name,
        el(
          'select',
          { name: column.name, onChange: (event) => go({ [column.name]: inputValue(event), offset: '' }) },
          el('option', { value: '' }, 'any'),
          (column.choices ?? []).map((value) => el('option', { value, selected: answer.filters[column.name] === value }, text(column.from, value))),
        ),
      ),
    ),
    el('a', { href: route(['runs', run], null) }, 'clear filters'),
  );
}

/** One item: its key (opening its page), its title and a cell per column, a participant's model labelled simulated where it is. */
function itemRow(run: string, answer: ProtocolItemsAnswer, row: ProtocolItemRow): HTMLElement {
  return el(
    'tr',
    { 'data-item': row.itemKey },
    td(link(['runs', run, 'items', row.itemKey], null, row.itemKey)),
    td(row.title),
    answer.columns.map((column, at) => {
      const cell = row.cells[at] ?? '-';
      return el('td', { 'data-column': column.name }, column.from === 'participant' ? modelText(cell, answer.simulated.includes(cell)) : cell);
    }),
  );
}

/** The previous and next pages of the list, and where this one is. */
function pager(answer: ProtocolItemsAnswer, go: (changes: Filters) => void): HTMLElement {
  const { offset, total } = answer;
  const to = Math.min(total, offset + answer.rows.length);
  return el(
    'div',
    { className: 'pager' },
    el(
      'button',
      { type: 'button', id: 'previous-page', disabled: offset === 0, onClick: () => go({ offset: String(Math.max(0, offset - CONVERSATION_PAGE_SIZE)) }) },
      'previous',
    ),
    el(
      'span',
      { id: 'page-position' },
      `${count(answer.rows.length === 0 ? 0 : offset + 1)}-${count(to)} of ${count(total)} (the run holds ${count(answer.all)})`,
    ),
    el('button', { type: 'button', id: 'next-page', disabled: to >= total, onClick: () => go({ offset: String(offset + CONVERSATION_PAGE_SIZE) }) }, 'next'),
  );
}

type ShownCell = ProtocolTableShown['rows'][number][number];

/** A cell of a run table: a model labelled simulated where it is, an estimate as "0.42 [0.31, 0.55] n = 36", or why it has none. */
function shownCell(cell: ShownCell, simulated: readonly string[]): HTMLElement {
  if (typeof cell === 'string') return td(cell);
  if (typeof cell === 'number') return numberCell(count(cell));
  if ('model' in cell) return td(modelText(cell.model, simulated.includes(cell.model)));
  if (cell.reason !== undefined || cell.estimate === null) return numberCell(`no data${cell.reason ? ` (${cell.reason})` : ''} n = ${count(cell.n)}`);
  return numberCell(`${number(cell.estimate)} ${intervalText(cell)} n = ${count(cell.n)}`);
}

/** The protocol's tables of the whole run (the LLM Persuasion Benchmark's pairwise matrix), each under its title and note. */
function runTables(answer: ProtocolItemsAnswer): Child[] {
  return answer.tables.map((shown) =>
    el(
      'section',
      { className: 'run-table', 'data-table': shown.id },
      el('h3', {}, shown.title),
      shown.note === undefined ? '' : el('p', { className: 'note' }, shown.note),
      table(
        shown.header,
        shown.rows.map((row) =>
          el(
            'tr',
            {},
            row.map((cell) => shownCell(cell, answer.simulated)),
          ),
        ),
      ),
    ),
  );
}

/** Where the run's figures are: the bundle's report where the page is in a bundle, else the command that writes it. */
function reportNote(run: string): HTMLElement {
  const report = bundleInfo()?.report;
  return el(
    'p',
    { className: 'note' },
    report
      ? el('a', { href: report, className: 'report-link' }, 'The report of this run (its rates with their intervals, the comparisons, the method).')
      : `The figures of this run (rates, intervals, comparisons) are in pmiyc report --run ${run}.`,
  );
}

/** A protocol run's page: its facts, the participants its items share, and its items filtered and paged as the address says. */
export async function protocolRunPage(current: number, data: RunAnswer, facts: HTMLElement, query: URLSearchParams): Promise<void> {
  const run = data.run.name;
  const answer = await api<ProtocolItemsAnswer>(`runs/${encodeURIComponent(run)}/items?${query}`);
  if (!isCurrent(current)) return;
  const go = (changes: Filters) => {
    location.hash = route(['runs', run], { ...answer.filters, offset: String(answer.offset), ...changes });
  };
  const simulated = answer.simulated.length > 0 || data.run.models.some(isSimulated);
  const rows = answer.rows.map((row) => itemRow(run, answer, row));
  show(
    el('h2', {}, run, ' ', simulated ? badge('simulated agents', 'simulated') : ''),
    facts,
    ...runTables(answer),
    el('h2', {}, `Items of the ${answer.protocol} protocol`),
    sharedParticipants(answer.participants),
    unreadableNote(answer),
    filterForm(run, answer, go),
    pager(answer, go),
    rows.length === 0
      ? el('p', {}, answer.all === 0 ? 'This run has stored no item yet.' : 'No item matches these filters.')
      : table(['item', 'title', ...answer.columns.map((column) => column.name)], rows),
    reportNote(run),
  );
  selectable(rows);
}
