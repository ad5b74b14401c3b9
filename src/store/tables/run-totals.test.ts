import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handRecord } from '../../../test/support/hand-records.js';
import type { StoredCall } from '../../models/call-cache.js';
import { ResultStore } from '../result-store.js';

let folder: string;
let store: ResultStore;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-totals-'));
  store = ResultStore.open(join(folder, 'store.db'));
});
afterEach(() => {
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

const call = (hash: string, modelIdentity: string, reply: { costUsd?: number; inputTokens?: number; outputTokens?: number }): StoredCall => ({
  hash,
  modelIdentity,
  request: { messages: [{ role: 'user', content: hash }], maxOutputTokens: 10, seed: 1 },
  reply: {
    text: 'reply',
    finishReason: 'stop',
    ...(reply.costUsd === undefined ? {} : { costUsd: reply.costUsd }),
    ...(reply.inputTokens === undefined ? {} : { usage: { inputTokens: reply.inputTokens, outputTokens: reply.outputTokens ?? 0 } }),
  },
  latencyMs: 1,
  retries: 0,
});
const newRun = (name: string) => store.createRun({ name, seed: 0, packageVersion: '0', config: {} });

describe('callTotals', () => {
  it("counts a run's own calls per model, in all and since a session's mark, and never another run's", async () => {
    const run = newRun('r');
    const other = newRun('other');
    await store.callCache(run.id).save(call('a1', 'model-a', { costUsd: 0.25, inputTokens: 100, outputTokens: 10 }));
    await store.callCache(other.id).save(call('o1', 'model-a', { costUsd: 9 }));
    const mark = store.callsMark();
    await store.callCache(run.id).save(call('a2', 'model-a', { costUsd: 0.5, inputTokens: 200, outputTokens: 20 }));
    await store.callCache(run.id).save(call('b1', 'model-b', {}));
    // A replay of the other run's call costs this run nothing and is not a call it made.
    expect(store.callCache(run.id).lookup('o1')?.earlierRun).toBe('other');

    const totals = store.callTotals(run.id, mark);
    expect(totals.inAll).toEqual({
      calls: 3,
      inputTokens: 300,
      outputTokens: 30,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      callsWithoutUsage: 1,
      costUsd: 0.75,
      callsWithoutCost: 1,
    });
    expect(totals.thisSession).toEqual({
      calls: 2,
      inputTokens: 200,
      outputTokens: 20,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      callsWithoutUsage: 1,
      costUsd: 0.5,
      callsWithoutCost: 1,
    });
    expect(totals.byModel.map((model) => [model.identity, model.inAll.calls, model.thisSession.calls])).toEqual([
      ['model-a', 2, 1],
      ['model-b', 1, 1],
    ]);
    // The whole run is what pmiyc runs lists.
    expect(store.listRuns().find((listed) => listed.name === 'r')).toMatchObject({ callsMade: 3, costUsd: 0.75 });
  });
});

describe('discardRunIfEmpty', () => {
  it('removes a run that holds nothing, its lease and claims with it, and frees its name', () => {
    const run = newRun('run-1');
    store.takeLease(run.id, { pid: 1, host: 'h', command: 'pmiyc run', acquiredAt: 'now', heartbeatAt: 'now' }, () => {});
    expect(store.discardRunIfEmpty(run.id)).toBe(true);
    expect(store.hasRun('run-1')).toBe(false);
    expect(store.leases().size).toBe(0);
    expect(store.nextRunName('run')).toBe('run-1');
    expect(store.discardRunIfEmpty(run.id)).toBe(false);
  });

  it('keeps a run with a call or a conversation', async () => {
    const withCall = newRun('with-call');
    await store.callCache(withCall.id).save(call('c', 'model-a', {}));
    const withConversation = newRun('with-conversation');
    await store.saveConversation(withConversation.id, handRecord({ persuader: 'a', persuadee: 'b', claim: 'c', turns: 3, persuadeeScores: [3], final: 4 }));
    expect(store.discardRunIfEmpty(withCall.id)).toBe(false);
    expect(store.discardRunIfEmpty(withConversation.id)).toBe(false);
    expect(store.listRuns().map((run) => run.name)).toEqual(['with-call', 'with-conversation']);
  });
});
