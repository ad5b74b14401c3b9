import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import type { NoteContent, NoteFilter, NoteTarget, ResearchNote, ResearchNotes, TagCount } from '../../studies/notes/research-notes.js';

const noteRow = z.object({
  id: z.number().int(),
  run: z.string(),
  conversation_id: z.string(),
  turn_index: z.number().int().nullable(),
  tag: z.string().nullable(),
  grade: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]).nullable(),
  note: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

const toNote = (raw: unknown): ResearchNote => {
  const row = noteRow.parse(raw);
  return {
    id: row.id,
    run: row.run,
    conversationId: row.conversation_id,
    turn: row.turn_index,
    tag: row.tag,
    grade: row.grade,
    note: row.note,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
};

const SELECT =
  'SELECT n.id, r.name AS run, n.conversation_id, n.turn_index, n.tag, n.grade, n.note, n.created_at, n.updated_at FROM notes n JOIN runs r ON r.id = n.run_id';

/**
 * The conditions of a note filter on a conversations query (`id` the conversation's id column), each a
 * subquery of the notes table's own indexes, with their parameters: for the viewer's list (conversation-page-sql.ts).
 */
export function noteConditions(runId: number, filter: NoteFilter): { conditions: string[]; parameters: unknown[] } {
  const conditions: string[] = [];
  const parameters: unknown[] = [];
  if (filter.tag !== undefined) {
    conditions.push('id IN (SELECT n.conversation_id FROM notes n WHERE n.run_id = ? AND n.tag = ?)');
    parameters.push(runId, filter.tag);
  }
  if (filter.grade !== undefined) {
    conditions.push('id IN (SELECT n.conversation_id FROM notes n WHERE n.run_id = ? AND n.grade = ?)');
    parameters.push(runId, filter.grade);
  }
  if (filter.hasNote) {
    conditions.push('id IN (SELECT n.conversation_id FROM notes n WHERE n.run_id = ?)');
    parameters.push(runId);
  }
  return { conditions, parameters };
}

/**
 * The `notes` table (issue 32): a researcher's notes, tags and grades on a run's conversations and
 * turns, keyed by the noted run. Nothing here reads or writes the run's own tables.
 */
export class NotesTable implements ResearchNotes {
  constructor(private readonly database: Database) {}

  list(runId: number, filter: NoteFilter & { readonly conversationIds?: readonly string[] } = {}): ResearchNote[] {
    const conditions = ['n.run_id = ?'];
    const parameters: unknown[] = [runId];
    if (filter.conversationIds !== undefined) {
      if (filter.conversationIds.length === 0) return [];
      conditions.push(`n.conversation_id IN (SELECT value FROM json_each(?))`);
      parameters.push(JSON.stringify(filter.conversationIds));
    }
    if (filter.tag !== undefined) {
      conditions.push('n.tag = ?');
      parameters.push(filter.tag);
    }
    if (filter.grade !== undefined) {
      conditions.push('n.grade = ?');
      parameters.push(filter.grade);
    }
    return this.database
      .prepare(`${SELECT} WHERE ${conditions.join(' AND ')} ORDER BY n.id`)
      .all(...parameters)
      .map(toNote);
  }

  listAll(): ResearchNote[] {
    return this.database.prepare(`${SELECT} ORDER BY n.run_id, n.id`).all().map(toNote);
  }

  tags(runId: number): TagCount[] {
    return this.database
      .prepare('SELECT tag, count(*) AS notes FROM notes WHERE run_id = ? AND tag IS NOT NULL GROUP BY tag ORDER BY notes DESC, tag')
      .all(runId) as TagCount[];
  }

  add(runId: number, target: NoteTarget, content: NoteContent, at: string): ResearchNote {
    const { lastInsertRowid } = this.database
      .prepare('INSERT INTO notes (run_id, conversation_id, turn_index, tag, grade, note, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(runId, target.conversationId, target.turn, content.tag, content.grade, content.note, at, at);
    return this.one(runId, Number(lastInsertRowid))!;
  }

  update(runId: number, id: number, content: NoteContent, at: string): ResearchNote | undefined {
    const { changes } = this.database
      .prepare('UPDATE notes SET tag = ?, grade = ?, note = ?, updated_at = ? WHERE run_id = ? AND id = ?')
      .run(content.tag, content.grade, content.note, at, runId, id);
    return changes === 0 ? undefined : this.one(runId, id);
  }

  remove(runId: number, id: number): boolean {
    return this.database.prepare('DELETE FROM notes WHERE run_id = ? AND id = ?').run(runId, id).changes > 0;
  }

  private one(runId: number, id: number): ResearchNote | undefined {
    const row = this.database.prepare(`${SELECT} WHERE n.run_id = ? AND n.id = ?`).get(runId, id);
    return row === undefined ? undefined : toNote(row);
  }
}
