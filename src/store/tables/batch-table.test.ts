import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ResultStore } from '../result-store.js';

let folder: string;
let path: string;
let store: ResultStore;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-batches-'));
  path = join(folder, 'store.db');
  store = ResultStore.open(path);
});
afterEach(() => {
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

const hash = (letter: string) => letter.repeat(64);

it('keeps a batch and its requests from before submission, and re-offers only the requests still without a stored reply', async () => {
  const run = store.createRun({ name: 'r', seed: 0, packageVersion: '0', config: {} });
  const ledger = store.batchLedger(run.id);
  const submitting = ledger.beginBatch({ modelIdentity: 'openai/alpha', provider: 'openai', submissionKey: 'k1', hashes: [hash('a'), hash('b')] });
  const other = ledger.beginBatch({ modelIdentity: 'openai/beta', provider: 'openai', submissionKey: 'k2', hashes: [hash('c')] });
  ledger.batchSubmitted(other, 'batch_2');
  await store.callCache(run.id).save({
    hash: hash('a'),
    modelIdentity: 'openai/alpha',
    request: { messages: [{ role: 'user', content: 'a' }], maxOutputTokens: 10, seed: 1 },
    reply: { text: 'stored', finishReason: 'stop' },
    latencyMs: 1,
    retries: 0,
  });
  // Read back as a restarted process would: a new store over the same file.
  store.close();
  store = ResultStore.open(path);
  const reopened = store.batchLedger(run.id);
  expect(reopened.openBatches('openai/alpha')).toEqual([{ localId: submitting, submissionKey: 'k1', hashes: [hash('b')], submittedAtMs: expect.any(Number) }]);
  expect(reopened.openBatches('openai/beta')).toMatchObject([{ localId: other, providerBatchId: 'batch_2', hashes: [hash('c')] }]);
  // A batch that never reached the provider is closed: its requests are no longer waited for.
  reopened.batchStatus(submitting, { providerStatus: 'lost before submission', closed: true });
  expect(reopened.openBatches('openai/alpha')).toEqual([]);
});

it("re-attaches another run's open batch, except under --no-cache, where a run keeps to its own", () => {
  const first = store.createRun({ name: 'first', seed: 0, packageVersion: '0', config: {} });
  const second = store.createRun({ name: 'second', seed: 0, packageVersion: '0', config: {} });
  const id = store.batchLedger(first.id).beginBatch({ modelIdentity: 'openai/alpha', provider: 'openai', submissionKey: 'k', hashes: [hash('a')] });
  store.batchLedger(first.id).batchSubmitted(id, 'batch_1');
  expect(
    store
      .batchLedger(second.id)
      .openBatches('openai/alpha')
      .map((batch) => batch.providerBatchId),
  ).toEqual(['batch_1']);
  expect(store.batchLedger(second.id, { reuseEarlierRuns: false }).openBatches('openai/alpha')).toEqual([]);
});

it('closes a batch once every line is answered or failed, and never re-offers a line that failed', async () => {
  const run = store.createRun({ name: 'r', seed: 0, packageVersion: '0', config: {} });
  const ledger = store.batchLedger(run.id);
  const id = ledger.beginBatch({ modelIdentity: 'openai/alpha', provider: 'openai', submissionKey: 'k', hashes: [hash('a'), hash('b'), hash('c')] });
  ledger.batchSubmitted(id, 'batch_1');
  ledger.linesRead(
    id,
    new Map([
      [hash('a'), 'succeeded'],
      [hash('b'), 'failed'],
      [hash('c'), 'succeeded'],
    ]),
  );
  await store.callCache(run.id).save({
    hash: hash('a'),
    modelIdentity: 'openai/alpha',
    request: { messages: [{ role: 'user', content: 'a' }], maxOutputTokens: 10, seed: 1 },
    reply: { text: 'stored', finishReason: 'stop' },
    latencyMs: 1,
    retries: 0,
  });
  // c was answered but its reply never stored (the run stopped first): the batch is read again for c alone.
  expect(ledger.openBatches('openai/alpha')).toMatchObject([{ localId: id, providerBatchId: 'batch_1', hashes: [hash('c')] }]);
  await store.callCache(run.id).save({
    hash: hash('c'),
    modelIdentity: 'openai/alpha',
    request: { messages: [{ role: 'user', content: 'c' }], maxOutputTokens: 10, seed: 1 },
    reply: { text: 'stored', finishReason: 'stop' },
    latencyMs: 1,
    retries: 0,
  });
  // b failed and has no reply: the batch is settled all the same, closed, and not read again.
  expect(ledger.openBatches('openai/alpha')).toEqual([]);
  store.close();
  store = ResultStore.open(path);
  expect(store.batchLedger(run.id).openBatches('openai/alpha')).toEqual([]);
});
