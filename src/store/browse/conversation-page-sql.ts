import { PEOPLE_GROUP } from '../../domain/person-agent.js';
import type { SearchQuery } from '../../domain/search-words.js';
import type { ConversationFilter, ConversationQuery, ConversationSort } from '../../studies/tournament/tournament-browse.js';
import { noteConditions } from '../tables/notes-table.js';
import { CLAIM_COLUMNS, MATCHING_CLAIMS, MATCHING_CONVERSATIONS, matchExpression, messageColumns } from './search-index.js';

/*
 * The SQL of the viewer's conversation list (`ConversationPages`): the order of each sort, the WHERE of
 * each filter, and the statements of each search plan, with their thresholds.
 */

/**
 * Each sort is the order of an index (schema 6), so a page never sorts the run. Failed
 * conversations have no NC: they come first by NC ascending and last by NC descending.
 */
export const ORDER_BY: Record<ConversationSort, string> = {
  pair: 'persuader, persuadee, setting, domain, claim_index, id',
  claim: 'domain, claim_index, setting, persuadee, persuader, id',
  nc: 'nc, id',
  '-nc': 'nc DESC, id DESC',
};

/**
 * How a search is answered (docs/design/view.md, "Search"), chosen by how many messages hold its words
 * (`ConversationPages`), since FTS5 reads a word's list of rows from its start even to find one rowid:
 * `matches` starts from the matching conversations and seeks each (few matches); `index` walks the order's index testing each conversation against the list of matches, built once
 * a statement (a word in up to 5% of messages); `scan` walks the order's index and reads each
 * conversation's own text (a common word: building its list alone took seconds at a million, and most
 * conversations hold it, so a page reads few more than its own rows).
 */
export type SearchPlan = 'matches' | 'index' | 'scan';

/** The thresholds of the plans and counts (SEARCH_LIMITS); tests pass others to try every plan on a small store. */
export interface SearchLimits {
  /** At most this many matching messages (and conversations matching by claim): the `matches` plan, and an exact count. */
  readonly fewMatches: number;
  /** More matching messages than this: the `scan` plan. */
  readonly commonMatches: number;
  /** The `index` plan counts this many matching conversations at most; the total is then a lower bound. */
  readonly countCap: number;
  /** The `scan` plan counts this many at most from the index's list (`scanCountHits` of its first matches), or what its walk found. */
  readonly scanCount: number;
  readonly scanCountHits: number;
  /** A scan reading this many conversations without reaching its page's end gives way to the `index` plan. */
  readonly scanBudget: number;
}

export const SEARCH_LIMITS: SearchLimits = {
  fewMatches: 10_000,
  commonMatches: 300_000,
  countCap: 10_000,
  scanCount: 1_000,
  scanCountHits: 5_000,
  scanBudget: 20_000,
};

/** A filter without its search. */
export function withoutSearch<Filter extends ConversationFilter>(filter: Filter): Omit<Filter, 'search'> {
  const { search: _search, ...rest } = filter;
  return rest;
}

/** The rowids (`hit`) of the conversations a search matches by a message (of any run: the WHERE keeps the run's) or by the run's claims. */
function matchingConversations(runId: number, search: SearchQuery): { sql: string; parameters: unknown[] } {
  const parts: string[] = [];
  const parameters: unknown[] = [];
  const columns = messageColumns(search.field);
  if (columns.length > 0) {
    parts.push(MATCHING_CONVERSATIONS);
    parameters.push(matchExpression(search, columns));
  }
  if (search.field === 'all' || search.field === 'claim') {
    parts.push(`SELECT c.rowid AS hit FROM conversations c WHERE c.run_id = ? AND (c.domain, c.claim_index) IN (${MATCHING_CLAIMS})`);
    parameters.push(runId, runId, matchExpression(search, CLAIM_COLUMNS));
  }
  return { sql: `SELECT DISTINCT hit FROM (${parts.join(' UNION ALL ')})`, parameters };
}

/** The WHERE clause of a filter and its parameters, in order (a search, when the filter has one, tests each conversation against the list of its matches). */
export function whereClause(runId: number, filter: ConversationFilter, purpose: 'page' | 'count' = 'page'): { sql: string; parameters: unknown[] } {
  const conditions = ['run_id = ?'];
  const parameters: unknown[] = [runId];
  const equal = (column: string, value: unknown) => {
    if (value === undefined) return;
    if (value === PEOPLE_GROUP && (column === 'persuader' || column === 'persuadee')) {
      // Every person of a people study: the run page's pooled row links here.
      conditions.push(`substr(${column}, 1, 7) = 'person/'`);
      return;
    }
    conditions.push(`${column} = ?`);
    parameters.push(value);
  };
  equal('persuader', filter.persuader);
  equal('persuadee', filter.persuadee);
  equal('setting', filter.setting);
  equal('domain', filter.domain);
  equal('claim_index', filter.claimIndex);
  equal('status', filter.status);
  equal('failure_reason', filter.failureReason);
  equal('early_stopped', filter.earlyStopped === undefined ? undefined : filter.earlyStopped ? 1 : 0);
  if (filter.ncMin !== undefined) {
    conditions.push('nc >= ?');
    parameters.push(filter.ncMin);
  }
  if (filter.ncMax !== undefined) {
    conditions.push('nc <= ?');
    parameters.push(filter.ncMax);
  }
  if (filter.search) {
    // A conversation matches when one of its messages (of the roles searched) has every term, or its claim with its question has.
    const { field } = filter.search;
    const either: string[] = [];
    const columns = messageColumns(field);
    if (columns.length > 0) {
      either.push(`rowid IN (${MATCHING_CONVERSATIONS})`);
      parameters.push(matchExpression(filter.search, columns));
    }
    if (field === 'all' || field === 'claim') {
      either.push(`(domain, claim_index) IN (${MATCHING_CLAIMS})`);
      parameters.push(runId, matchExpression(filter.search, CLAIM_COLUMNS));
    }
    conditions.push(either.length === 1 ? either[0]! : `(${either.join(' OR ')})`);
  }
  // Each tag seeks turn_label_tags' primary key (run_id, tag, conversation_id, ...), never scanning the labels: a page walks its
  // order's index and seeks each conversation's tag (EXISTS), stopping at the page's end; a count goes from the tag's own rows
  // to the conversations they name (IN), so a rare tag is counted in its rows, not in the run's (docs/design/view.md).
  for (const tag of filter.labels?.tags ?? []) {
    conditions.push(
      purpose === 'page'
        ? 'EXISTS (SELECT 1 FROM turn_label_tags t WHERE t.run_id = ? AND t.tag = ? AND t.conversation_id = conversations.id AND t.judge = ?)'
        : 'id IN (SELECT t.conversation_id FROM turn_label_tags t WHERE t.run_id = ? AND t.tag = ? AND t.judge = ?)',
    );
    parameters.push(filter.labels!.study, tag, filter.labels!.judge);
  }
  if (filter.notes) {
    const notes = noteConditions(runId, filter.notes);
    conditions.push(...notes.conditions);
    parameters.push(...notes.parameters);
  }
  return { sql: conditions.join(' AND '), parameters };
}

/**
 * Whether a page's count may stop at `countCap`: with a search, or a technique or label filter, whose
 * count tests each conversation of the run (a tag on most conversations took 1.1-2.3 s to count at a
 * million, issue 29); the other filters are counted exactly in their covering index.
 */
export const countStops = (query: ConversationQuery): boolean => query.search !== undefined || (query.labels?.tags.length ?? 0) > 0;

/**
 * The two statements of a page (its count, and its rowids with LIMIT ? OFFSET ? to bind after the
 * parameters) in the `matches` or `index` plan; the count of a search or a label filter stops at
 * `countCap` in the `index` plan. Exported for the query plans' tests.
 */
export function conversationPageSql(
  runId: number,
  query: ConversationQuery,
  plan: Exclude<SearchPlan, 'scan'> = 'index',
  countCap = Number.POSITIVE_INFINITY,
): { count: string; countParameters: unknown[]; page: string; parameters: unknown[] } {
  if (query.search && plan === 'matches') {
    const { sql, parameters } = whereClause(runId, withoutSearch(query));
    const counted = whereClause(runId, withoutSearch(query), 'count');
    const matches = matchingConversations(runId, query.search);
    const from = `(${matches.sql}) m CROSS JOIN conversations ON conversations.rowid = m.hit`;
    return {
      count: `SELECT count(*) FROM ${from} WHERE ${counted.sql}`,
      countParameters: [...matches.parameters, ...counted.parameters],
      page: `SELECT conversations.rowid FROM ${from} WHERE ${sql} ORDER BY ${ORDER_BY[query.sort]} LIMIT ? OFFSET ?`,
      parameters: [...matches.parameters, ...parameters],
    };
  }
  const { sql, parameters } = whereClause(runId, query);
  const counted = whereClause(runId, query, 'count');
  const capped = countStops(query) && Number.isFinite(countCap);
  return {
    count: capped
      ? `SELECT count(*) FROM (SELECT 1 FROM conversations WHERE ${counted.sql} LIMIT ${countCap})`
      : `SELECT count(*) FROM conversations WHERE ${counted.sql}`,
    countParameters: counted.parameters,
    // A note filter names few conversations (notes are written by hand): seek each by its key and sort them, rather than
    // walk the order's index over the whole run testing each against the notes' list.
    page: `SELECT rowid FROM conversations${query.notes ? ' INDEXED BY sqlite_autoindex_conversations_1' : ''} WHERE ${sql} ORDER BY ${ORDER_BY[query.sort]} LIMIT ? OFFSET ?`,
    parameters,
  };
}

/**
 * The `scan` plan's count: the conversations among the first `scanCountHits` of the search's matches
 * (in the index's order, rowids) that pass the other filters, `scanCount` at most.
 */
export function scanCountSql(runId: number, query: ConversationQuery & { search: SearchQuery }, limits: SearchLimits): { sql: string; parameters: unknown[] } {
  const matches = matchingConversations(runId, query.search);
  const counted = whereClause(runId, withoutSearch(query), 'count');
  return {
    sql: `SELECT count(*) FROM (SELECT 1 FROM (${matches.sql} LIMIT ${limits.scanCountHits}) m CROSS JOIN conversations ON conversations.rowid = m.hit
          WHERE ${counted.sql} LIMIT ${limits.scanCount})`,
    parameters: [...matches.parameters, ...counted.parameters],
  };
}
