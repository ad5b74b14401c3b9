import { InputError } from '../../domain/errors/input-error.js';
import { StoreError } from '../../domain/errors/store-error.js';
import type { RunRecords } from '../../runner/run-records.js';
import { parseGrade, readNewNote, readNoteContent } from '../../studies/notes/note-input.js';
import type { NoteFilter, ResearchNotes } from '../../studies/notes/research-notes.js';
import type { TournamentResults } from '../../studies/tournament/tournament-results.js';
import type { DeletedNoteAnswer, NoteAnswer, NotesAnswer, NotesWritingState } from '../wire/view-answers.js';
import type { ApiAnswer } from './view-api.js';

/**
 * Whether `pmiyc view` may write notes: with the per-start token the page must send and the store's
 * notes opened for writing, or not at all, with the reason the page shows.
 */
export type NotesWriting = { readonly token: string; readonly book: ResearchNotes } | { readonly why: string };

/** What the notes API reads: the runs and conversations of the served store, and its notes (read-only). */
export type NotesSource = Pick<RunRecords, 'findRun'> & Pick<TournamentResults, 'conversationsWithId'> & { readonly notes: ResearchNotes };

/** The parameters of `GET /api/runs/:run/notes`. */
const NOTE_LIST_PARAMETERS = ['conversation', 'tag', 'grade'];

const answer = (status: number, body: unknown): ApiAnswer => ({ status, body });
const error = (status: number, message: string): ApiAnswer => answer(status, { error: message });

/**
 * The research notes of `pmiyc view` (issue 32), without HTTP: a run's notes read (GET), and a note
 * added, edited or deleted. Writes go only to the store served, and only to a conversation (and turn)
 * of the named run that it holds: a note for anything else is refused, never stored. The server has
 * checked the token and the origin before a write gets here.
 */
export class NotesApi {
  constructor(
    private readonly source: NotesSource,
    private readonly writing: NotesWriting,
    private readonly now: () => Date,
  ) {}

  get state(): NotesWritingState {
    return 'why' in this.writing ? { writable: false, why: this.writing.why } : { writable: true, why: null };
  }

  /** Whether `token` is this viewer's write token (false when notes cannot be written at all). */
  get token(): string | undefined {
    return 'token' in this.writing ? this.writing.token : undefined;
  }

  /** `GET /api/runs/:run/notes[?conversation=ID (repeatable)&tag=TAG&grade=N]`. */
  list(runName: string, parameters: URLSearchParams): ApiAnswer {
    for (const name of parameters.keys())
      if (!NOTE_LIST_PARAMETERS.includes(name)) return error(400, `unknown parameter "${name}": use ${NOTE_LIST_PARAMETERS.join(', ')}`);
    let filter: NoteFilter & { conversationIds?: string[] };
    try {
      const grade = parameters.get('grade') || undefined;
      const conversations = parameters.getAll('conversation').filter((id) => id !== '');
      filter = {
        ...(parameters.get('tag') ? { tag: parameters.get('tag')! } : {}),
        ...(grade === undefined ? {} : { grade: parseGrade('grade', grade) }),
        // `conversation=` given empty asks for the notes of no conversation (an empty page), not of all.
        ...(parameters.has('conversation') ? { conversationIds: conversations } : {}),
      };
    } catch (problem) {
      if (problem instanceof RangeError) return error(400, problem.message);
      throw problem;
    }
    return this.withRun(runName, (runId) => {
      const body: NotesAnswer = { run: runName, writing: this.state, tags: this.source.notes.tags(runId), notes: this.source.notes.list(runId, filter) };
      return answer(200, body);
    });
  }

  /** `POST /api/runs/:run/notes` with `{ conversationId, turn, tag, grade, note }`. */
  add(runName: string, body: unknown): ApiAnswer {
    const book = this.book();
    if (!book) return this.readOnly();
    const input = readNewNote(body);
    if (!input.ok) return error(400, input.error);
    const { conversationId, turn, ...content } = input.value;
    return this.withRun(runName, (runId) => {
      const stored = this.source.conversationsWithId(conversationId).find((entry) => entry.run === runName);
      if (!stored)
        return error(404, `run ${runName} of this store has no conversation ${conversationId}: notes are written only to the store the viewer serves`);
      if (turn !== null && !stored.record.turns.some((entry) => entry.index === turn))
        return error(404, `conversation ${conversationId} of run ${runName} has no turn ${turn} (it has ${stored.record.turns.length})`);
      const note = book.add(runId, { conversationId, turn }, content, this.now().toISOString());
      return answer(201, { note } satisfies NoteAnswer);
    });
  }

  /** `PUT /api/runs/:run/notes/:id` with `{ tag, grade, note }`. */
  update(runName: string, id: string, body: unknown): ApiAnswer {
    const book = this.book();
    if (!book) return this.readOnly();
    const input = readNoteContent(body);
    if (!input.ok) return error(400, input.error);
    return this.withNote(runName, id, (runId, noteId) => {
      const note = book.update(runId, noteId, input.value, this.now().toISOString());
      return note ? answer(200, { note } satisfies NoteAnswer) : undefined;
    });
  }

  /** `DELETE /api/runs/:run/notes/:id`. */
  remove(runName: string, id: string): ApiAnswer {
    const book = this.book();
    if (!book) return this.readOnly();
    return this.withNote(runName, id, (runId, noteId) =>
      book.remove(runId, noteId) ? answer(200, { deleted: noteId } satisfies DeletedNoteAnswer) : undefined,
    );
  }

  private book(): ResearchNotes | undefined {
    return 'book' in this.writing ? this.writing.book : undefined;
  }

  private readOnly(): ApiAnswer {
    return error(403, `notes cannot be written here: ${this.state.why}`);
  }

  private withRun(runName: string, work: (runId: number) => ApiAnswer): ApiAnswer {
    let runId: number;
    try {
      runId = this.source.findRun(runName).id;
    } catch (problem) {
      if (problem instanceof InputError || problem instanceof StoreError)
        return error(404, `${problem.message} (notes are written only to the store the viewer serves)`);
      throw problem;
    }
    return work(runId);
  }

  private withNote(runName: string, id: string, work: (runId: number, noteId: number) => ApiAnswer | undefined): ApiAnswer {
    const noteId = Number(id);
    if (!/^\d{1,15}$/.test(id)) return error(400, `a note's id is a whole number (got "${id}")`);
    return this.withRun(runName, (runId) => work(runId, noteId) ?? error(404, `run ${runName} has no note ${id}`));
  }
}
