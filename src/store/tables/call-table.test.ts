import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredCall } from '../../models/call-cache.js';
import { ResultStore } from '../result-store.js';
import { storedCallRequests } from './call-table.js';

let folder: string;
let store: ResultStore;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-calls-'));
  store = ResultStore.open(join(folder, 'store.db'));
});
afterEach(() => {
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

const call = (hash: string, text: string, costUsd: number): StoredCall => ({
  hash,
  modelIdentity: 'm',
  request: { messages: [{ role: 'user', content: hash }], maxOutputTokens: 10, seed: 1 },
  reply: { text, finishReason: 'stop', costUsd },
  latencyMs: 1,
  retries: 0,
});
const newRun = (name: string) => store.createRun({ name, seed: 0, packageVersion: '0', config: {} });

describe('the call cache of a run', () => {
  it("replays an earlier run's call, says from which run, and records the replay", async () => {
    const first = newRun('first');
    await store.callCache(first.id).save(call('h', 'from first', 0.25));
    const second = newRun('second');
    const cache = store.callCache(second.id);
    expect(cache.lookup('h')).toEqual({ reply: { text: 'from first', finishReason: 'stop', costUsd: 0.25 }, earlierRun: 'first' });
    // Used again in the same run (a shared opening): shared within the run, not a second replay.
    expect(cache.lookup('h')).toEqual({ reply: { text: 'from first', finishReason: 'stop', costUsd: 0.25 } });
    expect(store.replaysOf(second.id)).toEqual([{ run: 'first', calls: 1 }]);
    expect(store.listRuns().find((run) => run.name === 'second')).toMatchObject({ callsMade: 0, costUsd: 0, replayed: [{ run: 'first', calls: 1 }] });
  });

  it('answers its own calls without calling them replays (sharing, resume)', async () => {
    const run = newRun('r');
    const cache = store.callCache(run.id);
    await cache.save(call('h', 'mine', 0.1));
    expect(cache.lookup('h')).toEqual({ reply: { text: 'mine', finishReason: 'stop', costUsd: 0.1 } });
    expect(store.replaysOf(run.id)).toEqual([]);
  });

  it("keeps a request's reply schema by name and digest with its other parameters", async () => {
    const run = newRun('r');
    const responseFormat = { name: 'turn_labels', schemaSha256: 'ab'.repeat(32) };
    await store.callCache(run.id).save({ ...call('h', '{"leftRole":false}', 0), request: { ...call('h', '', 0).request, responseFormat } });
    await store.callCache(run.id).save(call('g', 'plain', 0));
    const database = new Database(join(folder, 'store.db'), { readonly: true });
    try {
      const requests = [...storedCallRequests(database)].map(({ request }) => request);
      expect(requests[0]).toEqual({ messages: [{ role: 'user', content: 'h' }], maxOutputTokens: 10, seed: 1, responseFormat });
      expect(requests[1]).not.toHaveProperty('responseFormat');
    } finally {
      database.close();
    }
  });

  it('keeps the last reply of a call saved twice in one run, once, and leaves other runs alone', async () => {
    const earlier = newRun('earlier');
    await store.callCache(earlier.id).save(call('h', 'earlier run', 0.5));
    const run = newRun('r');
    const cache = store.callCache(run.id);
    // In one commit, as a batch of the queue would hold them.
    await Promise.all([cache.save(call('h', 'first', 0.1)), cache.save(call('h', 'second', 0.2))]);
    expect(cache.lookup('h')).toEqual({ reply: { text: 'second', finishReason: 'stop', costUsd: 0.2 } });
    expect(store.listRuns().find((listed) => listed.name === 'r')).toMatchObject({ callsMade: 1, costUsd: 0.2 });
    expect(store.listRuns().find((listed) => listed.name === 'earlier')).toMatchObject({ callsMade: 1, costUsd: 0.5 });
  });

  it("under --no-cache reuses only its own calls, and asking again never changes an earlier run's accounting", async () => {
    const first = newRun('first');
    await store.callCache(first.id).save(call('h', 'first answer', 0.25));
    const fresh = newRun('fresh');
    const cache = store.callCache(fresh.id, { reuseEarlierRuns: false });
    expect(cache.lookup('h')).toBeUndefined();
    await cache.save(call('h', 'new answer', 0.5));
    expect(cache.lookup('h')?.reply.text).toBe('new answer');
    expect([store.callsMadeBy(first.id), store.spentUsd(first.id)]).toEqual([1, 0.25]);
    expect([store.callsMadeBy(fresh.id), store.spentUsd(fresh.id)]).toEqual([1, 0.5]);
    // A later run that may reuse replays the earliest answer, whichever runs asked since.
    expect(store.callCache(newRun('later').id).lookup('h')).toMatchObject({ reply: { text: 'first answer' }, earlierRun: 'first' });
  });
});

describe('run leases', () => {
  const holder = (pid: number) => ({ pid, host: 'box', command: 'pmiyc run', acquiredAt: 't0', heartbeatAt: 't0' });

  it('are held by one process at a time; a refused taker changes nothing', () => {
    const run = newRun('r');
    expect(store.takeLease(run.id, holder(1), () => {})).toBeUndefined();
    expect(() =>
      store.takeLease(run.id, holder(2), () => {
        throw new Error('held');
      }),
    ).toThrow('held');
    expect(store.leases().get(run.id)?.pid).toBe(1);
    expect(store.renewLease(run.id, holder(1), 't1')).toBe(true);
    expect(store.leases().get(run.id)?.heartbeatAt).toBe('t1');
  });

  it('once taken over, the old holder cannot renew it, and releasing only frees its own', () => {
    const run = newRun('r');
    store.takeLease(run.id, holder(1), () => {});
    expect(store.takeLease(run.id, holder(2), () => {})?.pid).toBe(1);
    expect(store.renewLease(run.id, holder(1), 't1')).toBe(false);
    store.releaseLease(run.id, holder(1));
    expect(store.leases().get(run.id)?.pid).toBe(2);
    store.releaseLease(run.id, holder(2));
    expect(store.leases().size).toBe(0);
  });

  it("keeps a call's cached and cache-written input tokens, replays them, and sums them per run", async () => {
    const run = newRun('cached');
    const usage = { inputTokens: 2000, outputTokens: 50, cachedInputTokens: 1536, cacheWriteTokens: 200 };
    await store.callCache(run.id).save({ ...call('c', 'reply', 0.001), reply: { text: 'reply', finishReason: 'stop', usage, costUsd: 0.001 } });
    await store.callCache(run.id).save(call('d', 'no usage said', 0.002));
    expect(store.callCache(run.id).lookup('c')?.reply.usage).toEqual(usage);
    expect(store.callCache(run.id).lookup('d')?.reply.usage).toBeUndefined();
    expect(store.callTotals(run.id, 0).inAll).toMatchObject({ calls: 2, inputTokens: 2000, cachedInputTokens: 1536, cacheWriteTokens: 200 });
    expect(store.listRuns().find((listed) => listed.name === 'cached')).toMatchObject({ inputTokens: 2000, cachedInputTokens: 1536 });
  });
});
