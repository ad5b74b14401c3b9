import type Database from 'better-sqlite3';
import type { Claim } from '../../domain/claim.js';
import type { ConversationRecord, ConversationScore } from '../../domain/conversation-record.js';
import type { StoredConversation, TournamentResults } from '../../studies/tournament/tournament-results.js';
import { SearchIndex } from '../browse/search-index.js';
import type { CommitQueue } from '../commit-queue.js';
import { hashKey } from '../records/hash-key.js';
import { encodeRecord } from '../records/record-codec.js';
import { type OnDamagedRecord, StoredRecordReader } from '../records/stored-record-reader.js';

/** The order a run's conversations are read in: a report, an export and the closing table agree on it. */
const CONVERSATION_ORDER = 'ORDER BY domain DESC, setting DESC, claim_index, persuader, persuadee, id';

const callHashKey = (hash: string | undefined) => (hash === undefined ? null : hashKey(hash).key);

/**
 * A tournament's conversations in the store: each with its turns and its claim, written in the
 * store's commit queue after the calls it rests on; reads commit the queue first (but for
 * `conversationStatus`) and stream.
 */
export class ConversationTable implements TournamentResults {
  private readonly insertClaim: Database.Statement;
  private readonly deleteConversation: Database.Statement;
  private readonly insertConversation: Database.Statement;
  private readonly insertTurn: Database.Statement;
  private readonly deleteTurns: Database.Statement;
  private readonly selectStatus: Database.Statement<[number, string], string>;
  private readonly selectRowid: Database.Statement<[number, string], number>;
  private readonly selectTurnIndexes: Database.Statement<[number, string], number>;
  private readonly search: SearchIndex;
  private readonly records: StoredRecordReader;

  constructor(
    private readonly database: Database.Database,
    private readonly commits: CommitQueue,
  ) {
    // Delete, then insert, as for calls (call-table.ts): no statement journal in a batch's transaction.
    this.deleteConversation = database.prepare('DELETE FROM conversations WHERE run_id = ? AND id = ?');
    this.insertConversation = database.prepare(
      `INSERT INTO conversations (run_id, id, domain, setting, persuader, persuadee, claim_index, status, nc, early_stopped, failure_reason, record)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertClaim = database.prepare('INSERT OR IGNORE INTO run_claims (run_id, domain, claim_index, claim, question) VALUES (?, ?, ?, ?, ?)');
    this.insertTurn = database.prepare(
      'INSERT INTO turns (run_id, conversation_id, turn_index, role, kind, score, attempts, call_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.deleteTurns = database.prepare('DELETE FROM turns WHERE run_id = ? AND conversation_id = ?');
    this.selectStatus = database.prepare<[number, string], string>('SELECT status FROM conversations WHERE run_id = ? AND id = ?').pluck();
    this.selectRowid = database.prepare<[number, string], number>('SELECT rowid FROM conversations WHERE run_id = ? AND id = ?').pluck();
    this.selectTurnIndexes = database.prepare<[number, string], number>('SELECT turn_index FROM turns WHERE run_id = ? AND conversation_id = ?').pluck();
    this.search = new SearchIndex(database);
    this.records = new StoredRecordReader(database);
  }

  /**
   * Stores one finished conversation and its turns (replacing an earlier record of the same id) in
   * the next commit, after the calls queued before it; resolves once committed.
   */
  saveConversation(runId: number, record: ConversationRecord): Promise<void> {
    return this.commits.enqueue(() => this.writeConversation(runId, record));
  }

  private writeConversation(runId: number, record: ConversationRecord): void {
    // The messages go into the search index in the same transaction, under the conversation's new rowid.
    const replaced = this.selectRowid.get(runId, record.conversationId);
    if (replaced !== undefined) this.search.removeConversation(replaced, this.selectTurnIndexes.all(runId, record.conversationId));
    this.deleteConversation.run(runId, record.conversationId);
    const { lastInsertRowid } = this.insertConversation.run(
      runId,
      record.conversationId,
      record.domain,
      record.setting,
      record.persuader,
      record.persuadee,
      record.claimIndex,
      record.status,
      record.normalizedChange,
      record.earlyStopped === null ? null : record.earlyStopped ? 1 : 0,
      record.failureReason,
      encodeRecord(record),
    );
    this.search.addStored(lastInsertRowid, record.turns);
    this.insertClaim.run(runId, record.domain, record.claimIndex, record.claim, record.question);
    this.deleteTurns.run(runId, record.conversationId);
    for (const turn of record.turns) {
      this.insertTurn.run(
        runId,
        record.conversationId,
        turn.index,
        turn.role,
        turn.kind,
        turn.score,
        turn.attempts.length,
        callHashKey(turn.attempts.at(-1)?.callHash),
      );
    }
  }

  /**
   * 'completed', 'failed', or undefined when the conversation is not stored yet. Reads what is
   * committed, without committing the queue first: it is asked before a conversation runs, never
   * after, and forcing a commit at every conversation start would split the queue's batches.
   */
  conversationStatus(runId: number, conversationId: string): 'completed' | 'failed' | undefined {
    return this.selectStatus.get(runId, conversationId) as 'completed' | 'failed' | undefined;
  }

  countConversations(runId: number, status?: 'completed' | 'failed'): number {
    this.commits.flush();
    return (
      status === undefined
        ? this.database.prepare('SELECT count(*) FROM conversations WHERE run_id = ?').pluck().get(runId)
        : this.database.prepare('SELECT count(*) FROM conversations WHERE run_id = ? AND status = ?').pluck().get(runId, status)
    ) as number;
  }

  /**
   * Streams a run's conversations (or only those with a status) in a stable order, each checked against
   * the record schema. A record that does not decode is a damaged store (a StoreError naming it), or,
   * with `onDamaged`, is told to it and skipped.
   */
  *conversations(runId: number, status?: 'completed' | 'failed', onDamaged?: OnDamagedRecord): Generator<ConversationRecord> {
    this.commits.flush();
    // The order is sorted on keys from a covering index, and each record read by its rowid after:
    // sorting the records themselves made SQLite's sorter hold the whole run (200 MB at 263k conversations).
    const rowids = (
      status === undefined
        ? this.database.prepare(`SELECT rowid FROM conversations WHERE run_id = ? ${CONVERSATION_ORDER}`).pluck().all(runId)
        : this.database.prepare(`SELECT rowid FROM conversations WHERE run_id = ? AND status = ? ${CONVERSATION_ORDER}`).pluck().all(runId, status)
    ) as number[];
    for (const rowid of rowids) {
      const record = onDamaged ? this.records.recordOrSkip(rowid, onDamaged) : this.records.record(rowid);
      if (record) yield record;
    }
  }

  /**
   * What scoring needs of each of a run's conversations, in the order of `conversations()`, read from
   * the columns (a covering index) and the run's claims instead of decoding every record: the
   * closing table of `pmiyc run` is these, summarized.
   */
  *conversationScores(runId: number): Generator<ConversationScore> {
    this.commits.flush();
    const claims = new Map<string, Pick<ConversationScore, 'claim' | 'question'>>();
    const claimRows = this.database.prepare('SELECT domain, claim_index, claim, question FROM run_claims WHERE run_id = ?').all(runId) as Array<{
      domain: string;
      claim_index: number;
      claim: string;
      question: string | null;
    }>;
    for (const row of claimRows) claims.set(`${row.domain}/${row.claim_index}`, { claim: row.claim, question: row.question });
    const rows = this.database
      .prepare(
        `SELECT domain, setting, status, persuader, persuadee, claim_index, nc, failure_reason FROM conversations WHERE run_id = ? ${CONVERSATION_ORDER}`,
      )
      .iterate(runId) as IterableIterator<
      Omit<ConversationScore, 'claim' | 'question' | 'normalizedChange' | 'failureReason'> & {
        claim_index: number;
        nc: number | null;
        failure_reason: ConversationScore['failureReason'];
      }
    >;
    for (const { claim_index, nc, failure_reason, ...row } of rows) {
      const claim = claims.get(`${row.domain}/${claim_index}`);
      // Written in the same commit as the conversation, always.
      if (!claim) throw new RangeError(`claim ${claim_index} (${row.domain}) of run ${runId} is missing: the store is damaged`);
      yield { ...row, ...claim, normalizedChange: nc, failureReason: failure_reason };
    }
  }

  /** The scores of a run's conversations of these claims only (a sequential run's wave): a seek per claim, not a scan of the run. */
  *claimScores(runId: number, claims: readonly Pick<Claim, 'index' | 'domain' | 'claim' | 'question'>[]): Generator<ConversationScore> {
    this.commits.flush();
    const select = this.database.prepare(
      'SELECT domain, setting, status, persuader, persuadee, nc, failure_reason FROM conversations WHERE run_id = ? AND domain = ? AND claim_index = ? ORDER BY setting DESC, persuader, persuadee, id',
    );
    for (const claim of claims) {
      const rows = select.iterate(runId, claim.domain, claim.index) as IterableIterator<
        Omit<ConversationScore, 'claim' | 'question' | 'normalizedChange' | 'failureReason'> & {
          nc: number | null;
          failure_reason: ConversationScore['failureReason'];
        }
      >;
      for (const { nc, failure_reason, ...row } of rows)
        yield { ...row, claim: claim.claim, question: claim.question ?? null, normalizedChange: nc, failureReason: failure_reason };
    }
  }

  conversationsWithId(conversationId: string): StoredConversation[] {
    this.commits.flush();
    const rows = this.database
      .prepare('SELECT r.name AS run, c.rowid AS rowid FROM conversations c JOIN runs r ON r.id = c.run_id WHERE c.id = ? ORDER BY c.run_id DESC')
      .all(conversationId) as Array<{ run: string; rowid: number }>;
    return rows.map((row) => ({ run: row.run, record: this.records.record(row.rowid) }));
  }

  /** Per persuadee model, over every run stored: in-loop replies, and how many were 5 (an early stop). */
  earlyStopCounts(): Map<string, { replies: number; stops: number }> {
    this.commits.flush();
    const rows = this.database
      .prepare(
        `SELECT c.persuadee AS model, count(*) AS replies, sum(t.score = 5) AS stops
         FROM turns t JOIN conversations c ON c.run_id = t.run_id AND c.id = t.conversation_id
         WHERE t.kind = 'reply' GROUP BY c.persuadee`,
      )
      .all() as Array<{ model: string; replies: number; stops: number }>;
    return new Map(rows.map((row) => [row.model, { replies: row.replies, stops: row.stops }]));
  }
}
