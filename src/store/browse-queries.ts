import type Database from 'better-sqlite3';
import { claimKey, type Domain } from '../domain/claim.js';
import type { FailureReason, Setting } from '../domain/conversation.js';
import type { ConversationRecord } from '../domain/conversation-record.js';
import { PEOPLE_GROUP } from '../domain/person-agent.js';
import type { SearchQuery } from '../domain/search-words.js';
import type {
  CallDetail,
  ClaimCell,
  ConversationFilter,
  ConversationPage,
  ConversationQuery,
  ConversationSort,
  ConversationSummary,
  PairCell,
  PairClaimTotal,
  TechniqueCounts,
  TournamentBrowse,
} from '../studies/tournament/tournament-browse.js';
import { hashKey } from './hash-key.js';
import { noteConditions } from './notes-table.js';
import { decodeRecord } from './record-codec.js';
import { CLAIM_COLUMNS, MATCHING_CLAIMS, MATCHING_CONVERSATIONS, matchExpression, messageColumns, searchBacklog, searchHit } from './search-index.js';

/**
 * Each sort is the order of an index (schema 6), so a page never sorts the run. Failed
 * conversations have no NC: they come first by NC ascending and last by NC descending.
 */
const ORDER_BY: Record<ConversationSort, string> = {
  pair: 'persuader, persuadee, setting, domain, claim_index, id',
  claim: 'domain, claim_index, setting, persuadee, persuader, id',
  nc: 'nc, id',
  '-nc': 'nc DESC, id DESC',
};

/**
 * How a search is answered: `index` walks the order's index and tests each conversation against the
 * matches (a common word: the matches are most of the run); `matches` starts from the matching
 * conversations and seeks each (a rare word: reading the run's index alone took 0.5-2 s at a million).
 */
type SearchPlan = 'index' | 'matches';

/** Below this many matching messages (and conversations matching by claim), a search starts from its matches. */
const FEW_MATCHES = 20_000;

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

/** The WHERE clause of a filter and its parameters, in order (without the search when the plan starts from its matches). */
function whereClause(
  runId: number,
  filter: ConversationFilter,
  purpose: 'page' | 'count' = 'page',
  plan: SearchPlan = 'index',
): { sql: string; parameters: unknown[] } {
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
  if (filter.search && plan === 'index') {
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

/** The two statements of a page (its count, and its rowids with LIMIT ? OFFSET ? to bind after the parameters); exported for the query plan's test. */
export function conversationPageSql(
  runId: number,
  query: ConversationQuery,
  plan: SearchPlan = 'index',
): { count: string; countParameters: unknown[]; page: string; parameters: unknown[] } {
  const { sql, parameters } = whereClause(runId, query, 'page', plan);
  const counted = whereClause(runId, query, 'count', plan);
  if (query.search && plan === 'matches') {
    const matches = matchingConversations(runId, query.search);
    const from = `(${matches.sql}) m CROSS JOIN conversations ON conversations.rowid = m.hit`;
    return {
      count: `SELECT count(*) FROM ${from} WHERE ${counted.sql}`,
      countParameters: [...matches.parameters, ...counted.parameters],
      page: `SELECT conversations.rowid FROM ${from} WHERE ${sql} ORDER BY ${ORDER_BY[query.sort]} LIMIT ? OFFSET ?`,
      parameters: [...matches.parameters, ...parameters],
    };
  }
  return {
    count: `SELECT count(*) FROM conversations WHERE ${counted.sql}`,
    countParameters: counted.parameters,
    // A note filter names few conversations (notes are written by hand): seek each by its key and sort them, rather than
    // walk the order's index over the whole run testing each against the notes' list.
    page: `SELECT rowid FROM conversations${query.notes ? ' INDEXED BY sqlite_autoindex_conversations_1' : ''} WHERE ${sql} ORDER BY ${ORDER_BY[query.sort]} LIMIT ? OFFSET ?`,
    parameters,
  };
}

function toSummary(record: ConversationRecord): ConversationSummary {
  const { turns: _turns, ...summary } = record;
  return summary;
}

/**
 * The store's side of `pmiyc view`: pages, aggregates and call details straight from SQLite. A
 * page selects the rowids of its rows from a covering index (filter, count and order without
 * touching a record) and only then reads those rows' records.
 */
export class BrowseQueries implements TournamentBrowse {
  private readonly selectRecord: Database.Statement<[number], string | Buffer>;

  /** `beforeRead` commits writes still waiting in this process, so that reads see them. */
  constructor(
    private readonly database: Database.Database,
    private readonly beforeRead: () => void = () => undefined,
  ) {
    this.selectRecord = database.prepare<[number], string | Buffer>('SELECT record FROM conversations WHERE rowid = ?').pluck();
  }

  queryConversations(runId: number, query: ConversationQuery): ConversationPage {
    this.beforeRead();
    const plan = query.search && this.fewMatches(runId, query.search) ? 'matches' : 'index';
    const { count, countParameters, page, parameters } = conversationPageSql(runId, query, plan);
    const total = this.database
      .prepare(count)
      .pluck()
      .get(...countParameters) as number;
    const rowids = this.database
      .prepare(page)
      .pluck()
      .all(...parameters, query.limit, query.offset) as number[];
    const records = rowids.map((rowid) => decodeRecord(this.selectRecord.get(rowid)!));
    const items = records.map(toSummary);
    if (!query.search) return { total, items };
    const search = query.search;
    const hits = records.map((record) => searchHit(record, search));
    const unindexed = searchBacklog(this.database);
    return { total, items, hits, ...(unindexed > 0 ? { unindexed } : {}) };
  }

  /** Whether a search has few matches (FEW_MATCHES), counted no further than that. */
  private fewMatches(runId: number, search: SearchQuery): boolean {
    const columns = messageColumns(search.field);
    const counted = (sql: string, ...parameters: unknown[]) =>
      this.database
        .prepare(`SELECT count(*) FROM (${sql} LIMIT ${FEW_MATCHES + 1})`)
        .pluck()
        .get(...parameters) as number;
    let matches = columns.length === 0 ? 0 : counted(MATCHING_CONVERSATIONS, matchExpression(search, columns));
    if (matches <= FEW_MATCHES && (search.field === 'all' || search.field === 'claim')) {
      matches += counted(
        `SELECT 1 FROM conversations c WHERE c.run_id = ? AND (c.domain, c.claim_index) IN (${MATCHING_CLAIMS})`,
        runId,
        runId,
        matchExpression(search, CLAIM_COLUMNS),
      );
    }
    return matches <= FEW_MATCHES;
  }

  pairCells(runId: number): PairCell[] {
    this.beforeRead();
    const rows = this.database
      .prepare(
        `SELECT domain, setting, persuader, persuadee, sum(status = 'completed') AS completed, sum(status = 'failed') AS failed,
           coalesce(sum(early_stopped), 0) AS early_stopped, avg(nc) AS mean_nc
         FROM conversations INDEXED BY conversations_by_pair WHERE run_id = ?
         GROUP BY persuader, persuadee, setting, domain ORDER BY domain DESC, setting DESC, persuader, persuadee`,
      )
      .all(runId) as Array<{
      domain: Domain;
      setting: Setting;
      persuader: string;
      persuadee: string;
      completed: number;
      failed: number;
      early_stopped: number;
      mean_nc: number | null;
    }>;
    return rows.map((row) => ({
      domain: row.domain,
      setting: row.setting,
      persuader: row.persuader,
      persuadee: row.persuadee,
      completed: row.completed,
      failed: row.failed,
      earlyStopped: row.early_stopped,
      meanNc: row.mean_nc,
    }));
  }

  *conversationsInOrder(runId: number, sort: 'pair' | 'claim'): Iterable<ConversationRecord> {
    this.beforeRead();
    // The order's keys come from its covering index, and each record is read by its rowid after (as `conversations()`):
    // a number per conversation is held, never the records, and no statement stays open between records.
    const rowids = this.database.prepare(`SELECT rowid FROM conversations WHERE run_id = ? ORDER BY ${ORDER_BY[sort]}`).pluck().all(runId) as number[];
    for (const rowid of rowids) yield decodeRecord(this.selectRecord.get(rowid)!);
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
