import type Database from 'better-sqlite3';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { markMatches, type SearchField, type SearchQuery, snippetOf } from '../../domain/search-words.js';
import type { SearchHit } from '../../studies/tournament/tournament-browse.js';
import { type StoredMessage, storedMessages } from '../records/record-codec.js';
import { StoredRecordReader } from '../records/stored-record-reader.js';

/*
 * The full-text index of messages (issue 32; docs/design/view.md, "Search"). `message_search` is a
 * contentless FTS5 table: it keeps the index, not the text (the text is in the deflated records).
 * A turn's row is its conversation's rowid * TURN_SLOTS + its index, so a hit names its conversation
 * and turn without a join, and one conversation's rows are one range (deleted at once when it is
 * replaced). The message goes in the column of its role, so a search can keep to one role.
 */

/** Rows per conversation: turns numbered from TURN_SLOTS on are not indexed (no run has that many turns). */
const TURN_SLOTS = 16384;

/** Conversations indexed per transaction by `buildSearchBacklog`. */
const BACKLOG_CHUNK = 2000;

/** The FTS5 expression of a search: each term a quoted phrase (so nothing in it is an operator), all of them required. */
export function matchExpression(query: SearchQuery, columns: readonly string[]): string {
  const terms = query.terms.map((term) => `"${term.tokens.join(' ').replaceAll('"', '""')}"${term.prefix ? '*' : ''}`).join(' AND ');
  return `{${columns.join(' ')}} : (${terms})`;
}

/** The columns of `claim_search`. */
export const CLAIM_COLUMNS = ['claim', 'question'];

/** The message columns a field searches (none for `claim`). */
export function messageColumns(field: SearchField): string[] {
  if (field === 'claim') return [];
  if (field === 'persuader' || field === 'persuadee') return [field];
  return ['persuader', 'persuadee'];
}

/** SQL of the (domain, claim index) of a run's claims (`?`) that match `?` (a `matchExpression` of CLAIM_COLUMNS). */
export const MATCHING_CLAIMS =
  'SELECT k.domain, k.claim_index FROM run_claims k WHERE k.run_id = ? AND k.rowid IN (SELECT rowid FROM claim_search WHERE claim_search MATCH ?)';

/** SQL of the rowids of the conversations with a message matching `?` (a `matchExpression`). */
export const MATCHING_CONVERSATIONS = `SELECT rowid / ${TURN_SLOTS} AS hit FROM message_search WHERE message_search MATCH ?`;

/**
 * How many messages match `expression` (a `matchExpression` of messages): exact up to `sample`; past
 * it an estimate, as if the rest of the index held the words as densely as its first `sample` matches
 * (rows are in the order conversations were stored). Reads no further than `sample` matches: a few
 * milliseconds, where counting a common word's matches, or a phrase's, reads its whole list.
 */
export function estimateMatchingMessages(database: Database.Database, expression: string, sample: number): { exact: boolean; messages: number } {
  const first = database
    .prepare(`SELECT count(*) AS matches, max(rowid) AS last FROM (SELECT rowid FROM message_search WHERE message_search MATCH ? LIMIT ${sample + 1})`)
    .get(expression) as { matches: number; last: number | null };
  if (first.matches <= sample || first.last === null) return { exact: true, messages: first.matches };
  const lastConversation = database.prepare('SELECT coalesce(max(rowid), 0) FROM conversations').pluck().get() as number;
  return { exact: false, messages: Math.round(first.matches * Math.max(1, ((lastConversation + 1) * TURN_SLOTS) / first.last)) };
}

/** Writes and removes a conversation's messages in the index; called in the transaction that stores the conversation. */
export class SearchIndex {
  private readonly insert: Database.Statement;
  private readonly remove: Database.Statement;
  private readonly shortenBacklog: Database.Statement;

  constructor(database: Database.Database) {
    this.insert = database.prepare('INSERT INTO message_search (rowid, persuader, persuadee) VALUES (?, ?, ?)');
    // One row at a time: FTS5 answers a range of rowids by reading every row (19 conversations a second on 20,000).
    this.remove = database.prepare('DELETE FROM message_search WHERE rowid = ?');
    this.shortenBacklog = database.prepare('UPDATE search_backlog SET last_rowid = ? - 1 WHERE last_rowid >= ?');
  }

  /**
   * Indexes a conversation stored now. A new row's rowid is one more than the largest, so it falls in
   * the backlog's range only when the rows after it are gone: the range then ends before it, so that
   * `pmiyc upgrade` does not index it twice.
   */
  addStored(conversationRowid: number | bigint, messages: readonly StoredMessage[]): void {
    this.shortenBacklog.run(conversationRowid, conversationRowid);
    this.add(conversationRowid, messages);
  }

  add(conversationRowid: number | bigint, messages: readonly StoredMessage[]): void {
    const base = BigInt(conversationRowid) * BigInt(TURN_SLOTS);
    for (const { index, role, message } of messages) {
      if (index < 0 || index >= TURN_SLOTS || message === '') continue;
      this.insert.run(base + BigInt(index), role === 'persuader' ? message : null, role === 'persuadee' ? message : null);
    }
  }

  /** Removes a conversation's rows (its turns' indexes, as the turns table has them), before it is replaced. */
  removeConversation(conversationRowid: number | bigint, turnIndexes: readonly number[]): void {
    const base = BigInt(conversationRowid) * BigInt(TURN_SLOTS);
    for (const index of turnIndexes) if (index >= 0 && index < TURN_SLOTS) this.remove.run(base + BigInt(index));
  }
}

/** How many stored conversations wait to be indexed (stored before the index existed). */
export function searchBacklog(database: Database.Database): number {
  const range = database.prepare('SELECT next_rowid, last_rowid FROM search_backlog').get() as { next_rowid: number; last_rowid: number } | undefined;
  if (!range) return 0;
  // Counted in the smallest index (ids and rowids): a rowid range of the table itself reads every record in it.
  return database
    .prepare('SELECT count(*) FROM conversations INDEXED BY conversations_by_id WHERE rowid BETWEEN ? AND ?')
    .pluck()
    .get(range.next_rowid, range.last_rowid) as number;
}

/**
 * Indexes the conversations stored before the index existed, BACKLOG_CHUNK per transaction (each
 * IMMEDIATE, so a run writing meanwhile waits a moment, never longer), reporting how many are done.
 * Stops where it is when interrupted and goes on from there the next time. A conversation stored
 * meanwhile is indexed as it is stored, and never in the range (`SearchIndex.addStored`).
 */
export function buildSearchBacklog(database: Database.Database, onProgress: (done: number, total: number) => void = () => undefined): number {
  const total = searchBacklog(database);
  const index = new SearchIndex(database);
  const records = new StoredRecordReader(database);
  const messagesOf = (row: { rowid: number; record: string | Buffer }): StoredMessage[] => {
    try {
      return storedMessages(row.record);
    } catch (error) {
      throw records.damaged(row.rowid, error);
    }
  };
  const range = database.prepare('SELECT next_rowid, last_rowid FROM search_backlog');
  const chunk = database.prepare('SELECT rowid, record FROM conversations WHERE rowid BETWEEN ? AND ? ORDER BY rowid LIMIT ?');
  const advance = database.prepare('UPDATE search_backlog SET next_rowid = ?');
  const finish = database.prepare('DELETE FROM search_backlog');
  let done = 0;
  for (;;) {
    const step = database
      .transaction(() => {
        const current = range.get() as { next_rowid: number; last_rowid: number } | undefined;
        if (!current) return 0;
        const rows = chunk.all(current.next_rowid, current.last_rowid, BACKLOG_CHUNK) as Array<{ rowid: number; record: string | Buffer }>;
        for (const row of rows) index.add(row.rowid, messagesOf(row));
        if (rows.length < BACKLOG_CHUNK) finish.run();
        else advance.run(rows.at(-1)!.rowid + 1);
        return rows.length;
      })
      .immediate();
    done += step;
    if (step === 0) break;
    onProgress(done, total);
    if (step < BACKLOG_CHUNK) break;
  }
  return done;
}

/**
 * Where a search found one conversation of a page: its turns whose message (of the roles searched) has
 * every term, found in the record's text by `markMatches` (asking the index again per conversation
 * read a common word's whole list of rows each time: seconds a page), and a snippet of the first,
 * else of its claim or question.
 */
export function searchHit(record: ConversationRecord, search: SearchQuery): SearchHit {
  const roles = messageColumns(search.field);
  const matching = record.turns.flatMap((turn) => {
    if (!roles.includes(turn.role)) return [];
    const marks = markMatches(turn.message, search.terms);
    return hasEveryTerm(turn.message, marks, search) ? [{ turn, marks }] : [];
  });
  const base = { conversationId: record.conversationId, turns: matching.map(({ turn }) => turn.index) };
  const first = matching[0];
  if (first) return { ...base, in: 'message', turn: first.turn.index, role: first.turn.role, snippet: snippetOf(first.turn.message, first.marks) };
  const claimMarks = markMatches(record.claim, search.terms);
  const question = record.question ?? '';
  const questionMarks = markMatches(question, search.terms);
  if (claimMarks.length === 0 && questionMarks.length > 0)
    return { ...base, in: 'question', turn: null, role: null, snippet: snippetOf(question, questionMarks) };
  return { ...base, in: 'claim', turn: null, role: null, snippet: snippetOf(record.claim, claimMarks) };
}

/** Whether the marks of a text cover every term (the index's AND), each found again on its own. */
function hasEveryTerm(text: string, marks: ReadonlyArray<readonly [number, number]>, search: SearchQuery): boolean {
  if (marks.length === 0) return false;
  return search.terms.every((term) => markMatches(text, [term]).length > 0);
}

/**
 * Whether one of a conversation's messages in the roles searched (`messageColumns`) has every term,
 * read in its own text as `searchHit` reads it: how the `scan` plan tests a conversation, since asking
 * the index about one conversation reads a common word's list of rows from its start.
 */
export function messagesMatch(messages: readonly StoredMessage[], search: SearchQuery, roles: readonly string[]): boolean {
  return messages.some(({ role, message }) => roles.includes(role) && hasEveryTerm(message, markMatches(message, search.terms), search));
}
