import type { ResearchNote } from '../../../studies/notes/research-notes.js';
import { type Child, el } from '../../browser/dom.js';
import type { NoteAnswer, NotesAnswer } from '../../wire/view-answers.js';
import { hasToken, sendNote } from './notes-token.js';
import { api } from './view-shell.js';
import { scoreText } from './view-text.js';

/*
 * A researcher's notes on one conversation (issue 32): a block for the whole conversation and one
 * per turn, each listing its notes (tag, grade, text) and, when this tab may write, a form to add one
 * and buttons to edit or delete each. After a write every block is drawn again from the server.
 * Every note's text is put on the page as text.
 */

const GRADES = [1, 2, 3, 4, 5] as const;

/** Why this tab cannot write notes, or null when it can. */
function whyReadOnly(answer: NotesAnswer): string | null {
  if (!answer.writing.writable) return `Notes are read-only here: ${answer.writing.why}.`;
  if (!hasToken()) return 'This tab has no write token, so notes are read-only in it: open the address that pmiyc view printed (the one ending in #token=...).';
  return null;
}

export const notesPath = (run: string, query: URLSearchParams) => `runs/${encodeURIComponent(run)}/notes${query.size > 0 ? `?${query}` : ''}`;

/** A note's tag and grade as chips. */
export function noteMarks(note: Pick<ResearchNote, 'tag' | 'grade'>): Child[] {
  return [
    note.tag === null ? '' : el('span', { className: 'tag note-tag' }, note.tag),
    note.grade === null ? '' : el('span', { className: 'badge grade' }, `grade ${note.grade}/5`),
  ];
}

interface Block {
  readonly turn: number | null;
  readonly persuadee: boolean;
  readonly node: HTMLElement;
}

/** The notes of one conversation of a run, drawn into blocks that the conversation page places. */
export class ConversationNotes {
  private readonly blocks: Block[] = [];

  private constructor(
    private readonly run: string,
    private readonly conversationId: string,
    private answer: NotesAnswer,
  ) {}

  static async load(run: string, conversationId: string): Promise<ConversationNotes> {
    return new ConversationNotes(run, conversationId, await api<NotesAnswer>(notesPath(run, new URLSearchParams({ conversation: conversationId }))));
  }

  /** The block of the whole conversation (turn null) or of one turn; a persuadee turn's grade reads as its agreement. */
  block(turn: number | null, persuadee = false): HTMLElement {
    const node = el('div', { className: 'notes', 'data-notes': turn === null ? 'conversation' : `turn-${turn}` });
    const block = { turn, persuadee, node };
    this.blocks.push(block);
    this.draw(block);
    return node;
  }

  private async refresh(): Promise<void> {
    this.answer = await api<NotesAnswer>(notesPath(this.run, new URLSearchParams({ conversation: this.conversationId })));
    for (const block of this.blocks) this.draw(block);
  }

  private draw(block: Block): void {
    const notes = this.answer.notes.filter((note) => note.turn === block.turn);
    const readOnly = whyReadOnly(this.answer);
    const list =
      notes.length > 0
        ? el(
            'ul',
            { className: 'note-list' },
            notes.map((note) => this.item(note, block, readOnly === null)),
          )
        : '';
    const adding =
      readOnly !== null
        ? block.turn === null
          ? el('p', { className: 'note notes-read-only' }, readOnly)
          : ''
        : block.turn === null
          ? this.form(block)
          : el('details', { className: 'add-note' }, el('summary', {}, `note turn ${block.turn}`), this.form(block));
    block.node.replaceChildren();
    block.node.append(...[block.turn === null ? this.tagList() : '', list, adding].filter((child): child is HTMLElement => child !== ''));
  }

  /** The tags the run's notes use, offered as the tag field's suggestions. */
  private tagList(): HTMLElement {
    return el(
      'datalist',
      { id: 'note-tags' },
      this.answer.tags.map((entry) => el('option', { value: entry.tag })),
    );
  }

  private item(note: ResearchNote, block: Block, writable: boolean): HTMLElement {
    const item = el('li', { className: 'research-note', 'data-note': note.id });
    const draw = () => {
      item.replaceChildren();
      const when = note.updatedAt === note.createdAt ? note.createdAt : `${note.createdAt}, edited ${note.updatedAt}`;
      const remove = el('button', { type: 'button', className: 'delete-note' }, 'delete');
      remove.addEventListener('click', () => {
        if (remove.dataset['sure'] !== 'yes') {
          remove.dataset['sure'] = 'yes';
          remove.textContent = 'delete: click again to confirm';
          return;
        }
        this.write(item, () => sendNote('DELETE', `${notesPath(this.run, new URLSearchParams())}/${note.id}`));
      });
      item.append(
        el('div', { className: 'tags' }, noteMarks(note), el('small', { className: 'note' }, when)),
        note.note ? el('div', { className: 'note-text message' }, note.note) : '',
        writable
          ? el(
              'div',
              { className: 'note-actions' },
              el('button', { type: 'button', className: 'edit-note', onClick: () => item.replaceChildren(this.form(block, note, draw)) }, 'edit'),
              ' ',
              remove,
            )
          : '',
      );
    };
    draw();
    return item;
  }

  /** The form that adds a note to the block's target, or edits `editing`. */
  private form(block: Block, editing?: ResearchNote, cancel?: () => void): HTMLFormElement {
    const tag = el('input', { name: 'tag', list: 'note-tags', maxlength: 40, value: editing?.tag ?? '', placeholder: 'e.g. odd-argument' });
    const grade = el(
      'select',
      { name: 'grade' },
      el('option', { value: '' }, 'no grade'),
      GRADES.map((value) => el('option', { value, selected: editing?.grade === value }, block.persuadee ? scoreText(value) : String(value))),
    );
    const text = el('textarea', { name: 'note', rows: 2, maxlength: 10000, placeholder: 'what you noticed' });
    text.value = editing?.note ?? '';
    const form = el(
      'form',
      { className: 'note-form' },
      el('label', {}, 'tag', tag),
      el(
        'label',
        { title: block.persuadee ? "the persuadee's agreement as you read it (usable as a human label: pmiyc annotate import --notes)" : '' },
        'grade',
        grade,
      ),
      el('label', { className: 'note-field' }, 'note', text),
      el('button', { type: 'submit' }, editing ? 'save changes' : 'add note'),
      cancel ? el('button', { type: 'button', onClick: cancel }, 'cancel') : '',
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const content = { tag: tag.value, grade: grade.value === '' ? null : Number(grade.value), note: text.value };
      this.write(form, () =>
        editing
          ? sendNote<NoteAnswer>('PUT', `${notesPath(this.run, new URLSearchParams())}/${editing.id}`, content)
          : sendNote<NoteAnswer>('POST', notesPath(this.run, new URLSearchParams()), { conversationId: this.conversationId, turn: block.turn, ...content }),
      );
    });
    return form;
  }

  /** Runs a write; its error is shown where it was asked for, its success redraws every block. */
  private write(where: HTMLElement, send: () => Promise<unknown>): void {
    send()
      .then(() => this.refresh())
      .catch((error: unknown) => {
        where.querySelector('.note-error')?.remove();
        where.append(el('p', { className: 'error note-error', role: 'alert' }, String((error as Error).message || error)));
      });
  }
}
