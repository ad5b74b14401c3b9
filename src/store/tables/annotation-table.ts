import type { Database, Statement } from 'better-sqlite3';
import { z } from 'zod';
import type { AgreementScore } from '../../domain/agreement-score.js';
import type { Role } from '../../domain/roles.js';
import type { AnnotationResults, AnnotationRow, AnnotatorImport } from '../../studies/annotation/annotation-results.js';

const score = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]);
const turnRow = z.object({ role: z.enum(['persuader', 'persuadee']), score });
const annotationRow = z.object({
  conversation_id: z.string(),
  turn_index: z.number().int(),
  annotator: z.string(),
  score,
  model_score: score,
  persuadee: z.string(),
  domain: z.enum(['subjective', 'misinformation']),
});

/**
 * The `annotations` table (schema 3): human labels of persuadee turns, imported by
 * `pmiyc annotate import`, each stored next to the score the model gave itself, which is read
 * from the run's own turns (the task file never had it).
 */
export class AnnotationTable implements AnnotationResults {
  private readonly selectTurn: Statement<[number, string, number]>;
  private readonly selectConversation: Statement<[number, string]>;

  constructor(private readonly database: Database) {
    this.selectTurn = database.prepare<[number, string, number]>('SELECT role, score FROM turns WHERE run_id = ? AND conversation_id = ? AND turn_index = ?');
    this.selectConversation = database.prepare<[number, string]>('SELECT 1 FROM conversations WHERE run_id = ? AND id = ?');
  }

  /** Whether the run has the conversation. */
  hasConversation(runId: number, conversationId: string): boolean {
    return this.selectConversation.get(runId, conversationId) !== undefined;
  }

  /** The stored turn's role and score (the persuadee's self-report, or a persuader's own rating), or undefined. */
  modelTurn(runId: number, conversationId: string, turnIndex: number): { role: Role; score: AgreementScore } | undefined {
    const row = this.selectTurn.get(runId, conversationId, turnIndex);
    return row === undefined ? undefined : turnRow.parse(row);
  }

  /**
   * Stores the labels of several annotators in one transaction. An annotator imported again
   * replaces their earlier labels on this run (labels they removed disappear too).
   */
  replaceLabels(runId: number, imports: readonly AnnotatorImport[], importedAt: string): void {
    const remove = this.database.prepare('DELETE FROM annotations WHERE run_id = ? AND annotator = ?');
    const insert = this.database.prepare(
      'INSERT INTO annotations (run_id, conversation_id, turn_index, annotator, score, model_score, imported_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.database.transaction(() => {
      for (const { annotator, labels } of imports) {
        remove.run(runId, annotator);
        for (const label of labels) insert.run(runId, label.conversationId, label.turnIndex, annotator, label.score, label.modelScore, importedAt);
      }
    })();
  }

  /** Labels stored per annotator for a run. */
  annotators(runId: number): Array<{ annotator: string; labels: number }> {
    return this.database
      .prepare('SELECT annotator, count(*) AS labels FROM annotations WHERE run_id = ? GROUP BY annotator ORDER BY annotator')
      .all(runId) as Array<{ annotator: string; labels: number }>;
  }

  /**
   * The labels of runs (a combined report), with each conversation's persuadee and domain. A
   * (conversation, turn, annotator) found in more than one run counts once, from the first run
   * listed, as the report does with conversations.
   */
  rows(runIds: readonly number[]): AnnotationRow[] {
    const select = this.database.prepare(
      `SELECT a.conversation_id, a.turn_index, a.annotator, a.score, a.model_score, c.persuadee, c.domain
       FROM annotations a JOIN conversations c ON c.run_id = a.run_id AND c.id = a.conversation_id
       WHERE a.run_id = ? ORDER BY a.conversation_id, a.turn_index, a.annotator`,
    );
    const seen = new Set<string>();
    const rows: AnnotationRow[] = [];
    for (const runId of runIds) {
      for (const raw of select.all(runId)) {
        const row = annotationRow.parse(raw);
        const key = `${row.conversation_id}\u0000${row.turn_index}\u0000${row.annotator}`;
        if (seen.has(key)) continue;
        seen.add(key);
        rows.push({
          conversationId: row.conversation_id,
          turnIndex: row.turn_index,
          annotator: row.annotator,
          score: row.score,
          modelScore: row.model_score,
          persuadee: row.persuadee,
          domain: row.domain,
        });
      }
    }
    return rows;
  }
}
