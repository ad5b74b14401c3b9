import { describe, expect, it } from 'vitest';
import { cachedRequestOf, requestHash } from '../call-cache.js';
import type { GenerateReply, GenerateRequest } from '../chat-model.js';
import { isModelCallError, ModelCallError } from '../model-call-error.js';
import type { BatchLedger, OpenBatch } from './batch-ledger.js';
import type { BatchLine, BatchProvider, LineResult } from './batch-provider.js';
import { BatchQueue, type BatchSettings } from './batch-queue.js';

const IDENTITY = 'openai/alpha';
const request = (seed: number): GenerateRequest => ({ messages: [{ role: 'user', content: `ask ${seed}` }], maxOutputTokens: 50, seed });
const hashOf = (seed: number) => requestHash(IDENTITY, cachedRequestOf(request(seed)));
const failure = (retryable: boolean) =>
  new ModelCallError('alpha: HTTP 500', { provider: 'openai', model: 'alpha', reason: 'api', retryable, statusCode: retryable ? 500 : 400 });

/** A batch service in memory: lines answered with their own seed unless `fate` says otherwise; records every batch. */
class MemoryBatchProvider implements BatchProvider {
  readonly batches: Array<{ id: string; lines: readonly BatchLine[] }> = [];
  readonly polled: string[] = [];
  constructor(private readonly fate: (line: BatchLine, batchIndex: number) => LineResult | undefined = () => undefined) {}
  recover?: (key: string) => Promise<string | undefined>;
  async submit(lines: readonly BatchLine[], _key?: string): Promise<string> {
    const id = `batch-${this.batches.length + 1}`;
    this.batches.push({ id, lines });
    return id;
  }
  async poll(batchId: string) {
    this.polled.push(batchId);
    return { ended: true, providerStatus: 'completed' };
  }
  async download(batchId: string): Promise<Map<string, LineResult>> {
    const index = this.batches.findIndex((batch) => batch.id === batchId);
    const lines = index >= 0 ? this.batches[index]!.lines : [];
    const results = new Map<string, LineResult>();
    for (const line of lines) {
      const fated = this.fate(line, index);
      results.set(line.customId, fated ?? { status: 'succeeded', reply: { text: `reply ${line.request.seed}`, finishReason: 'stop' } });
    }
    return results;
  }
  async cancel(): Promise<void> {}
  sizes(): number[] {
    return this.batches.map((batch) => batch.lines.length);
  }
}

/** The store's ledger in memory, without its calls: a line is settled once it failed. */
class MemoryLedger implements BatchLedger {
  readonly rows: Array<{ localId: number; providerBatchId?: string; hashes: readonly string[]; closed: boolean; submissionKey: string }> = [];
  readonly outcomes = new Map<number, Map<string, 'succeeded' | 'failed'>>();
  openBatches(): OpenBatch[] {
    return this.rows
      .filter((row) => !row.closed)
      .map((row) => ({
        localId: row.localId,
        submissionKey: row.submissionKey,
        hashes: row.hashes.filter((hash) => this.outcomes.get(row.localId)?.get(hash) !== 'failed'),
        submittedAtMs: 0,
        ...(row.providerBatchId ? { providerBatchId: row.providerBatchId } : {}),
      }))
      .filter((batch) => batch.hashes.length > 0);
  }
  linesRead(localId: number, outcomes: ReadonlyMap<string, 'succeeded' | 'failed'>): void {
    this.outcomes.set(localId, new Map([...(this.outcomes.get(localId) ?? []), ...outcomes]));
  }
  beginBatch(batch: { submissionKey: string; hashes: readonly string[] }): number {
    this.rows.push({ localId: this.rows.length + 1, hashes: batch.hashes, closed: false, submissionKey: batch.submissionKey });
    return this.rows.length;
  }
  batchSubmitted(localId: number, providerBatchId: string): void {
    this.rows[localId - 1]!.providerBatchId = providerBatchId;
  }
  batchStatus(localId: number, status: { closed?: boolean }): void {
    if (status.closed) this.rows[localId - 1]!.closed = true;
  }
}

const SETTINGS: BatchSettings = { size: 100, pollMs: 1, quietMs: 20, failedLines: 'retry' };

function queueOf(
  provider: BatchProvider,
  options: {
    settings?: Partial<BatchSettings>;
    ledger?: BatchLedger;
    direct?: (request: GenerateRequest) => Promise<GenerateReply>;
    waitSignal?: AbortSignal;
  } = {},
) {
  const ledger = options.ledger ?? new MemoryLedger();
  const direct = options.direct ?? (async () => Promise.reject(new Error('no direct calls in this test')));
  return new BatchQueue(
    {
      provider,
      providerName: 'openai',
      ledger,
      modelIdentity: IDENTITY,
      settings: { ...SETTINGS, ...options.settings },
      maxRetries: 2,
      now: () => 0,
      ...(options.waitSignal ? { waitSignal: options.waitSignal } : {}),
    },
    direct,
    'alpha',
  );
}

describe('batching one model', () => {
  it('sends the requests that arrive together as one batch (a wave) once no new one comes, and answers each caller with its own line', async () => {
    const provider = new MemoryBatchProvider();
    const queue = queueOf(provider);
    const replies = await Promise.all([1, 2, 3].map((seed) => queue.ask(request(seed))));
    expect(replies.map((reply) => reply.text)).toEqual(['reply 1', 'reply 2', 'reply 3']);
    expect(provider.sizes()).toEqual([3]);
    // Custom ids are the call cache's request hashes, so a batched reply is stored as a direct one would be.
    expect(provider.batches[0]!.lines.map((line) => line.customId)).toEqual([1, 2, 3].map(hashOf));
  });

  it('sends a batch as soon as `size` requests wait', async () => {
    const provider = new MemoryBatchProvider();
    const queue = queueOf(provider, { settings: { size: 2 } });
    await Promise.all([1, 2, 3, 4, 5].map((seed) => queue.ask(request(seed))));
    expect(provider.sizes()).toEqual([2, 2, 1]);
  });

  it('sends one line for identical requests asked at once', async () => {
    const provider = new MemoryBatchProvider();
    const queue = queueOf(provider);
    const [first, second] = await Promise.all([queue.ask(request(7)), queue.ask(request(7))]);
    expect([first.text, second.text]).toEqual(['reply 7', 'reply 7']);
    expect(provider.sizes()).toEqual([1]);
  });

  it('puts a line that failed in a way worth retrying into the next batch; a line that cannot succeed fails its call with the typed error', async () => {
    const provider = new MemoryBatchProvider((line, batchIndex) => {
      if (line.request.seed === 2 && batchIndex === 0) return { status: 'failed', error: failure(true) };
      if (line.request.seed === 3) return { status: 'failed', error: failure(false) };
      return undefined;
    });
    const queue = queueOf(provider);
    const outcomes = await Promise.allSettled([1, 2, 3].map((seed) => queue.ask(request(seed))));
    expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.text : 'failed'))).toEqual(['reply 1', 'reply 2', 'failed']);
    const rejected = outcomes[2] as PromiseRejectedResult;
    expect(isModelCallError(rejected.reason) && rejected.reason.statusCode).toBe(400);
    expect(provider.batches.map((batch) => batch.lines.map((line) => line.request.seed))).toEqual([[1, 2, 3], [2]]);
  });

  it('records a line that failed for good, so that a later session asks it again in a new batch instead of getting the failure back', async () => {
    const provider = new MemoryBatchProvider((line, batchIndex) =>
      line.request.seed === 3 && batchIndex === 0 ? { status: 'failed', error: failure(false) } : undefined,
    );
    const ledger = new MemoryLedger();
    const first = queueOf(provider, { ledger });
    const outcomes = await Promise.allSettled([1, 3].map((seed) => first.ask(request(seed))));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected']);
    expect(ledger.outcomes.get(1)).toEqual(
      new Map([
        [hashOf(1), 'succeeded'],
        [hashOf(3), 'failed'],
      ]),
    );
    // A later session (--retry-failed): the failed request is not waited for in its old batch, it is sent again.
    const again = await queueOf(provider, { ledger }).ask(request(3));
    expect(again.text).toBe('reply 3');
    expect(provider.batches.map((batch) => batch.lines.map((line) => line.request.seed))).toEqual([[1, 3], [3]]);
  });

  it('asks again a line the batch left unanswered (expired), and gives up after maxRetries', async () => {
    const provider = new MemoryBatchProvider();
    provider.download = async () => new Map();
    const queue = queueOf(provider);
    const error = await queue.ask(request(1)).catch((caught: unknown) => caught);
    expect(isModelCallError(error) && error.message).toMatch(/alpha: batch batch-3 did not answer this request \(the batch ended completed\)/);
    // The first try and maxRetries (2) more.
    expect(provider.sizes()).toEqual([1, 1, 1]);
  });

  it('with failedLines: direct, sends a failed line as a direct call instead of another batch', async () => {
    const provider = new MemoryBatchProvider((line) => (line.request.seed === 2 ? { status: 'failed', error: failure(true) } : undefined));
    const directCalls: number[] = [];
    const queue = queueOf(provider, {
      settings: { failedLines: 'direct' },
      direct: async (asked) => {
        directCalls.push(asked.seed);
        return { text: `direct ${asked.seed}`, finishReason: 'stop' };
      },
    });
    const replies = await Promise.all([1, 2].map((seed) => queue.ask(request(seed))));
    expect(replies.map((reply) => reply.text)).toEqual(['reply 1', 'direct 2']);
    expect(directCalls).toEqual([2]);
    expect(provider.sizes()).toEqual([2]);
  });

  it('records each batch in the ledger before submitting it', async () => {
    const ledger = new MemoryLedger();
    const recordedAtSubmit: number[] = [];
    const provider = new MemoryBatchProvider();
    const submit = provider.submit.bind(provider);
    provider.submit = async (lines) => {
      recordedAtSubmit.push(ledger.rows.length);
      expect(ledger.rows.at(-1)?.hashes).toEqual(lines.map((line) => line.customId));
      return submit(lines);
    };
    await queueOf(provider, { ledger }).ask(request(1));
    expect(recordedAtSubmit).toEqual([1]);
    expect(ledger.rows[0]!.providerBatchId).toBe('batch-1');
  });

  it('re-attaches to a batch an earlier session left open: its requests wait for it and are not submitted again', async () => {
    const provider = new MemoryBatchProvider();
    provider.batches.push({ id: 'batch-earlier', lines: [{ customId: hashOf(1), request: request(1) }] });
    const ledger = new MemoryLedger();
    ledger.rows.push({ localId: 1, providerBatchId: 'batch-earlier', hashes: [hashOf(1)], closed: false, submissionKey: 'k' });
    const queue = queueOf(provider, { ledger });
    const replies = await Promise.all([1, 2].map((seed) => queue.ask(request(seed))));
    expect(replies.map((reply) => reply.text)).toEqual(['reply 1', 'reply 2']);
    expect(provider.polled[0]).toBe('batch-earlier');
    expect(provider.batches.map((batch) => batch.lines.map((line) => line.request.seed))).toEqual([[1], [2]]);
  });

  it('when the answer to a submission is lost after the provider made the batch, finds it by its key instead of paying again', async () => {
    const provider = new MemoryBatchProvider();
    const submit = provider.submit.bind(provider);
    const keys = new Map<string, string>();
    provider.submit = async (lines, key) => {
      keys.set(key ?? '', await submit(lines));
      throw failure(true);
    };
    provider.recover = async (key) => keys.get(key);
    const reply = await queueOf(provider).ask(request(1));
    expect(reply.text).toBe('reply 1');
    expect(provider.sizes()).toEqual([1]);
  });

  it('sends again the requests of a re-attached batch the provider no longer has', async () => {
    const provider = new MemoryBatchProvider();
    const poll = provider.poll.bind(provider);
    provider.poll = async (batchId) => {
      if (batchId === 'batch-gone')
        throw new ModelCallError('alpha: HTTP 404', { provider: 'openai', model: 'alpha', reason: 'api', retryable: false, statusCode: 404 });
      return poll(batchId);
    };
    const ledger = new MemoryLedger();
    ledger.rows.push({ localId: 1, providerBatchId: 'batch-gone', hashes: [hashOf(1)], closed: false, submissionKey: 'k' });
    const reply = await queueOf(provider, { ledger }).ask(request(1));
    expect(reply.text).toBe('reply 1');
    expect(ledger.rows[0]!.closed).toBe(true);
    expect(provider.sizes()).toEqual([1]);
  });

  it('lets its callers go when the run stops, leaving the pending batch open in the ledger for --resume', async () => {
    const provider = new MemoryBatchProvider();
    provider.poll = async () => ({ ended: false, providerStatus: 'in_progress' });
    const ledger = new MemoryLedger();
    const stop = new AbortController();
    const queue = queueOf(provider, { ledger, waitSignal: stop.signal });
    const asked = queue.ask(request(1));
    while (ledger.rows[0]?.providerBatchId === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    stop.abort(new Error('stopped'));
    await expect(asked).rejects.toThrow('stopped');
    expect(ledger.openBatches().map((batch) => batch.providerBatchId)).toEqual(['batch-1']);
  });

  it('writes nothing to the ledger when a poll comes back after the run stopped (the store may be closed by then)', async () => {
    const provider = new MemoryBatchProvider();
    let answerPoll: (state: { ended: boolean; providerStatus: string }) => void = () => {};
    let pollsOut = 0;
    provider.poll = () => {
      pollsOut += 1;
      return new Promise((resolve) => {
        answerPoll = resolve;
      });
    };
    const ledger = new MemoryLedger();
    const stop = new AbortController();
    const queue = queueOf(provider, { ledger, waitSignal: stop.signal });
    const asked = queue.ask(request(1));
    while (pollsOut === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    stop.abort(new Error('stopped'));
    await expect(asked).rejects.toThrow('stopped');
    ledger.batchStatus = () => {
      throw new TypeError('The database connection is not open');
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    answerPoll({ ended: true, providerStatus: 'completed' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
    expect(ledger.openBatches().map((batch) => batch.providerBatchId)).toEqual(['batch-1']);
  });
});
