import { z } from 'zod';
import type { NoteContent, NoteGrade, NoteTarget } from './research-notes.js';

/** The longest tag: a label to filter by, not a sentence. */
const MAX_TAG_LENGTH = 40;
/** The longest note's text, in UTF-16 code units (the page's counter counts the same). */
const MAX_NOTE_LENGTH = 10_000;

/** Whether text holds a control character; tab, line feed and carriage return are allowed when `lines`. They would hide text in a CSV. */
function hasControl(value: string, lines: boolean): boolean {
  for (const character of value) {
    const code = character.codePointAt(0)!;
    if ((code < 32 || code === 127) && !(lines && (code === 9 || code === 10 || code === 13))) return true;
  }
  return false;
}

const tag = z
  .string()
  .transform((value) => value.trim())
  .refine((value) => value.length <= MAX_TAG_LENGTH, `a tag has at most ${MAX_TAG_LENGTH} characters`)
  .refine((value) => !hasControl(value, false), 'a tag is one line of text without control characters')
  .transform((value) => (value === '' ? null : value));
const grade = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)], { error: 'grade must be a whole number from 1 to 5, or null' });
const text = z
  .string()
  .max(MAX_NOTE_LENGTH, `a note has at most ${MAX_NOTE_LENGTH} characters`)
  .refine((value) => !hasControl(value, true), 'a note holds no control characters but tabs and line breaks');

const contentSchema = z.strictObject({ tag: tag.nullable().default(null), grade: grade.nullable().default(null), note: text.default('') });
const newNoteSchema = contentSchema.extend({
  conversationId: z.string().min(1, 'conversationId names the noted conversation'),
  turn: z.number().int().min(1, 'turn is 1-based').nullable().default(null),
});

export type NoteInput<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

function read<T extends NoteContent>(schema: z.ZodType<T>, body: unknown): NoteInput<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, error: `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}` };
  }
  const value = parsed.data;
  if (value.tag === null && value.grade === null && value.note.trim() === '') return { ok: false, error: 'a note needs a tag, a grade or some text' };
  return { ok: true, value };
}

/** A new note's body, `{ conversationId, turn, tag, grade, note }` (turn null: the whole conversation), checked. */
export const readNewNote = (body: unknown): NoteInput<NoteTarget & NoteContent> => read(newNoteSchema, body);

/** An edited note's body, `{ tag, grade, note }`, checked. */
export const readNoteContent = (body: unknown): NoteInput<NoteContent> => read(contentSchema, body);

/** A grade given as text (a URL parameter), or a RangeError that says what it takes. */
export function parseGrade(name: string, value: string): NoteGrade {
  const number = Number(value);
  if (value.trim() === '' || !Number.isInteger(number) || number < 1 || number > 5)
    throw new RangeError(`${name} must be a whole number from 1 to 5 (got "${value}")`);
  return number as NoteGrade;
}
