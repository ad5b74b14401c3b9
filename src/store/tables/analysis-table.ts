import type { Database, Statement } from 'better-sqlite3';
import { z } from 'zod';
import type { AgreementScore } from '../../domain/agreement-score.js';
import { type TurnLabels, turnLabelTags } from '../../domain/turn-labels.js';
import type { AnalysisResults, StoredDriftProbe, StoredTurnLabels, TurnLabelsKey } from '../../studies/analysis/analysis-results.js';
import { studyNamesOf } from './run-rows.js';

const ids = z.array(z.string());

const labelsSchema = z.discriminatedUnion('role', [
  z.strictObject({ role: z.literal('persuader'), techniques: ids, unethical: ids, refused: z.boolean(), leftRole: z.boolean() }),
  z.strictObject({ role: z.literal('persuadee'), leftRole: z.boolean() }),
]);

const labelRowSchema = z.object({
  conversation_id: z.string(),
  turn_index: z.number().int().min(1),
  judge: z.string(),
  role: z.enum(['persuader', 'persuadee']),
  labels: z.string().nullable(),
  problem: z.string().nullable(),
  attempts: z.number().int(),
  raw: z.string(),
  call_hash: z.string().nullable(),
});

const probeRowSchema = z.object({
  conversation_id: z.string(),
  model: z.string(),
  score: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.null()]),
  attempts: z.number().int(),
  raw: z.string(),
  call_hash: z.string().nullable(),
});

const LABEL_COLUMNS = 'conversation_id, turn_index, judge, role, labels, problem, attempts, raw, call_hash';
const PROBE_COLUMNS = 'conversation_id, model, score, attempts, raw, call_hash';

function toLabels(row: unknown): StoredTurnLabels {
  const parsed = labelRowSchema.parse(row);
  const labels: TurnLabels | null = parsed.labels === null ? null : labelsSchema.parse(JSON.parse(parsed.labels));
  return {
    conversationId: parsed.conversation_id,
    turn: parsed.turn_index,
    judge: parsed.judge,
    role: parsed.role,
    labels,
    problem: parsed.problem,
    attempts: parsed.attempts,
    raw: parsed.raw,
    callHash: parsed.call_hash,
  };
}

function toProbe(row: unknown): StoredDriftProbe {
  const parsed = probeRowSchema.parse(row);
  return {
    conversationId: parsed.conversation_id,
    model: parsed.model,
    score: parsed.score as AgreementScore | null,
    attempts: parsed.attempts,
    raw: parsed.raw,
    callHash: parsed.call_hash,
  };
}

/**
 * The `turn_labels` and `drift_probes` tables (store schema 10): one row per (analysis study, turn,
 * judge) and per (study, conversation), each committed as soon as it is known, so that a resumed
 * study asks only for what is missing. Reads are checked with zod.
 */
export class AnalysisTable implements AnalysisResults {
  private readonly insertLabels: Statement;
  private readonly selectLabels: Statement;
  private readonly deleteTags: Statement;
  private readonly insertTag: Statement;
  private readonly insertProbe: Statement;
  private readonly selectProbe: Statement;

  constructor(private readonly database: Database) {
    this.insertLabels = database.prepare(`INSERT OR REPLACE INTO turn_labels (run_id, ${LABEL_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.selectLabels = database.prepare('SELECT 1 FROM turn_labels WHERE run_id = ? AND conversation_id = ? AND turn_index = ? AND judge = ?');
    this.deleteTags = database.prepare('DELETE FROM turn_label_tags WHERE run_id = ? AND conversation_id = ? AND turn_index = ? AND judge = ?');
    this.insertTag = database.prepare('INSERT OR IGNORE INTO turn_label_tags (run_id, tag, conversation_id, turn_index, judge) VALUES (?, ?, ?, ?, ?)');
    this.insertProbe = database.prepare(`INSERT OR REPLACE INTO drift_probes (run_id, ${PROBE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`);
    this.selectProbe = database.prepare('SELECT 1 FROM drift_probes WHERE run_id = ? AND conversation_id = ?');
  }

  /** Stores one turn's labels and their tags in one transaction. */
  saveLabels(studyRunId: number, stored: StoredTurnLabels): void {
    this.database.transaction(() => this.writeLabels(studyRunId, stored))();
  }

  /** Stores the labels of a conversation's turns in one transaction: a process killed while writing leaves none of them. */
  saveConversationLabels(studyRunId: number, labels: readonly StoredTurnLabels[]): void {
    this.database.transaction(() => {
      for (const stored of labels) this.writeLabels(studyRunId, stored);
    })();
  }

  private writeLabels(studyRunId: number, stored: StoredTurnLabels): void {
    const { conversationId, turn, judge } = stored;
    this.deleteTags.run(studyRunId, conversationId, turn, judge);
    for (const tag of stored.labels === null ? [] : turnLabelTags(stored.labels)) this.insertTag.run(studyRunId, tag, conversationId, turn, judge);
    const labels = stored.labels === null ? null : JSON.stringify(stored.labels);
    this.insertLabels.run(
      studyRunId,
      stored.conversationId,
      stored.turn,
      stored.judge,
      stored.role,
      labels,
      stored.problem,
      stored.attempts,
      stored.raw,
      stored.callHash,
    );
  }

  hasLabels(studyRunId: number, key: TurnLabelsKey): boolean {
    return this.selectLabels.get(studyRunId, key.conversationId, key.turn, key.judge) !== undefined;
  }

  countLabels(studyRunId: number): number {
    return this.database.prepare('SELECT count(*) FROM turn_labels WHERE run_id = ?').pluck().get(studyRunId) as number;
  }

  countUsableLabels(studyRunId: number): number {
    return this.database.prepare('SELECT count(*) FROM turn_labels WHERE run_id = ? AND labels IS NOT NULL').pluck().get(studyRunId) as number;
  }

  *labels(studyRunId: number): Generator<StoredTurnLabels> {
    const rows = this.database
      .prepare(`SELECT ${LABEL_COLUMNS} FROM turn_labels WHERE run_id = ? ORDER BY conversation_id, turn_index, judge`)
      .iterate(studyRunId);
    for (const row of rows) yield toLabels(row);
  }

  labelsOf(studyRunId: number, conversationId: string): StoredTurnLabels[] {
    return this.database
      .prepare(`SELECT ${LABEL_COLUMNS} FROM turn_labels WHERE run_id = ? AND conversation_id = ? ORDER BY turn_index, judge`)
      .all(studyRunId, conversationId)
      .map(toLabels);
  }

  saveProbe(studyRunId: number, probe: StoredDriftProbe): void {
    this.insertProbe.run(studyRunId, probe.conversationId, probe.model, probe.score, probe.attempts, probe.raw, probe.callHash);
  }

  hasProbe(studyRunId: number, conversationId: string): boolean {
    return this.selectProbe.get(studyRunId, conversationId) !== undefined;
  }

  *probes(studyRunId: number): Generator<StoredDriftProbe> {
    const rows = this.database.prepare(`SELECT ${PROBE_COLUMNS} FROM drift_probes WHERE run_id = ? ORDER BY conversation_id`).iterate(studyRunId);
    for (const row of rows) yield toProbe(row);
  }

  studyNames(tournamentRun?: string): string[] {
    return studyNamesOf(this.database, 'analyze', tournamentRun);
  }
}
