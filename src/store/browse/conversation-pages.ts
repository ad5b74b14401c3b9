import type Database from 'better-sqlite3';
import type { Domain } from '../../domain/claim.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import type { SearchQuery } from '../../domain/search-words.js';
import type { ConversationPage, ConversationQuery, ConversationSummary, DamagedConversation } from '../../studies/tournament/tournament-browse.js';
import type { StoredMessage } from '../records/record-codec.js';
import { isDamagedRecord, StoredRecordReader } from '../records/stored-record-reader.js';
import {
  conversationPageSql,
  countStops,
  ORDER_BY,
  SEARCH_LIMITS,
  type SearchLimits,
  type SearchPlan,
  scanCountSql,
  whereClause,
  withoutSearch,
} from './conversation-page-sql.js';
import {
  CLAIM_COLUMNS,
  estimateMatchingMessages,
  MATCHING_CLAIMS,
  matchExpression,
  messageColumns,
  messagesMatch,
  searchBacklog,
  searchHit,
} from './search-index.js';

/** A page's records and count, before they become summaries. */
interface SearchedPage {
  readonly total: number;
  readonly totalIsLowerBound: boolean;
  readonly records: ConversationRecord[];
  /** The page's conversations whose records do not decode, left out of `records`. */
  readonly damaged: DamagedConversation[];
}

function toSummary(record: ConversationRecord): ConversationSummary {
  const { turns: _turns, ...summary } = record;
  return summary;
}
/**
 * A run's conversations, filtered, sorted and paged (`pmiyc view`'s list). A page selects the rowids
 * of its rows from a covering index (filter, count and order without touching a record) and only then
 * reads those rows' records; a search takes one of three plans (`SearchPlan`).
 */
export class ConversationPages {
  private readonly records: StoredRecordReader;

  constructor(
    private readonly database: Database.Database,
    private readonly limits: SearchLimits = SEARCH_LIMITS,
  ) {
    this.records = new StoredRecordReader(database);
  }

  /** A page and its count, read in one transaction: a run writing meanwhile cannot shift a scan's steps or the count against the page. */
  query(runId: number, query: ConversationQuery): ConversationPage {
    return this.database.transaction(() => this.read(runId, query))();
  }

  private read(runId: number, query: ConversationQuery): ConversationPage {
    const { search } = query;
    if (!search) return this.summaries(this.sqlPage(runId, query, 'index'));
    const plan = this.searchPlan(runId, search);
    const page = (plan === 'scan' && this.scanPage(runId, { ...query, search })) || this.sqlPage(runId, query, plan === 'scan' ? 'index' : plan);
    const hits = page.records.map((record) => searchHit(record, search));
    const unindexed = searchBacklog(this.database);
    return { ...this.summaries(page), hits, ...(unindexed > 0 ? { unindexed } : {}) };
  }

  private summaries({ total, totalIsLowerBound, records, damaged }: SearchedPage): ConversationPage {
    return { total, ...(totalIsLowerBound ? { totalIsLowerBound } : {}), items: records.map(toSummary), ...(damaged.length > 0 ? { damaged } : {}) };
  }

  /** A page's records by rowid; one that does not decode is set apart with its problem, so that the rest of the page is shown. */
  private pageRecords(rowids: readonly number[]): Pick<SearchedPage, 'records' | 'damaged'> {
    const damaged: DamagedConversation[] = [];
    const records = rowids.flatMap((rowid) => {
      const record = this.records.recordOrSkip(rowid, (error) => damaged.push({ conversationId: error.record!.conversationId, problem: error.message }));
      return record ? [record] : [];
    });
    return { records, damaged };
  }

  /** A page of the `matches` or `index` plan (or without a search): its count and rowids from SQL, then its records. */
  private sqlPage(runId: number, query: ConversationQuery, plan: 'matches' | 'index'): SearchedPage {
    const cap = plan === 'index' ? this.limits.countCap : Number.POSITIVE_INFINITY;
    const { count, countParameters, page, parameters } = conversationPageSql(runId, query, plan, cap);
    const total = this.database
      .prepare(count)
      .pluck()
      .get(...countParameters) as number;
    const rowids = this.database
      .prepare(page)
      .pluck()
      .all(...parameters, query.limit, query.offset) as number[];
    return { total, totalIsLowerBound: countStops(query) && total >= cap, ...this.pageRecords(rowids) };
  }

  /** A record's messages for the scan's test; none when its record does not decode (the page then shows it as damaged, if it is on it). */
  private messagesOrNone(rowid: number): StoredMessage[] {
    try {
      return this.records.messages(rowid);
    } catch (error) {
      if (isDamagedRecord(error)) return [];
      throw error;
    }
  }

  /**
   * A page of the `scan` plan: walks the order's index (with the other filters) in growing steps and
   * tests each conversation's claim (against the run's matching claims) and messages (its record's own
   * text, as `searchHit` reads it) until one past the page's end; undefined when that takes more than
   * `scanBudget` conversations (a word common in other runs but rare in this one's), for the `index`
   * plan to answer. The total is exact when the walk reached the end, else a lower bound: the more of
   * what it found and what the scan count found.
   */
  private scanPage(runId: number, query: ConversationQuery & { search: SearchQuery }): SearchedPage | undefined {
    const { search } = query;
    const filter = whereClause(runId, withoutSearch(query));
    const step = this.database
      .prepare(`SELECT rowid, domain, claim_index FROM conversations WHERE ${filter.sql} ORDER BY ${ORDER_BY[query.sort]} LIMIT ? OFFSET ?`)
      .raw();
    const claims = new Set(
      search.field === 'all' || search.field === 'claim'
        ? (this.database.prepare(MATCHING_CLAIMS).raw().all(runId, matchExpression(search, CLAIM_COLUMNS)) as Array<[Domain, number]>).map(
            ([domain, claimIndex]) => `${domain}\u0000${claimIndex}`,
          )
        : [],
    );
    const roles = messageColumns(search.field);
    const end = query.offset + query.limit;
    const rowids: number[] = [];
    let found = 0;
    let read = 0;
    // The walk ends one past the page's end (the total is then a lower bound), or at the filter's last conversation (exact).
    for (let size = 256, exhausted = false; found <= end && !exhausted; size = Math.min(size * 2, 8192)) {
      if (read >= this.limits.scanBudget) return undefined;
      const rows = step.all(...filter.parameters, size, read) as Array<[number, Domain, number]>;
      exhausted = rows.length < size;
      for (const [rowid, domain, claimIndex] of rows) {
        read += 1;
        const matches = claims.has(`${domain}\u0000${claimIndex}`) || (roles.length > 0 && messagesMatch(this.messagesOrNone(rowid), search, roles));
        if (!matches) continue;
        found += 1;
        if (found > query.offset && found <= end) rowids.push(rowid);
        if (found > end) break;
      }
    }
    const page = this.pageRecords(rowids);
    if (found <= end) return { total: found, totalIsLowerBound: false, ...page };
    const counted = scanCountSql(runId, query, this.limits);
    const listed = this.database
      .prepare(counted.sql)
      .pluck()
      .get(...counted.parameters) as number;
    return { total: Math.max(found, listed), totalIsLowerBound: true, ...page };
  }

  /**
   * The plan of a search, from how many messages hold its words (exact up to `fewMatches`, else
   * estimated from the first of them: `estimateMatchingMessages`) and, for a claim, how many
   * conversations its claims have (counted no further than `fewMatches`). An estimate that is off
   * costs time, never a different answer: every plan gives the same pages.
   */
  private searchPlan(runId: number, search: SearchQuery): SearchPlan {
    const columns = messageColumns(search.field);
    const { exact, messages } =
      columns.length === 0 ? { exact: true, messages: 0 } : estimateMatchingMessages(this.database, matchExpression(search, columns), this.limits.fewMatches);
    if (messages > this.limits.commonMatches) return 'scan';
    if (!exact || messages > this.limits.fewMatches) return 'index';
    if (search.field !== 'all' && search.field !== 'claim') return 'matches';
    const byClaim = this.database
      .prepare(
        `SELECT count(*) FROM (SELECT 1 FROM conversations c WHERE c.run_id = ? AND (c.domain, c.claim_index) IN (${MATCHING_CLAIMS}) LIMIT ${this.limits.fewMatches + 1})`,
      )
      .pluck()
      .get(runId, runId, matchExpression(search, CLAIM_COLUMNS)) as number;
    return messages + byClaim <= this.limits.fewMatches ? 'matches' : 'index';
  }
}
