import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handRecord } from '../../test/support/hand-records.js';
import type { ConversationRecord } from '../domain/conversation-record.js';
import { parseSearchText, type SearchField } from '../domain/search-words.js';
import type { ConversationPage } from '../studies/tournament/tournament-browse.js';
import { conversationPageSql } from './browse-queries.js';
import { SCHEMA_VERSION } from './migrations.js';
import { ResultStore } from './result-store.js';

const OLD_STORE = fileURLToPath(new URL('../../test/fixtures/stores/schema-6-interrupted.db', import.meta.url));

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
    // As the store was before: no index yet (the previous schema), then migrated by a writer that stores a conversation again.
    const raw = new Database(path);
    raw.exec(
      `DROP TABLE message_search; DROP TABLE claim_search; DROP TABLE search_backlog; DROP TRIGGER run_claims_search_insert; DROP TRIGGER run_claims_search_delete; PRAGMA user_version = ${SCHEMA_VERSION - 1}`,
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
