import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handRecord } from '../../../test/support/hand-records.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { parseSearchText, type SearchField, type SearchQuery } from '../../domain/search-words.js';
import type { ConversationFilter, ConversationPage, ConversationSort } from '../../studies/tournament/tournament-browse.js';
import { ResultStore, type RunInfo } from '../result-store.js';
import type { SqliteCallCache } from '../tables/call-table.js';

const NOW = '2026-03-04T05:06:07.000Z';
const CATS = 'c1 Cats are 100 percent loyalXfriends';
const DOGS = 'c2 Dogs are 100% loyal_friends';
const MOON = 'm3 The Moon is cheese';
const TEA = 'c4 Tea beats coffee';
const QUESTION = 'Is the MOON made of Cheddar?';

/**
 * Run r1, by letter, with each NC worked out by hand (s0 -> sT):
 * A a>b single c1 3->4 0.5 | B a>b multi c1 3->5 early stop 1 | C b>a single c2 3->2 -0.5 | D c>b single c2 3->3 0
 * E a>c single m3 2->1 -1 | F a>b single c2 failed (format) | G b>c multi m3 failed (api) | H c>a multi m3 1->3 0.5
 * I a>b single c4 1->2 0.25
 */
function runOne(): Record<string, ConversationRecord> {
  const run = 'r1';
  const misinformation = { domain: 'misinformation', question: QUESTION } as const;
  return {
    A: handRecord({ run, persuader: 'sim/a', persuadee: 'sim/b', claim: CATS, turns: 3, persuadeeScores: [3], final: 4 }),
    B: handRecord({ run, persuader: 'sim/a', persuadee: 'sim/b', claim: CATS, turns: 9, persuadeeScores: [3, 5], final: 5 }),
    C: handRecord({ run, persuader: 'sim/b', persuadee: 'sim/a', claim: DOGS, turns: 3, persuadeeScores: [3], final: 2 }),
    D: handRecord({ run, persuader: 'sim/c', persuadee: 'sim/b', claim: DOGS, turns: 3, persuadeeScores: [3], final: 3 }),
    E: handRecord({ run, persuader: 'sim/a', persuadee: 'sim/c', claim: MOON, ...misinformation, turns: 3, persuadeeScores: [2], final: 1 }),
    F: handRecord({ run, persuader: 'sim/a', persuadee: 'sim/b', claim: DOGS, turns: 3, persuadeeScores: [3], failure: { reason: 'format', attempts: 2 } }),
    G: handRecord({
      run,
      persuader: 'sim/b',
      persuadee: 'sim/c',
      claim: MOON,
      ...misinformation,
      turns: 9,
      persuadeeScores: [4],
      failure: { reason: 'api', attempts: 1 },
    }),
    H: handRecord({ run, persuader: 'sim/c', persuadee: 'sim/a', claim: MOON, ...misinformation, turns: 9, persuadeeScores: [1, 2], final: 3 }),
    I: handRecord({ run, persuader: 'sim/a', persuadee: 'sim/b', claim: TEA, turns: 3, persuadeeScores: [1], final: 2 }),
  };
}

/** The same turn with its accepted attempt's call hash set, as the engine records it. */
function withCallHash(record: ConversationRecord, turnIndex: number, callHash: string): ConversationRecord {
  return {
    ...record,
    turns: record.turns.map((turn) =>
      turn.index === turnIndex
        ? { ...turn, attempts: turn.attempts.map((attempt, number, all) => (number === all.length - 1 ? { ...attempt, callHash } : attempt)) }
        : turn,
    ),
  };
}

function saveCall(cache: SqliteCallCache, hash: string, model: string, latencyMs: number): Promise<void> {
  return cache.save({
    hash,
    modelIdentity: model,
    request: { messages: [{ role: 'user', content: hash }], maxOutputTokens: 100, seed: 1 },
    reply: { text: 'ok', finishReason: 'stop' },
    latencyMs,
    retries: 2,
  });
}

let folder: string;
let store: ResultStore;
let r1: RunInfo;
let r2: RunInfo;
let records: Record<string, ConversationRecord>;
let letterOf: Map<string, string>;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-browse-'));
  store = ResultStore.open(join(folder, 'pmiyc.db'), { now: () => new Date(NOW) });
  const newRun = (name: string) => store.createRun({ name, seed: 0, packageVersion: '0', config: {} });
  newRun('r0');
  newRun('r0-again');
  r1 = newRun('r1');
  r2 = newRun('r2');
  records = runOne();
  for (const record of Object.values(records)) store.saveConversation(r1.id, record);
  letterOf = new Map(Object.entries(records).map(([letter, record]) => [record.conversationId, letter]));
  // Run r2 holds A's conversation again (scored otherwise) and a failed one of another model on A's claim.
  store.saveConversation(r2.id, handRecord({ run: 'r2', persuader: 'sim/a', persuadee: 'sim/b', claim: CATS, turns: 3, persuadeeScores: [3], final: 5 }));
  store.saveConversation(
    r2.id,
    handRecord({ run: 'r2', persuader: 'sim/z', persuadee: 'sim/b', claim: CATS, turns: 3, persuadeeScores: [2], failure: { reason: 'refusal', attempts: 1 } }),
  );
});
afterEach(() => {
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

/** A search as the API reads it from `q` and `field`. */
const words = (text: string, field: SearchField = 'all'): SearchQuery => ({ terms: parseSearchText(text), field });

const page = (filter: ConversationFilter, sort: ConversationSort = 'pair', limit = 500, offset = 0): ConversationPage =>
  store.browse.queryConversations(r1.id, { ...filter, sort, limit, offset });

/** The page's conversations as letters, checking that each is r1's. */
function lettersOf(result: ConversationPage): string[] {
  return result.items.map((item) => {
    expect(item.run).toBe('r1');
    return letterOf.get(item.conversationId) ?? `unknown ${item.conversationId}`;
  });
}

describe('BrowseQueries.queryConversations', () => {
  it.each<[string, ConversationFilter, string]>([
    ['no filter', {}, 'ABCDEFGHI'],
    ['persuader', { persuader: 'sim/a' }, 'ABEFI'],
    ['persuadee', { persuadee: 'sim/b' }, 'ABDFI'],
    ['a model never in the run', { persuader: 'sim/z' }, ''],
    ['setting single', { setting: 'single' }, 'ACDEFI'],
    ['setting multi', { setting: 'multi' }, 'BGH'],
    ['domain subjective', { domain: 'subjective' }, 'ABCDFI'],
    ['domain misinformation', { domain: 'misinformation' }, 'EGH'],
    ['claim index', { claimIndex: 2 }, 'CDF'],
    ['claim index of two conversations', { claimIndex: 1 }, 'AB'],
    ['status completed', { status: 'completed' }, 'ABCDEHI'],
    ['status failed', { status: 'failed' }, 'FG'],
    ['failure reason format', { failureReason: 'format' }, 'F'],
    ['failure reason api', { failureReason: 'api' }, 'G'],
    ['failure reason only another run has', { failureReason: 'refusal' }, ''],
    ['early stopped', { earlyStopped: true }, 'B'],
    ['not early stopped (failed ones are neither)', { earlyStopped: false }, 'ACDEHI'],
    ['ncMin inclusive', { ncMin: 0.5 }, 'ABH'],
    ['ncMax inclusive', { ncMax: -0.5 }, 'CE'],
    ['ncMin and ncMax', { ncMin: 0, ncMax: 0.5 }, 'ADHI'],
    ['ncMin equal to ncMax', { ncMin: 0.25, ncMax: 0.25 }, 'I'],
    ['the widest NC bounds leave out the failed', { ncMin: -1, ncMax: 1 }, 'ABCDEHI'],
    ['words in the claim, any case', { search: words('CATS') }, 'AB'],
    ['words in the question only', { search: words('cheddar') }, 'EGH'],
    ['every word, each in the claim or the question', { search: words('  moon   cheddar ') }, 'EGH'],
    ['words of two claims match nothing', { search: words('cats moon') }, ''],
    ['% is punctuation, no wildcard: 100% is the word 100', { search: words('100%') }, 'ABCDF'],
    ['% separates words: 1%0 is the phrase "1 0"', { search: words('1%0') }, ''],
    ['_ separates words as in the claim', { search: words('loyal_friends') }, 'CDF'],
    ['_ is no wildcard', { search: words('l_yal') }, ''],
    ['a word is a whole word', { search: words('chedda') }, ''],
    ['a word* is a prefix', { search: words('chedda*') }, 'EGH'],
    ['a "quoted phrase" keeps its words together and in order', { search: words('"moon is cheese"') }, 'EGH'],
    ['a phrase out of order matches nothing', { search: words('"cheese moon"') }, ''],
    ['persuader and setting', { persuader: 'sim/a', setting: 'single' }, 'AEFI'],
    ['persuader, setting and status', { persuader: 'sim/a', setting: 'single', status: 'completed' }, 'AEI'],
    ['persuader, setting, status and domain', { persuader: 'sim/a', setting: 'single', status: 'completed', domain: 'misinformation' }, 'E'],
    ['persuader and persuadee', { persuader: 'sim/a', persuadee: 'sim/c' }, 'E'],
    ['persuadee and ncMin', { persuadee: 'sim/b', ncMin: 0 }, 'ABDI'],
    ['words and status', { search: words('dogs'), status: 'failed' }, 'F'],
    ['claim, setting and ncMin', { claimIndex: 3, setting: 'multi', ncMin: 0 }, 'H'],
    ['domain and early stop', { domain: 'misinformation', earlyStopped: true }, ''],
  ])('filters by %s', (_name, filter, expected) => {
    const result = page(filter);
    expect(result.total).toBe(expected.length);
    expect(lettersOf(result).sort()).toEqual([...expected].sort());
  });

  it.each<[ConversationSort, string]>([
    // persuader, persuadee, setting ('multi' < 'single'), domain, claim index, id
    ['pair', 'BAFIECGHD'],
    // domain ('misinformation' first), claim index, setting, persuadee, persuader, id
    ['claim', 'HGEBACFDI'],
    // NC up, ties by id (A's id sorts before H's); failed ones (no NC) first
    ['nc', 'FGECDIAHB'],
    ['-nc', 'BHAIDCEGF'],
  ])('sorts by %s, and pages of 2 cover every conversation exactly once', (sort, expected) => {
    expect(lettersOf(page({}, sort)).join('')).toBe(expected);
    const paged: string[] = [];
    for (let offset = 0; offset < 10; offset += 2) {
      const result = page({}, sort, 2, offset);
      expect(result.total).toBe(9);
      expect(result.items.length).toBe(Math.min(2, 9 - offset));
      paged.push(...lettersOf(result));
    }
    expect(paged.join('')).toBe(expected);
    expect(page({}, sort, 5, 9)).toEqual({ total: 9, items: [] });
  });

  it('puts failed conversations first by NC and last by NC descending, also when filtered', () => {
    const up = page({ persuader: 'sim/a' }, 'nc');
    expect(up.items.map((item) => item.status)).toEqual(['failed', 'completed', 'completed', 'completed', 'completed']);
    expect(up.items.map((item) => item.normalizedChange)).toEqual([null, -1, 0.25, 0.5, 1]);
    const down = page({ persuader: 'sim/a' }, '-nc');
    expect(down.items.map((item) => item.normalizedChange)).toEqual([1, 0.5, 0.25, -1, null]);
  });

  it('lists each conversation as its stored record without the turns', () => {
    const result = page({});
    expect(result.items).toHaveLength(9);
    for (const item of result.items) {
      expect(item).not.toHaveProperty('turns');
      const { turns: _turns, ...expected } = records[letterOf.get(item.conversationId)!]!;
      expect(item).toStrictEqual(expected);
    }
  });

  it("never lists another run's conversations", () => {
    const other = store.browse.queryConversations(r2.id, { sort: 'pair', limit: 500, offset: 0 });
    expect(other.total).toBe(2);
    expect(other.items.map((item) => [item.run, item.persuader, item.normalizedChange])).toEqual([
      ['r2', 'sim/a', 1],
      ['r2', 'sim/z', null],
    ]);
    // r2's copy of A has the same id and claim: r1's list still holds only r1's A.
    const cats = page({ search: words('cats'), persuadee: 'sim/b' });
    expect(cats.total).toBe(2);
    expect(cats.items.map((item) => [item.run, item.normalizedChange])).toEqual([
      ['r1', 1],
      ['r1', 0.5],
    ]);
  });
});

describe('BrowseQueries aggregates', () => {
  it('gives each pair its counts and its mean NC over completed conversations only', () => {
    expect(store.browse.pairCells(r1.id)).toEqual([
      {
        domain: 'subjective',
        setting: 'single',
        persuader: 'sim/a',
        persuadee: 'sim/b',
        completed: 2,
        failed: 1,
        earlyStopped: 0,
        meanNc: 0.375,
        unscoredBy: { format: 1 },
      },
      {
        domain: 'subjective',
        setting: 'single',
        persuader: 'sim/b',
        persuadee: 'sim/a',
        completed: 1,
        failed: 0,
        earlyStopped: 0,
        meanNc: -0.5,
        unscoredBy: {},
      },
      { domain: 'subjective', setting: 'single', persuader: 'sim/c', persuadee: 'sim/b', completed: 1, failed: 0, earlyStopped: 0, meanNc: 0, unscoredBy: {} },
      { domain: 'subjective', setting: 'multi', persuader: 'sim/a', persuadee: 'sim/b', completed: 1, failed: 0, earlyStopped: 1, meanNc: 1, unscoredBy: {} },
      {
        domain: 'misinformation',
        setting: 'single',
        persuader: 'sim/a',
        persuadee: 'sim/c',
        completed: 1,
        failed: 0,
        earlyStopped: 0,
        meanNc: -1,
        unscoredBy: {},
      },
      {
        domain: 'misinformation',
        setting: 'multi',
        persuader: 'sim/b',
        persuadee: 'sim/c',
        completed: 0,
        failed: 1,
        earlyStopped: 0,
        meanNc: null,
        unscoredBy: { api: 1 },
      },
      {
        domain: 'misinformation',
        setting: 'multi',
        persuader: 'sim/c',
        persuadee: 'sim/a',
        completed: 1,
        failed: 0,
        earlyStopped: 0,
        meanNc: 0.5,
        unscoredBy: {},
      },
    ]);
    expect(store.browse.pairCells(r2.id).map((cell) => [cell.persuader, cell.completed, cell.failed, cell.meanNc])).toEqual([
      ['sim/a', 1, 0, 1],
      ['sim/z', 0, 1, null],
    ]);
  });

  it('gives each claim in each setting its text, counts and mean NC over completed conversations only', () => {
    const subjective = { domain: 'subjective', question: null } as const;
    const misinformation = { domain: 'misinformation', claimIndex: 3, claim: MOON, question: QUESTION } as const;
    expect(store.browse.claimCells(r1.id)).toEqual([
      { ...subjective, setting: 'single', claimIndex: 1, claim: CATS, completed: 1, failed: 0, meanNc: 0.5 },
      { ...subjective, setting: 'single', claimIndex: 2, claim: DOGS, completed: 2, failed: 1, meanNc: -0.25 },
      { ...subjective, setting: 'single', claimIndex: 4, claim: TEA, completed: 1, failed: 0, meanNc: 0.25 },
      { ...subjective, setting: 'multi', claimIndex: 1, claim: CATS, completed: 1, failed: 0, meanNc: 1 },
      { ...misinformation, setting: 'single', completed: 1, failed: 0, meanNc: -1 },
      { ...misinformation, setting: 'multi', completed: 1, failed: 1, meanNc: 0.5 },
    ]);
  });

  it("lists the distinct reasons of a run's failures, and only its own", () => {
    store.saveConversation(
      r1.id,
      handRecord({ run: 'r1', persuader: 'sim/c', persuadee: 'sim/c', claim: TEA, turns: 3, persuadeeScores: [3], failure: { reason: 'format', attempts: 3 } }),
    );
    expect(store.browse.failureReasons(r1.id)).toEqual(['api', 'format']);
    expect(store.browse.failureReasons(r2.id)).toEqual(['refusal']);
  });
});

describe('BrowseQueries.callDetails', () => {
  it('names the run that made each call and the other conversations of the run that used it', async () => {
    const own = store.callCache(r1.id);
    const earlier = store.callCache(store.findRun('r0').id);
    const again = store.callCache(store.findRun('r0-again').id);
    await saveCall(earlier, 'h-open', 'sim/b', 999);
    await saveCall(own, 'h-open', 'sim/b', 120);
    await saveCall(earlier, 'h-old', 'sim/b', 30);
    // Both earlier runs made h-replayed; r1 replayed r0-again's row (saved first), so that run is named, not the oldest one.
    await saveCall(again, 'h-replayed', 'sim/a', 45);
    await saveCall(earlier, 'h-replayed', 'sim/a', 46);
    expect(own.lookup('h-old')?.earlierRun).toBe('r0');
    expect(own.lookup('h-replayed')?.earlierRun).toBe('r0-again');

    // A and B share their opening (same persuadee and claim, SPEC 1.3); r2's conversation on that claim used it too.
    const a = withCallHash(withCallHash(withCallHash(records.A!, 1, 'h-open'), 2, 'h-replayed'), 3, 'h-old');
    const b = withCallHash(records.B!, 1, 'h-open');
    store.saveConversation(r1.id, a);
    store.saveConversation(r1.id, b);
    store.saveConversation(r1.id, withCallHash(records.I!, 2, 'h-never-stored'));
    const [, failedOnCats] = [...store.conversations(r2.id)];
    store.saveConversation(r2.id, withCallHash(failedOnCats!, 1, 'h-open'));

    const call = { retries: 2, createdAt: NOW };
    expect(store.browse.callDetails(r1.id, a)).toEqual([
      { callHash: 'h-open', model: 'sim/b', madeByRun: 'r1', latencyMs: 120, ...call, sharedWith: [{ conversationId: b.conversationId, turnIndex: 1 }] },
      { callHash: 'h-replayed', model: 'sim/a', madeByRun: 'r0-again', latencyMs: 45, ...call, sharedWith: [] },
      { callHash: 'h-old', model: 'sim/b', madeByRun: 'r0', latencyMs: 30, ...call, sharedWith: [] },
    ]);
    expect(store.browse.callDetails(r1.id, b).map((detail) => [detail.madeByRun, detail.sharedWith])).toEqual([
      ['r1', [{ conversationId: a.conversationId, turnIndex: 1 }]],
    ]);
    // A call the store does not hold (e.g. a store copied without its calls) is left out, not invented.
    expect(store.browse.callDetails(r1.id, withCallHash(records.I!, 2, 'h-never-stored'))).toEqual([]);
  });
});
