import { el, inputValue } from '../../browser/dom.js';
import type { NotesAnswer } from '../../wire/view-answers.js';
import { noteMarks, notesPath } from './notes-panel.js';
import { link, route, table, td } from './view-parts.js';
import { api, crumbs, isCurrent, selectable, show } from './view-shell.js';

/** Choices of a note filter: every tag the run's notes use, and the five grades. */
export function noteFilterChoices(
  tags: NotesAnswer['tags'],
  filters: Readonly<Record<string, string>>,
  go: (changes: Record<string, string>) => void,
  withHasNote: boolean,
): HTMLElement[] {
  const select = (name: string, label: string, options: ReadonlyArray<readonly [string, string]>) =>
    el(
      'label',
      {},
      label,
      el(
        'select',
        { name, onChange: (event) => go({ [name]: inputValue(event), offset: '' }) },
        el('option', { value: '' }, 'any'),
        options.map(([value, text]) => el('option', { value, selected: filters[name] === value }, text)),
      ),
    );
  return [
    select(
      'tag',
      'note tag',
      tags.map((entry) => [entry.tag, `${entry.tag} (${entry.notes})`]),
    ),
    select(
      'grade',
      'note grade',
      ['1', '2', '3', '4', '5'].map((grade) => [grade, grade]),
    ),
    withHasNote ? select('hasNote', 'notes', [['1', 'with a note']]) : [],
  ].flat();
}

/** Every note of a run, oldest first, filtered by tag and grade as the address says; each opens its conversation at its turn. */
export async function notesPage(current: number, run: string, query: URLSearchParams): Promise<void> {
  const filters = { tag: query.get('tag') || '', grade: query.get('grade') || '' };
  const asked = new URLSearchParams(Object.entries(filters).filter(([, value]) => value !== ''));
  const answer = await api<NotesAnswer>(notesPath(run, asked));
  if (!isCurrent(current)) return;
  crumbs(link([], null, 'runs'), link(['runs', run], null, run), el('span', {}, 'notes'));
  const go = (changes: Record<string, string>) => {
    location.hash = route(['runs', run, 'notes'], { ...filters, ...changes, offset: null });
  };
  const rows = answer.notes.map((note) =>
    el(
      'tr',
      {},
      td(link(['conversations', note.conversationId], { run, turn: note.turn }, note.conversationId)),
      td(note.turn === null ? 'whole conversation' : `turn ${note.turn}`),
      td(el('span', { className: 'tags' }, noteMarks(note))),
      td(el('span', { className: 'note-text' }, note.note)),
      td(note.updatedAt),
    ),
  );
  show(
    el('h2', {}, 'Notes on ', run),
    el(
      'p',
      { className: 'note' },
      answer.writing.writable ? 'Add, edit or delete notes on a conversation page. ' : `Notes are read-only here: ${answer.writing.why}. `,
      `Export them with pmiyc export --notes --run ${run}.`,
    ),
    el('form', { className: 'filters', onSubmit: (event) => event.preventDefault() }, noteFilterChoices(answer.tags, filters, go, false)),
    el('p', {}, link(['runs', run, 'conversations'], { ...filters, hasNote: filters.tag || filters.grade ? '' : '1' }, 'list these conversations')),
    rows.length === 0
      ? el('p', { id: 'no-notes' }, 'No note matches.')
      : table(['conversation', 'where', 'tag and grade', 'note', 'last written'], rows, 'notes-table'),
  );
  selectable(rows);
}
