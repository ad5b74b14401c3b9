import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { AgreementScore } from '../../domain/agreement-score.js';
import type { ConsistencyResults, SampleKey, StoredStanceSample } from '../../studies/consistency/consistency-results.js';
import { studyNamesOf } from './run-rows.js';

const rowSchema = z.object({
  model: z.string(),
  domain: z.enum(['subjective', 'misinformation']),
  claim_index: z.number().int(),
  claim: z.string(),
  sample_index: z.number().int(),
  score: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.null()]),
  attempts: z.number().int(),
  unusable: z.number().int(),
  raw: z.string(),
  call_hash: z.string().nullable(),
});

const COLUMNS = 'model, domain, claim_index, claim, sample_index, score, attempts, unusable, raw, call_hash';

/**
 * The consistency study's answers in the store. Each answer is committed on its own as it
 * arrives (SQLite autocommit), so a stopped study keeps everything it was told; reads stream in
 * key order. Studies are rows of `runs` whose config says `command: 'consistency'`.
 */
export class ConsistencyTable implements ConsistencyResults {
  private readonly insert: Database.Statement;
  private readonly selectOne: Database.Statement;

  constructor(private readonly database: Database.Database) {
    this.insert = database.prepare(`INSERT OR REPLACE INTO consistency_samples (run_id, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.selectOne = database.prepare(
      'SELECT 1 FROM consistency_samples WHERE run_id = ? AND model = ? AND domain = ? AND claim_index = ? AND sample_index = ?',
    );
  }

  /** Stores one answer, committed at once. */
  save(runId: number, sample: StoredStanceSample): void {
    this.insert.run(
      runId,
      sample.model,
      sample.domain,
      sample.claimIndex,
      sample.claim,
      sample.sampleIndex,
      sample.score,
      sample.attempts,
      sample.unusable,
      sample.raw,
      sample.callHash,
    );
  }

  /** Stores many answers in one transaction (an import: all or nothing). */
  saveAll(runId: number, samples: Iterable<StoredStanceSample>): number {
    let count = 0;
    this.database.transaction(() => {
      for (const sample of samples) {
        this.save(runId, sample);
        count += 1;
      }
    })();
    return count;
  }

  /** Whether this answer is stored already (a resumed study skips it). */
  has(runId: number, key: SampleKey): boolean {
    return this.selectOne.get(runId, key.model, key.domain, key.claimIndex, key.sampleIndex) !== undefined;
  }

  count(runId: number): number {
    return this.database.prepare('SELECT count(*) FROM consistency_samples WHERE run_id = ?').pluck().get(runId) as number;
  }

  /** Streams a study's answers in key order, each checked. */
  *samples(runId: number): Generator<StoredStanceSample> {
    const rows = this.database
      .prepare(`SELECT ${COLUMNS} FROM consistency_samples WHERE run_id = ? ORDER BY model, domain, claim_index, sample_index`)
      .iterate(runId);
    for (const row of rows) {
      const parsed = rowSchema.parse(row);
      yield {
        model: parsed.model,
        domain: parsed.domain,
        claimIndex: parsed.claim_index,
        claim: parsed.claim,
        sampleIndex: parsed.sample_index,
        score: parsed.score as AgreementScore | null,
        attempts: parsed.attempts,
        unusable: parsed.unusable,
        raw: parsed.raw,
        callHash: parsed.call_hash,
      };
    }
  }

  /** Names of the consistency studies in the store, oldest first; only those linked to `tournamentRun` when given. */
  studyNames(tournamentRun?: string): string[] {
    return studyNamesOf(this.database, 'consistency', tournamentRun);
  }
}
