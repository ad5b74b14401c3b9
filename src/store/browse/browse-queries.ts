import type Database from 'better-sqlite3';
import { claimKey, type Domain } from '../../domain/claim.js';
import { type FailureReason, NO_SCORE_CAUSES, type NoScoreCause, type Setting } from '../../domain/conversation.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import type {
  CallDetail,
  ClaimCell,
  ConversationPage,
  ConversationQuery,
  PairCell,
  PairClaimTotal,
  TechniqueCounts,
  TournamentBrowse,
} from '../../studies/tournament/tournament-browse.js';
import { hashKey } from '../records/hash-key.js';
import { StoredRecordReader } from '../records/stored-record-reader.js';
import { ORDER_BY, SEARCH_LIMITS, type SearchLimits } from './conversation-page-sql.js';
import { ConversationPages } from './conversation-pages.js';

/**
 * The store's side of `pmiyc view`: pages (`ConversationPages`), aggregates and call details
 * straight from SQLite.
 */
export class BrowseQueries implements TournamentBrowse {
  private readonly records: StoredRecordReader;
  private readonly pages: ConversationPages;

  /** `beforeRead` commits writes still waiting in this process, so that reads see them. */
  constructor(
    private readonly database: Database.Database,
    private readonly beforeRead: () => void = () => undefined,
    limits: SearchLimits = SEARCH_LIMITS,
  ) {
    this.pages = new ConversationPages(database, limits);
    this.records = new StoredRecordReader(database);
  }

  queryConversations(runId: number, query: ConversationQuery): ConversationPage {
    this.beforeRead();
    return this.pages.query(runId, query);
  }

  pairCells(runId: number): PairCell[] {
    this.beforeRead();
    const rows = this.database
      .prepare(
        `SELECT domain, setting, persuader, persuadee, sum(status = 'completed') AS completed, sum(status = 'failed') AS failed,
           coalesce(sum(early_stopped), 0) AS early_stopped, avg(nc) AS mean_nc,
           sum(status = 'failed' AND failure_reason = 'format') AS format, sum(status = 'failed' AND failure_reason = 'refusal') AS refusal,
           sum(status = 'failed' AND failure_reason = 'api') AS api, sum(status = 'failed' AND failure_reason = 'context') AS context,
           sum(status = 'failed' AND (failure_reason IS NULL OR failure_reason NOT IN ('format', 'refusal', 'api', 'context'))) AS unknown,
           sum(status = 'completed' AND nc IS NULL) AS unscored
         FROM conversations INDEXED BY conversations_by_pair WHERE run_id = ?
         GROUP BY persuader, persuadee, setting, domain ORDER BY domain DESC, setting DESC, persuader, persuadee`,
      )
      .all(runId) as Array<
      {
        domain: Domain;
        setting: Setting;
        persuader: string;
        persuadee: string;
        completed: number;
        failed: number;
        early_stopped: number;
        mean_nc: number | null;
      } & Record<NoScoreCause, number>
    >;
    return rows.map((row) => ({
      domain: row.domain,
      setting: row.setting,
      persuader: row.persuader,
      persuadee: row.persuadee,
      completed: row.completed,
      failed: row.failed,
      earlyStopped: row.early_stopped,
      meanNc: row.mean_nc,
      unscoredBy: Object.fromEntries(NO_SCORE_CAUSES.filter((cause) => row[cause] > 0).map((cause) => [cause, row[cause]])),
    }));
  }

  *conversationsInOrder(runId: number, sort: 'pair' | 'claim'): Iterable<ConversationRecord> {
    this.beforeRead();
    // The order's keys come from its covering index, and each record is read by its rowid after (as `conversations()`):
    // a number per conversation is held, never the records, and no statement stays open between records.
    const rowids = this.database.prepare(`SELECT rowid FROM conversations WHERE run_id = ? ORDER BY ${ORDER_BY[sort]}`).pluck().all(runId) as number[];
    for (const rowid of rowids) yield this.records.record(rowid);
  }

  *pairClaimTotals(runId: number): Iterable<PairClaimTotal> {
    this.beforeRead();
    const claimKeys = new Map<string, string>();
    const claims = this.database.prepare('SELECT domain, claim, question, claim_index FROM run_claims WHERE run_id = ?').raw().all(runId) as Array<
      [Domain, string, string | null, number]
    >;
    for (const [domain, claim, question, claimIndex] of claims) {
      claimKeys.set(`${domain}\u0000${claimIndex}`, claimKey({ domain, claim, ...(question === null ? {} : { question }) }));
    }
    // Grouped in the order of the covering index by claim, so SQLite streams the groups without sorting; rows as arrays of
    // numbers where it can (a paper-sized run has a row per conversation here: each pair argues a claim once per setting).
    const rows = this.database
      .prepare(
        `SELECT domain = 'misinformation', setting = 'multi', persuader, persuadee, claim_index, count(nc), sum(nc)
         FROM conversations INDEXED BY conversations_by_claim WHERE run_id = ? AND status = 'completed' AND nc IS NOT NULL
         GROUP BY domain, claim_index, setting, persuadee, persuader`,
      )
      .raw()
      .iterate(runId) as IterableIterator<[0 | 1, 0 | 1, string, string, number, number, number]>;
    const domains = ['subjective', 'misinformation'] as const;
    const settings = ['single', 'multi'] as const;
    for (const [misinformation, multi, persuader, persuadee, claimIndex, completed, ncSum] of rows) {
      const domain = domains[misinformation];
      const key = claimKeys.get(`${domain}\u0000${claimIndex}`);
      if (key !== undefined) yield { domain, setting: settings[multi], persuader, persuadee, claimKey: key, completed, ncSum };
    }
  }

  claimCells(runId: number): ClaimCell[] {
    this.beforeRead();
    const rows = this.database
      .prepare(
        `SELECT c.domain, c.setting, c.claim_index, k.claim, k.question, c.completed, c.failed, c.mean_nc
         FROM (SELECT domain, claim_index, setting, sum(status = 'completed') AS completed, sum(status = 'failed') AS failed, avg(nc) AS mean_nc
               FROM conversations INDEXED BY conversations_by_claim WHERE run_id = ? GROUP BY domain, claim_index, setting) c
         JOIN run_claims k ON k.run_id = ? AND k.domain = c.domain AND k.claim_index = c.claim_index
         ORDER BY c.domain DESC, c.setting DESC, c.claim_index`,
      )
      .all(runId, runId) as Array<{
      domain: Domain;
      setting: Setting;
      claim_index: number;
      claim: string;
      question: string | null;
      completed: number;
      failed: number;
      mean_nc: number | null;
    }>;
    return rows.map((row) => ({
      domain: row.domain,
      setting: row.setting,
      claimIndex: row.claim_index,
      claim: row.claim,
      question: row.question,
      completed: row.completed,
      failed: row.failed,
      meanNc: row.mean_nc,
    }));
  }

  modelsOf(runId: number): string[] {
    this.beforeRead();
    // Each list walks the index one distinct value at a time (a skip scan), not the run's rows.
    const distinct = (column: 'persuader' | 'persuadee', index: string): string[] => {
      const next = this.database
        .prepare(`SELECT min(${column}) FROM conversations INDEXED BY ${index} WHERE run_id = ? AND ${column} > ?`)
        .pluck() as Database.Statement<[number, string], string | null>;
      const values: string[] = [];
      for (let value = next.get(runId, ''); value !== null && value !== undefined; value = next.get(runId, value)) values.push(value);
      return values;
    };
    return [...new Set([...distinct('persuader', 'conversations_by_pair'), ...distinct('persuadee', 'conversations_by_persuadee')])].sort();
  }

  failureReasons(runId: number): FailureReason[] {
    this.beforeRead();
    return this.database
      .prepare(`SELECT DISTINCT failure_reason FROM conversations INDEXED BY conversations_by_status WHERE run_id = ? AND status = 'failed' ORDER BY 1`)
      .pluck()
      .all(runId) as FailureReason[];
  }

  callDetails(runId: number, record: ConversationRecord): CallDetail[] {
    this.beforeRead();
    const attempts = [...record.turns.flatMap((turn) => turn.attempts), ...record.failedAttempts];
    const hashes = [...new Set(attempts.flatMap((attempt) => (attempt.callHash === undefined ? [] : [attempt.callHash])))];
    const callRow = this.database.prepare(
      `SELECT c.model, r.name AS run, c.latency_ms, c.retries, c.created_at FROM calls c JOIN runs r ON r.id = c.run_id
       WHERE c.hash IN (@key, @legacy)
       ORDER BY c.run_id = @runId DESC, c.run_id = (SELECT source_run_id FROM call_replays WHERE run_id = @runId AND hash IN (@key, @legacy)) DESC, c.run_id LIMIT 1`,
    );
    // Calls are shared only between conversations on the same claim with the same persuadee (SPEC 1.3).
    const sharers = this.database.prepare(
      `SELECT t.conversation_id, t.turn_index FROM conversations c INDEXED BY conversations_by_claim
       JOIN turns t ON t.run_id = c.run_id AND t.conversation_id = c.id
       WHERE c.run_id = ? AND c.domain = ? AND c.claim_index = ? AND c.persuadee = ? AND c.id != ? AND t.call_hash IN (?, ?)
       ORDER BY t.conversation_id, t.turn_index`,
    );
    return hashes.flatMap((hash) => {
      const key = hashKey(hash);
      const row = callRow.get({ ...key, runId }) as { model: string; run: string; latency_ms: number; retries: number; created_at: string } | undefined;
      if (!row) return [];
      const sharedWith = (
        sharers.all(runId, record.domain, record.claimIndex, record.persuadee, record.conversationId, key.key, key.legacy) as Array<{
          conversation_id: string;
          turn_index: number;
        }>
      ).map((sharer) => ({ conversationId: sharer.conversation_id, turnIndex: sharer.turn_index }));
      return [{ callHash: hash, model: row.model, madeByRun: row.run, latencyMs: row.latency_ms, retries: row.retries, createdAt: row.created_at, sharedWith }];
    });
  }

  techniqueCounts(runId: number, studyRunId: number, judge: string): TechniqueCounts[] {
    this.beforeRead();
    const turns = this.database
      .prepare(
        `SELECT c.domain, c.setting, c.persuader, count(*) FROM turn_labels l JOIN conversations c ON c.run_id = ? AND c.id = l.conversation_id
         WHERE l.run_id = ? AND l.judge = ? AND l.role = 'persuader' AND l.labels IS NOT NULL AND c.status = 'completed'
         GROUP BY c.domain, c.setting, c.persuader ORDER BY c.domain DESC, c.setting DESC, c.persuader`,
      )
      .raw()
      .all(runId, studyRunId, judge) as Array<[Domain, Setting, string, number]>;
    // Technique tags sort together ('technique:' up to 'technique;', the next character): one range of the primary key.
    const used = this.database
      .prepare(
        `SELECT c.domain, c.setting, c.persuader, substr(t.tag, 11), count(*) FROM turn_label_tags t
         JOIN conversations c ON c.run_id = ? AND c.id = t.conversation_id
         WHERE t.run_id = ? AND t.tag >= 'technique:' AND t.tag < 'technique;' AND t.judge = ? AND c.status = 'completed'
         GROUP BY c.domain, c.setting, c.persuader, t.tag ORDER BY t.tag`,
      )
      .raw()
      .all(runId, studyRunId, judge) as Array<[Domain, Setting, string, string, number]>;
    const techniques = new Map<string, Array<{ id: string; usedTurns: number }>>();
    for (const [domain, setting, persuader, id, usedTurns] of used) {
      const key = `${domain}\u0000${setting}\u0000${persuader}`;
      techniques.set(key, [...(techniques.get(key) ?? []), { id, usedTurns }]);
    }
    return turns.map(([domain, setting, persuader, count]) => ({
      domain,
      setting,
      persuader,
      turns: count,
      techniques: techniques.get(`${domain}\u0000${setting}\u0000${persuader}`) ?? [],
    }));
  }

  labelTags(studyRunId: number, judge: string): string[] {
    this.beforeRead();
    // A skip scan of the primary key, one distinct tag at a time, each checked for this judge.
    const next = this.database.prepare('SELECT min(tag) FROM turn_label_tags WHERE run_id = ? AND tag > ?').pluck() as Database.Statement<
      [number, string],
      string | null
    >;
    const byJudge = this.database.prepare('SELECT 1 FROM turn_label_tags WHERE run_id = ? AND tag = ? AND judge = ? LIMIT 1').pluck();
    const tags: string[] = [];
    for (let tag = next.get(studyRunId, ''); tag !== null && tag !== undefined; tag = next.get(studyRunId, tag)) {
      if (byJudge.get(studyRunId, tag, judge) !== undefined) tags.push(tag);
    }
    return tags;
  }

  labelsVersion(): number {
    this.beforeRead();
    return this.database.prepare('SELECT coalesce(max(rowid), 0) FROM turn_labels').pluck().get() as number;
  }
}
