import type { Database, Statement } from 'better-sqlite3';
import { z } from 'zod';
import type { JudgeResults } from '../../studies/judge/judge-results.js';
import type { JudgeTrialRecord } from '../../studies/judge/judge-trial.js';

const rowSchema = z.object({
  model: z.string(),
  pair_id: z.string(),
  claim: z.string(),
  score_difference: z.number(),
  more_persuasive_first: z.union([z.literal(0), z.literal(1)]),
  chosen: z.union([z.literal(1), z.literal(2), z.null()]),
  correct: z.union([z.literal(0), z.literal(1), z.null()]),
  attempts: z.number().int(),
  raw: z.string(),
  call_hash: z.string().nullable(),
});

const COLUMNS = 'model, pair_id, claim, score_difference, more_persuasive_first, chosen, correct, attempts, raw, call_hash';

function toRecord(row: unknown): JudgeTrialRecord {
  const parsed = rowSchema.parse(row);
  return {
    model: parsed.model,
    pairId: parsed.pair_id,
    claim: parsed.claim,
    scoreDifference: parsed.score_difference,
    morePersuasiveFirst: parsed.more_persuasive_first === 1,
    chosen: parsed.chosen,
    correct: parsed.correct === null ? null : parsed.correct === 1,
    attempts: parsed.attempts,
    raw: parsed.raw,
    callHash: parsed.call_hash,
  };
}

/**
 * The `judge_trials` table (store schema 3): one row per (run, judge model, pair), committed as
 * soon as the trial is done, so that a resumed run skips it. Reads are checked with zod.
 */
export class JudgeTable implements JudgeResults {
  private readonly insert: Statement;
  private readonly selectOne: Statement<[number, string, string]>;

  constructor(private readonly database: Database) {
    this.insert = database.prepare(`INSERT OR REPLACE INTO judge_trials (run_id, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.selectOne = database.prepare<[number, string, string]>('SELECT 1 FROM judge_trials WHERE run_id = ? AND model = ? AND pair_id = ?');
  }

  save(runId: number, record: JudgeTrialRecord): void {
    this.insert.run(
      runId,
      record.model,
      record.pairId,
      record.claim,
      record.scoreDifference,
      record.morePersuasiveFirst ? 1 : 0,
      record.chosen,
      record.correct === null ? null : record.correct ? 1 : 0,
      record.attempts,
      record.raw,
      record.callHash,
    );
  }

  has(runId: number, model: string, pairId: string): boolean {
    return this.selectOne.get(runId, model, pairId) !== undefined;
  }

  count(runId: number): number {
    return this.database.prepare('SELECT count(*) FROM judge_trials WHERE run_id = ?').pluck().get(runId) as number;
  }

  /** A run's trials, streamed in a stable order (model, then pair id). */
  *trials(runId: number): Generator<JudgeTrialRecord> {
    const rows = this.database.prepare(`SELECT ${COLUMNS} FROM judge_trials WHERE run_id = ? ORDER BY model, pair_id`).iterate(runId);
    for (const row of rows) yield toRecord(row);
  }

  /** The name of the latest run made by a command (`config.command`), or undefined. */
  latestRunOf(command: string): string | undefined {
    return this.database.prepare("SELECT name FROM runs WHERE json_extract(config, '$.command') = ? ORDER BY id DESC LIMIT 1").pluck().get(command) as
      | string
      | undefined;
  }
}
