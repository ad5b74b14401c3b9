import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handRecord } from '../../../test/support/hand-records.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { parseSearchText, type SearchField } from '../../domain/search-words.js';
import type { ConversationPage, ConversationQuery } from '../../studies/tournament/tournament-browse.js';
import { ResultStore } from '../result-store.js';
import { BrowseQueries } from './browse-queries.js';
import { conversationPageSql, SEARCH_LIMITS, type SearchLimits } from './conversation-page-sql.js';
import { estimateMatchingMessages, matchExpression, messageColumns } from './search-index.js';

const OLD_STORE = fileURLToPath(new URL('../../../test/fixtures/stores/schema-6-interrupted.db', import.meta.url));

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-search-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** A conversation whose turn 4 (the persuader's second argument) says `word`; every other turn says something plain. */
function recordSaying(claim: string, word: string, turnOfWord = 4): ConversationRecord {
  return handRecord({
    run: 'r',
    persuader: 'sim/a',
    persuadee: 'sim/b',
    claim,
    turns: 7,
    persuadeeScores: [2, 3, 3],
    final: 4,
    message: (index) => (index === turnOfWord ? `Consider, my friend, the ${word} of it all.` : `Turn ${index} says nothing special.`),
  });
}

const search = (store: ResultStore, runId: number, text: string, field: SearchField = 'all'): ConversationPage =>
  store.browse.queryConversations(runId, { search: { terms: parseSearchText(text), field }, sort: 'pair', limit: 50, offset: 0 });

describe('the full-text index of messages', () => {
  it('finds a stored message by a word in it, names its turn and role, and marks the word in a snippet', async () => {
    const store = ResultStore.open(join(folder, 'pmiyc.db'));
    const run = store.createRun({ name: 'r', seed: 0, packageVersion: '0', config: {} });
    await store.saveConversation(run.id, recordSaying('c1 Cats', 'Serendipity'));
    await store.saveConversation(run.id, recordSaying('c2 Dogs', 'weather'));

    const found = search(store, run.id, 'serendipity');
    expect(found.total).toBe(1);
    expect(found.items[0]!.claim).toBe('c1 Cats');
    expect(found.hits).toEqual([
      {
        conversationId: found.items[0]!.conversationId,
        in: 'message',
        turn: 4,
        role: 'persuader',
        turns: [4],
        snippet: { text: 'Consider, my friend, the Serendipity of it all.', start: 0, cut: false, marks: [[25, 36]] },
      },
    ]);
    expect(found.unindexed).toBeUndefined();
    // The word is the persuader's: a search of the persuadee's messages, or of the claims, does not find it.
    expect(search(store, run.id, 'serendipity', 'persuader').total).toBe(1);
    expect(search(store, run.id, 'serendipity', 'persuadee').total).toBe(0);
    expect(search(store, run.id, 'serendipity', 'claim').total).toBe(0);
    // Every word must be in one message: two words of two different turns find nothing.
    expect(search(store, run.id, 'serendipity special').total).toBe(0);
    expect(search(store, run.id, 'turn special').total).toBe(2);
    // Diacritics and case do not matter, as in the index.
    expect(search(store, run.id, 'SÉRENDIPITY').total).toBe(1);
    store.close();
  });

  it('forgets the messages of a conversation that is replaced (a retried failure), in the same commit', async () => {
    const store = ResultStore.open(join(folder, 'pmiyc.db'));
    const run = store.createRun({ name: 'r', seed: 0, packageVersion: '0', config: {} });
    await store.saveConversation(run.id, recordSaying('c1 Cats', 'Serendipity'));
    await store.saveConversation(run.id, recordSaying('c1 Cats', 'happenstance'));
    expect(search(store, run.id, 'serendipity').total).toBe(0);
    expect(search(store, run.id, 'happenstance').total).toBe(1);
    store.close();
  });

  it('treats quotes, operators and column names in a query as plain words', async () => {
    const store = ResultStore.open(join(folder, 'pmiyc.db'));
    const run = store.createRun({ name: 'r', seed: 0, packageVersion: '0', config: {} });
    await store.saveConversation(run.id, recordSaying('c1 Cats', 'AND-or NOT near'));
    for (const text of [
      '"',
      'AND(',
      'serendipity OR',
      'NEAR(a b)',
      'persuadee: cats',
      '{persuader}:x',
      '-cats',
      '^cats',
      'a"b',
      '"unclosed phrase',
      '*',
      'x AND',
    ]) {
      const terms = (() => {
        try {
          return parseSearchText(text);
        } catch (error) {
          expect(error).toBeInstanceOf(RangeError);
          return undefined;
        }
      })();
      if (terms) expect(() => store.browse.queryConversations(run.id, { search: { terms, field: 'all' }, sort: 'pair', limit: 5, offset: 0 })).not.toThrow();
    }
    // Words that are operators to FTS5 are words here: the message says "AND-or NOT near".
    expect(search(store, run.id, 'and or not near').total).toBe(1);
    expect(search(store, run.id, 'NOT').total).toBe(1);
    store.close();
  });
});

describe('the two plans of a search', () => {
  it('give the same count and the same pages: from the matches (few) and along the order index (many)', async () => {
    const path = join(folder, 'pmiyc.db');
    const store = ResultStore.open(path);
    const run = store.createRun({ name: 'r', seed: 0, packageVersion: '0', config: {} });
    for (const [claim, word] of [
      ['c1 Cats purr', 'serendipity'],
      ['c2 Dogs bark', 'serendipity'],
      ['c3 Serendipity is real', 'weather'],
      ['c4 Owls hoot', 'weather'],
    ] as const) {
      await store.saveConversation(run.id, recordSaying(claim, word));
    }
    store.close();
    const database = new Database(path, { readonly: true });
    for (const [text, field, sort] of [
      ['serendipity', 'all', 'pair'],
      ['serendipity', 'messages', 'claim'],
      ['serendipity', 'claim', 'nc'],
      ['turn', 'persuadee', '-nc'],
      ['weather', 'persuader', 'pair'],
    ] as const) {
      const query = { search: { terms: parseSearchText(text), field }, sort, limit: 2, offset: 1 } as const;
      const answers = (['index', 'matches'] as const).map((plan) => {
        const sql = conversationPageSql(run.id, query, plan);
        return {
          total: database
            .prepare(sql.count)
            .pluck()
            .get(...sql.countParameters),
          page: database
            .prepare(sql.page)
            .pluck()
            .all(...sql.parameters, query.limit, query.offset),
        };
      });
      expect(answers[0], `${text} in ${field}`).toEqual(answers[1]);
    }
    expect(
      database
        .prepare(
          conversationPageSql(run.id, { search: { terms: parseSearchText('serendipity'), field: 'all' }, sort: 'pair', limit: 9, offset: 0 }, 'matches').count,
        )
        .pluck()
        .get(
          ...conversationPageSql(run.id, { search: { terms: parseSearchText('serendipity'), field: 'all' }, sort: 'pair', limit: 9, offset: 0 }, 'matches')
            .countParameters,
        ),
    ).toBe(3);
    database.close();
  });
});

describe('the three plans of a search', () => {
  const BIG = 1e9;
  /** Limits that force each plan: every search is then answered by it, whatever its number of matches. */
  const PLANS: Record<string, SearchLimits> = {
    matches: { ...SEARCH_LIMITS, fewMatches: BIG, commonMatches: BIG },
    index: { ...SEARCH_LIMITS, fewMatches: -1, commonMatches: BIG, countCap: BIG },
    scan: { ...SEARCH_LIMITS, fewMatches: -1, commonMatches: -1, scanBudget: BIG },
  };

  /** 48 conversations (two persuaders, 24 claims, NC varied): `lantern` in most persuader messages, `quince` in three, `Lantern` in claim 5. */
  async function storeOfMany(path: string): Promise<number> {
    const store = ResultStore.open(path);
    const run = store.createRun({ name: 'r', seed: 0, packageVersion: '0', config: {} });
    const other = store.createRun({ name: 'other', seed: 0, packageVersion: '0', config: {} });
    for (let claim = 1; claim <= 24; claim += 1) {
      for (const persuader of ['sim/a', 'sim/c']) {
        const number = claim * 2 + (persuader === 'sim/a' ? 0 : 1);
        const says = (index: number) =>
          [
            index % 2 === 0 && number % 4 !== 0 ? `The lantern of turn ${index} glows.` : `Turn ${index} is plain.`,
            index === 2 && [7, 20, 41].includes(number) ? 'a quince too' : '',
            index === 3 ? 'I reply with a lantern fish' : '',
          ].join(' ');
        const record = handRecord({
          run: 'r',
          persuader,
          persuadee: 'sim/b',
          claim: claim === 5 ? `c${claim} Lantern makers matter` : `c${claim} Claim ${claim}`,
          turns: 7,
          persuadeeScores: [2, ((number % 3) + 2) as 2 | 3 | 4, 3],
          final: ((number % 5) + 1) as 1 | 2 | 3 | 4 | 5,
          message: says,
        });
        await store.saveConversation(run.id, record);
      }
    }
    // Another run's conversations hold the words too: a search keeps to its run.
    await store.saveConversation(other.id, recordSaying('c1 Lantern', 'quince'));
    store.close();
    return run.id;
  }

  it('give the same totals, pages and hits, whatever the words, field, order, filter and page', async () => {
    const path = join(folder, 'many.db');
    const runId = await storeOfMany(path);
    const database = new Database(path, { readonly: true });
    const browsers = Object.entries(PLANS).map(([plan, limits]) => [plan, new BrowseQueries(database, undefined, limits)] as const);
    let compared = 0;
    for (const text of ['lantern', 'quince', 'lantern quince', '"lantern fish"', 'lant*', 'makers', 'absent']) {
      for (const field of ['all', 'claim', 'messages', 'persuader', 'persuadee'] as const) {
        for (const [sort, persuader, offset] of [
          ['pair', undefined, 0],
          ['nc', 'sim/c', 0],
          ['-nc', undefined, 5],
          ['claim', 'sim/a', 3],
        ] as const) {
          const query: ConversationQuery = { search: { terms: parseSearchText(text), field }, sort, limit: 4, offset, ...(persuader ? { persuader } : {}) };
          const answers = browsers.map(([plan, browse]) => {
            const page = browse.queryConversations(runId, query);
            return [
              plan,
              { total: page.total, exact: page.totalIsLowerBound === undefined, ids: page.items.map((item) => item.conversationId), hits: page.hits },
            ] as const;
          });
          const [, exact] = answers.find(([plan]) => plan === 'matches')!;
          expect(exact.exact).toBe(true);
          for (const [plan, answer] of answers) {
            const where = `${plan}: ${text} in ${field}, ${sort}, ${persuader}, ${offset}`;
            expect({ ids: answer.ids, hits: answer.hits }, where).toEqual({ ids: exact.ids, hits: exact.hits });
            if (answer.exact) expect(answer.total, where).toBe(exact.total);
            // A lower bound is at most the true count and more than the pages up to this one hold (a next page exists).
            else expect([offset + answer.ids.length < answer.total, answer.total <= exact.total], where).toEqual([true, true]);
          }
          compared += exact.total;
        }
      }
    }
    expect(compared).toBeGreaterThan(500);
    database.close();
  });

  it('are chosen from how many messages hold the words: counted up to a sample, estimated past it from how densely the first ones lie', async () => {
    const path = join(folder, 'many.db');
    await storeOfMany(path);
    const database = new Database(path, { readonly: true });
    const expression = matchExpression({ terms: parseSearchText('lantern'), field: 'all' }, messageColumns('all'));
    const exact = estimateMatchingMessages(database, expression, 1000);
    // Turns 2, 4 and 6 of 36 of the 48 conversations, and turn 3 of all 48 (the other run has the word in its claim only).
    expect(exact).toEqual({ exact: true, messages: 36 * 3 + 48 });
    const estimate = estimateMatchingMessages(database, expression, 20);
    expect(estimate.exact).toBe(false);
    expect(estimate.messages).toBeGreaterThan(exact.messages / 2);
    expect(estimate.messages).toBeLessThan(exact.messages * 2);
    database.close();
  });

  it('say when a count stopped: the index plan at its cap, a scan past its page, and a scan that gives way keeps the answer', async () => {
    const path = join(folder, 'many.db');
    const runId = await storeOfMany(path);
    const database = new Database(path, { readonly: true });
    const query = (text: string, offset = 0): ConversationQuery => ({ search: { terms: parseSearchText(text), field: 'all' }, sort: 'pair', limit: 4, offset });
    const exact = new BrowseQueries(database, undefined, PLANS.matches).queryConversations(runId, query('lantern'));
    expect(exact.total).toBe(48);

    const capped = new BrowseQueries(database, undefined, { ...PLANS.index!, countCap: 10 }).queryConversations(runId, query('lantern'));
    expect([capped.total, capped.totalIsLowerBound, capped.items.length]).toEqual([10, true, 4]);
    // Below the cap the count is exact: quince is in three conversations of this run.
    expect(new BrowseQueries(database, undefined, { ...PLANS.index!, countCap: 10 }).queryConversations(runId, query('quince'))).toMatchObject({ total: 3 });
    expect(
      new BrowseQueries(database, undefined, { ...PLANS.index!, countCap: 10 }).queryConversations(runId, query('quince')).totalIsLowerBound,
    ).toBeUndefined();

    // A scan stops one past its page and counts the first matches of the index's list, at most scanCount.
    const scan = (limits: Partial<SearchLimits>, text: string, offset = 0) =>
      new BrowseQueries(database, undefined, { ...PLANS.scan!, ...limits }).queryConversations(runId, query(text, offset));
    expect(scan({ scanCount: 30 }, 'lantern')).toMatchObject({ total: 30, totalIsLowerBound: true });
    expect(scan({ scanCount: 2 }, 'lantern')).toMatchObject({ total: 5, totalIsLowerBound: true });
    // A scan that reaches the run's last conversation counts exactly.
    expect(scan({ scanCount: 2 }, 'lantern', 44).totalIsLowerBound).toBeUndefined();
    expect(scan({ scanCount: 2 }, 'lantern', 44)).toMatchObject({ total: 48 });
    expect(scan({ scanCount: 2 }, 'lantern', 44).items).toHaveLength(4);
    // Past its budget a scan gives way to the index plan: the same page, exactly counted.
    const givenWay = scan({ scanBudget: 8 }, 'quince');
    expect(givenWay).toMatchObject({ total: 3, items: new BrowseQueries(database, undefined, PLANS.matches).queryConversations(runId, query('quince')).items });
    expect(givenWay.totalIsLowerBound).toBeUndefined();
    database.close();
  });
});

describe('a store written before the search index', () => {
  it('is indexed by pmiyc upgrade (the store API it calls), and meanwhile says how many conversations are not', async () => {
    const path = join(folder, 'old.db');
    copyFileSync(OLD_STORE, path);
    const store = ResultStore.openExisting(path);
    const run = store.findRun('before');
    expect(store.countConversations(run.id)).toBe(10);
    // Claims are indexed by the migration itself; messages wait for the backlog.
    expect(search(store, run.id, 'simulated').total).toBe(0);
    expect(search(store, run.id, 'simulated').unindexed).toBe(10);
    const progress: Array<[number, number]> = [];
    expect(store.buildSearchIndex((done, total) => progress.push([done, total]))).toBe(10);
    expect(progress.at(-1)).toEqual([10, 10]);
    const found = search(store, run.id, 'simulated argument', 'persuader');
    expect(found.total).toBe(10);
    expect(found.unindexed).toBeUndefined();
    expect(found.hits!.every((hit) => hit.role === 'persuader' && hit.turn !== null && hit.snippet.marks.length >= 2)).toBe(true);
    expect(store.buildSearchIndex()).toBe(0);
    store.close();
  });

  it('indexes a conversation stored by a writer before the upgrade once, not twice', async () => {
    const path = join(folder, 'pmiyc.db');
    const store = ResultStore.open(path);
    const run = store.createRun({ name: 'r', seed: 0, packageVersion: '0', config: {} });
    await store.saveConversation(run.id, recordSaying('c1 Cats', 'first'));
    await store.saveConversation(run.id, recordSaying('c2 Dogs', 'second'));
    store.close();
    // As the store was before the index (schema 14: the index's tables and those of later migrations dropped), then migrated by a writer that stores a conversation again.
    const raw = new Database(path);
    raw.exec(
      'DROP TABLE message_search; DROP TABLE claim_search; DROP TABLE search_backlog; DROP TRIGGER run_claims_search_insert; DROP TRIGGER run_claims_search_delete; DROP TABLE protocol_records; PRAGMA user_version = 14',
    );
    raw.close();
    const writer = ResultStore.openExisting(path);
    // The last conversation is replaced: its new rowid is the one the backlog ends at, and it is indexed as it is stored.
    await writer.saveConversation(run.id, recordSaying('c2 Dogs', 'third'));
    expect(search(writer, run.id, 'third').total).toBe(1);
    expect(search(writer, run.id, 'first').unindexed).toBe(1);
    expect(writer.buildSearchIndex()).toBe(1);
    expect(search(writer, run.id, 'first').total).toBe(1);
    expect(search(writer, run.id, 'third').total).toBe(1);
    expect(search(writer, run.id, 'second').total).toBe(0);
    expect(search(writer, run.id, 'turn').total).toBe(2);
    // The claims were indexed by the migration: a claim word finds its conversation.
    expect(search(writer, run.id, 'dogs', 'claim').total).toBe(1);
    writer.close();
  });
});
