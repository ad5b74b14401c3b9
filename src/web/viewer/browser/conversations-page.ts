import type { ConversationPage, ConversationSort } from '../../../studies/tournament/tournament-browse.js';
import { type Child, el, inputValue } from '../../browser/dom.js';
import { CONVERSATION_PAGE_SIZE, LABEL_FILTERS, NOTE_FILTERS, RECORD_FILTERS } from '../../wire/conversation-filters.js';
import type { NotesAnswer, RunAnswer } from '../../wire/view-answers.js';
import { bundleInfo } from './bundle-source.js';
import { noteFilterChoices } from './notes-page.js';
import { noteMarks, notesPath } from './notes-panel.js';
import { importedMarks } from './view-imported.js';
import { labelFilterChoices } from './view-labels.js';
import { badge, link, numberCell, paint, route, table, td } from './view-parts.js';
import { hitRow, SEARCH_FIELDS, unindexedNote } from './view-search.js';
import { api, crumbs, isCurrent, refreshWhileLive, selectable, show, showError } from './view-shell.js';
import { count, modelText, number } from './view-text.js';

const PAGE_SIZE = CONVERSATION_PAGE_SIZE;
/** The list's parameters as its address carries them, in the order its description names them. */
const FILTERS = [...RECORD_FILTERS, 'sort', ...NOTE_FILTERS, ...LABEL_FILTERS];
const SORTS: ReadonlyArray<readonly [ConversationSort, string]> = [
  ['pair', 'by pair'],
  ['claim', 'by claim'],
  ['nc', 'NC, lowest first'],
  ['-nc', 'NC, highest first'],
];

type Filters = Record<string, string>;

/** The filter form: each change opens the list again from its first page. */
function filterForm(name: string, runData: RunAnswer, notes: NotesAnswer, filters: Filters, go: (changes: Filters) => void): HTMLElement {
  const choice = (filter: string, label: string, options: ReadonlyArray<readonly [string, string]>) =>
    el(
      'label',
      {},
      label,
      el(
        'select',
        { name: filter, onChange: (event) => go({ [filter]: inputValue(event), offset: '' }) },
        el('option', { value: '' }, 'any'),
        options.map(([value, text]) => el('option', { value, selected: filters[filter] === String(value) }, text)),
      ),
    );
  const field = (filter: string, label: string, type: string, extra: Readonly<Record<string, string | number>>) =>
    el(
      'label',
      {},
      label,
      el('input', { name: filter, type, value: filters[filter], ...extra, onChange: (event) => go({ [filter]: inputValue(event), offset: '' }) }),
    );
  const settings = [...new Set(runData.conditions.map((condition) => condition.setting))];
  const domains = [...new Set(runData.conditions.map((condition) => condition.domain))];
  const models = runData.models.map((model) => [model, modelText(model)] as const);
  return el(
    'form',
    { className: 'filters', onSubmit: (event) => event.preventDefault() },
    choice('persuader', 'persuader', models),
    choice('persuadee', 'persuadee', models),
    choice(
      'setting',
      'setting',
      settings.map((setting) => [setting, `${setting}-turn`]),
    ),
    choice(
      'domain',
      'domain',
      domains.map((domain) => [domain, domain]),
    ),
    choice('status', 'status', [
      ['completed', 'completed'],
      ['failed', 'failed'],
    ]),
    choice(
      'failureReason',
      'failure reason',
      runData.failureReasons.map((reason) => [reason, reason]),
    ),
    choice('earlyStopped', 'early stop', [
      ['true', 'stopped early'],
      ['false', 'not early'],
    ]),
    field('ncMin', 'NC from', 'number', { min: -1, max: 1, step: 0.05 }),
    field('ncMax', 'NC to', 'number', { min: -1, max: 1, step: 0.05 }),
    field('claim', 'claim #', 'number', { min: 0, step: 1 }),
    field('q', 'search', 'search', { id: 'search', placeholder: 'words, "a phrase", prefix*' }),
    choice('field', 'in', SEARCH_FIELDS),
    labelFilterChoices(runData.analysis, filters, choice, go),
    noteFilterChoices(notes.tags, filters, go, true),
    el(
      'label',
      {},
      'sort',
      el(
        'select',
        { name: 'sort', onChange: (event) => go({ sort: inputValue(event), offset: '' }) },
        SORTS.map(([value, text]) => el('option', { value, selected: (filters['sort'] || 'pair') === value }, text)),
      ),
    ),
    el('a', { href: route(['runs', name, 'conversations'], null) }, 'clear filters'),
  );
}

/** The filters of a list in words: "persuader sim/a, domain subjective". */
function describeList(filters: Filters): string {
  const given = Object.entries(filters).filter(([name, value]) => value !== '' && name !== 'sort' && name !== 'analysis');
  return given.length === 0 ? 'Every conversation of the run' : `Conversations with ${given.map(([name, value]) => `${name} ${value}`).join(', ')}`;
}

function conversationRow(name: string, item: ConversationPage['items'][number], analysis: string, notes: NotesAnswer): HTMLElement {
  const own = notes.notes.filter((note) => note.conversationId === item.conversationId);
  const status: Child = item.status === 'failed' ? badge(`failed: ${item.failureReason}`, 'failed') : 'completed';
  return el(
    'tr',
    {},
    td(link(['conversations', item.conversationId], { run: name, analysis }, item.conversationId)),
    td(`${modelText(item.persuader, item.simulated.persuader)} -> ${modelText(item.persuadee, item.simulated.persuadee)}`),
    td(`${item.domain}, ${item.setting}`),
    td(item.claim),
    td(status),
    numberCell(`${number(item.initialScore, 0)} -> ${number(item.finalScore, 0)}`),
    paint(numberCell(number(item.normalizedChange)), item.normalizedChange),
    td([item.earlyStopped ? 'early stop' : '', importedMarks(item)]),
    td(own.length === 0 ? '' : el('span', { className: 'tags notes-mark' }, `${own.length} ${own.length === 1 ? 'note' : 'notes'}`, own.map(noteMarks))),
  );
}

/** The conversations of the page whose records cannot be read (a damaged store), each with what the store says: the rows shown are the others. */
const damagedNote = (damaged: ConversationPage['damaged']): Child =>
  damaged && damaged.length > 0
    ? el(
        'div',
        { className: 'note', id: 'damaged-conversations' },
        `${count(damaged.length)} ${damaged.length === 1 ? 'conversation' : 'conversations'} of this page cannot be read, and ${damaged.length === 1 ? 'is' : 'are'} left out of the table:`,
        el(
          'ul',
          {},
          damaged.map((entry) => el('li', {}, badge('damaged', 'failed'), ' ', entry.conversationId, ': ', entry.problem)),
        ),
      )
    : '';

/** A run's conversations: filtered, sorted and paged as the address says. */
export async function conversationsPage(current: number, name: string, query: URLSearchParams): Promise<void> {
  const offset = Number(query.get('offset') || 0);
  const apiQuery = new URLSearchParams(query);
  apiQuery.set('limit', String(PAGE_SIZE));
  const study = query.get('analysis') || '';
  const [runData, page] = await Promise.all([
    api<RunAnswer>(`runs/${encodeURIComponent(name)}${study ? `?analysis=${encodeURIComponent(study)}` : ''}`),
    api<ConversationPage>(`runs/${encodeURIComponent(name)}/conversations?${apiQuery}`),
  ]);
  if (!isCurrent(current)) return;
  const ids = new URLSearchParams(page.items.map((item) => ['conversation', item.conversationId]));
  const notes = await api<NotesAnswer>(notesPath(name, ids.size > 0 ? ids : new URLSearchParams({ conversation: '' })));
  if (!isCurrent(current)) return;
  crumbs(link([], null, 'runs'), link(['runs', name], null, name), el('span', {}, 'conversations'));
  const filters: Filters = Object.fromEntries(FILTERS.map((filter) => [filter, query.get(filter) || '']));
  const go = (changes: Filters) => {
    location.hash = route(['runs', name, 'conversations'], { ...filters, ...changes });
  };
  const bodyRows = page.items.map((item) => conversationRow(name, item, study, notes));
  // With a search, each conversation's row is followed by where the words are (the j/k rows stay the conversations).
  const shownRows = page.hits ? bodyRows.flatMap((row, at) => [row, hitRow(page.hits![at]!, name, study, 9)]) : bodyRows;
  const from = page.items.length === 0 ? 0 : offset + 1;
  const to = page.items.length === 0 ? 0 : offset + page.items.length;
  // A search of a common word stops counting: the total is then a lower bound, and a full page may have a next one.
  const total = page.totalIsLowerBound ? `at least ${count(page.total)}` : count(page.total);
  const last = page.totalIsLowerBound ? page.items.length < PAGE_SIZE : offset + PAGE_SIZE >= page.total;
  const pager = el(
    'div',
    { className: 'pager' },
    el(
      'button',
      { type: 'button', id: 'previous-page', disabled: offset === 0, onClick: () => go({ offset: String(Math.max(0, offset - PAGE_SIZE)) }) },
      'previous',
    ),
    el('span', { id: 'page-position' }, `${count(from)}-${count(to)} of ${total}`),
    el('button', { type: 'button', id: 'next-page', disabled: last, onClick: () => go({ offset: String(offset + PAGE_SIZE) }) }, 'next'),
  );
  const bundle = bundleInfo();
  show(
    el('h2', {}, 'Conversations of ', name),
    bundle
      ? el(
          'p',
          { className: 'note', id: 'bundle-lists' },
          `${describeList(filters)}. This static bundle holds the lists its run page links to (all, failed, early stops, each pair, model and claim) in pair order; to filter or sort otherwise, open the run's store with pmiyc view, or read the CSV of pmiyc export.`,
        )
      : filterForm(name, runData, notes, filters, go),
    unindexedNote(page.unindexed),
    damagedNote(page.damaged),
    pager,
    page.items.length === 0
      ? el('p', {}, 'No conversation matches these filters.')
      : table(['conversation', 'persuader -> persuadee', 'condition', 'claim', 'status', 'score', 'NC', '', 'notes'], shownRows),
  );
  selectable(bodyRows);
  refreshWhileLive(runData.run.live, () => isCurrent(current) && conversationsPage(current, name, query).catch(showError));
}
