import { createHash } from 'node:crypto';
import { printableText } from '../../domain/printable-text.js';
import type { GenerateRequest } from '../chat-model.js';
import { isModelCallError, ModelCallError } from '../model-call-error.js';
import type { BatchLedger, OpenBatch } from './batch-ledger.js';
import type { BatchProvider, LineResult } from './batch-provider.js';
import type { BatchWork } from './batch-work.js';

/** A batch as the progress display shows it. */
export interface BatchView {
  readonly model: string;
  readonly localId: number;
  readonly providerBatchId?: string;
  readonly providerStatus: string;
  readonly submittedAtMs: number;
  readonly lines: number;
  /** False once the batch's results are read (or it never reached the provider). */
  readonly open: boolean;
}

export interface ProviderBatchesOptions {
  readonly provider: BatchProvider;
  /** The provider's name, recorded with each batch. */
  readonly providerName: string;
  readonly ledger: BatchLedger;
  /** The model's call identity: the request hash, and so each line's custom id, is the call cache's. */
  readonly modelIdentity: string;
  /** How often a pending batch is polled. */
  readonly settings: { readonly pollMs: number };
  readonly now: () => number;
  /** The run stopping: nothing new is submitted or polled; pending batches stay recorded for --resume. */
  readonly waitSignal?: AbortSignal;
  readonly onBatch?: (view: BatchView) => void;
  /** The run's batch work in flight, which its session waits for before the store closes. */
  readonly work?: BatchWork;
}

/** What the batches need of the queue whose requests they carry (batch-queue.ts). */
export interface BatchCallers {
  /** The request a hash stands for, kept while anyone waits for it. */
  requestOf(hash: string): GenerateRequest;
  isWaitedFor(hash: string): boolean;
  /** Hands a line's result to its callers, or keeps it for a later request. */
  deliver(hash: string, result: LineResult): void;
  /** Puts a request in the queue again: the batch that carried it never reached the provider. */
  requeue(hash: string): void;
  /** Fails a request's callers with an error that is not the provider's (the store could not record the batch). */
  reject(hash: string, error: unknown): void;
}

/** A short, stable name for a batch's contents, kept with it at the provider where it keeps metadata. */
function submissionKeyOf(hashes: readonly string[]): string {
  return createHash('sha256').update(hashes.join('\n')).digest('hex').slice(0, 32);
}

/**
 * One model's batches at the provider: each recorded in the ledger before it is submitted, then
 * polled until it ends and its lines handed back to the queue. On start the ledger's open batches
 * are re-attached, and a request they carry waits for them instead of being sent again.
 */
export class ProviderBatches {
  /** Requests in a batch at the provider (or being submitted), by hash: the newest batch that carries each. */
  private readonly inBatch = new Map<string, number>();
  /** The next poll of each pending batch, by local id. */
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();
  private attached = false;

  constructor(
    private readonly options: ProviderBatchesOptions,
    private readonly modelName: string,
    private readonly callers: BatchCallers,
  ) {}

  /** Whether a batch at the provider carries this request. */
  carries(hash: string): boolean {
    return this.inBatch.has(hash);
  }

  /** Someone waits for the batch that carries this request now: its polls keep the process alive. */
  keepAlive(hash: string): void {
    this.timers.get(this.inBatch.get(hash)!)?.ref();
  }

  /** Records the batch, then submits it and watches it (in the background: its callers wait for their lines). */
  submit(hashes: readonly string[]): void {
    if (this.options.waitSignal?.aborted) return;
    this.inBackground(() => this.send(hashes), hashes, 'submission');
  }

  /**
   * Runs batch work that nobody awaits, tracked so that the session waits for it before closing the store.
   * An error it throws is never let loose in the process: once the run stops it is dropped (the batch
   * stays recorded for --resume); before, it fails the callers of the lines concerned.
   */
  private inBackground(work: () => Promise<void>, hashes: readonly string[], kind: 'submission' | 'poll'): void {
    const running = work().catch((error: unknown) => {
      if (this.options.waitSignal?.aborted) return;
      for (const hash of hashes) {
        this.inBatch.delete(hash);
        this.callers.reject(hash, error);
      }
    });
    this.options.work?.track(running, kind);
  }

  private async send(hashes: readonly string[]): Promise<void> {
    const { ledger, provider } = this.options;
    const submissionKey = submissionKeyOf(hashes);
    // Committed before the provider hears of it: a crash from here on finds the batch again.
    const localId = ledger.beginBatch({ modelIdentity: this.options.modelIdentity, provider: this.options.providerName, submissionKey, hashes });
    for (const hash of hashes) this.inBatch.set(hash, localId);
    const submittedAtMs = this.options.now();
    this.report({ localId, providerStatus: 'submitting', submittedAtMs, lines: hashes.length, open: true });
    let batchId: string | undefined;
    try {
      batchId = await provider.submit(
        hashes.map((hash) => ({ customId: hash, request: this.callers.requestOf(hash) })),
        submissionKey,
      );
    } catch (error) {
      // The answer may have been lost after the provider made the batch: look for it before sending it again.
      batchId = await this.findSubmitted(submissionKey);
      if (batchId === undefined) return this.notSubmitted(localId, hashes, submittedAtMs, asCallError(error));
    }
    ledger.batchSubmitted(localId, batchId);
    this.watch({ localId, providerBatchId: batchId, submissionKey, hashes, submittedAtMs }, this.options.settings.pollMs);
  }

  private async findSubmitted(submissionKey: string): Promise<string | undefined> {
    try {
      return await this.options.provider.recover?.(submissionKey);
    } catch {
      return undefined;
    }
  }

  /** A batch the provider did not take: its lines fail as a direct call would (a retryable failure joins a later batch). */
  private notSubmitted(localId: number, hashes: readonly string[], submittedAtMs: number, error: ModelCallError): void {
    const { ledger } = this.options;
    ledger.batchStatus(localId, { providerStatus: 'not submitted', closed: true });
    this.report({ localId, providerStatus: 'not submitted', submittedAtMs, lines: hashes.length, open: false });
    for (const hash of hashes) if (this.inBatch.get(hash) === localId) this.inBatch.delete(hash);
    for (const hash of hashes) this.callers.deliver(hash, { status: 'failed', error });
  }

  /** Re-attaches, once, the batches a killed or interrupted session left: their requests wait for them. */
  reattach(): void {
    if (this.attached) return;
    this.attached = true;
    for (const batch of this.options.ledger.openBatches(this.options.modelIdentity)) {
      for (const hash of batch.hashes) this.inBatch.set(hash, batch.localId);
      // Shown (and counted as pending if the run stops) before its first poll answers.
      this.report({
        localId: batch.localId,
        ...(batch.providerBatchId === undefined ? {} : { providerBatchId: batch.providerBatchId }),
        providerStatus: 'pending',
        submittedAtMs: batch.submittedAtMs,
        lines: batch.hashes.length,
        open: true,
      });
      if (batch.providerBatchId !== undefined) this.watch(batch, 0);
      else this.inBackground(() => this.recover(batch), batch.hashes, 'poll');
    }
  }

  /** A batch recorded as being submitted when the process ended: found at the provider by its key, or sent again. */
  private async recover(batch: OpenBatch): Promise<void> {
    const found = await this.findSubmitted(batch.submissionKey);
    // The run stopped while the look-up was out: the batch stays as it is for the next resume to look up.
    if (this.options.waitSignal?.aborted) return;
    if (found !== undefined) {
      this.options.ledger.batchSubmitted(batch.localId, found);
      return this.watch({ ...batch, providerBatchId: found }, 0);
    }
    this.options.ledger.batchStatus(batch.localId, { providerStatus: 'lost before submission', closed: true });
    this.report({
      localId: batch.localId,
      providerStatus: 'lost before submission',
      submittedAtMs: batch.submittedAtMs,
      lines: batch.hashes.length,
      open: false,
    });
    for (const hash of batch.hashes) {
      if (this.inBatch.get(hash) !== batch.localId) continue;
      this.inBatch.delete(hash);
      if (this.callers.isWaitedFor(hash)) this.callers.requeue(hash);
    }
  }

  /** Polls a batch until it ends, then hands each line's result to its callers. */
  private watch(batch: OpenBatch, firstDelayMs: number): void {
    const batchId = batch.providerBatchId!;
    const view = { localId: batch.localId, providerBatchId: batchId, submittedAtMs: batch.submittedAtMs, lines: batch.hashes.length };
    const tick = async (): Promise<void> => {
      let ended = false;
      let providerStatus = '';
      let results = new Map<string, LineResult>();
      try {
        const state = await this.options.provider.poll(batchId);
        // The run stopped while the poll was out: its store may be closed, and the batch stays pending for --resume.
        if (this.options.waitSignal?.aborted) return;
        // The service's own word for the batch's state, stored and shown as it is, less any control character.
        providerStatus = printableText(state.providerStatus);
        this.options.ledger.batchStatus(batch.localId, { providerStatus });
        this.report({ ...view, providerStatus, open: !state.ended });
        if (state.ended) {
          results = await this.options.provider.download(batchId);
          if (this.options.waitSignal?.aborted) return;
          ended = true;
        }
      } catch (error) {
        // The run stopped: a poll or download in flight was cancelled with the stop's reason.
        if (this.options.waitSignal?.aborted) return;
        const failure = asCallError(error);
        if (failure.retryable) return this.later(batch.localId, tick, batch.hashes);
        // The batch cannot be read (gone, refused): its lines are asked again, as lines it left
        // unanswered are (a refused key then fails them at submission, as a direct call would fail).
        this.options.ledger.batchStatus(batch.localId, { providerStatus: `unreadable: ${failure.message}`, closed: true });
        this.report({ ...view, providerStatus: 'unreadable', open: false });
        return this.settleBatch(batch, () => ({ status: 'failed', error: this.unanswered(batchId, failure.message) }));
      }
      if (!ended) return this.later(batch.localId, tick, batch.hashes);
      this.readResults(batch, (hash) => results.get(hash) ?? { status: 'failed', error: this.unanswered(batchId, `the batch ended ${providerStatus}`) });
    };
    this.later(batch.localId, tick, batch.hashes, firstDelayMs);
  }

  /**
   * Records each line's outcome before handing it to its callers: a failed line is settled in the
   * store, so the batch is not read again for it and a later request for it (`--retry-failed`, or a
   * retry) goes into a new batch; an answered line is settled once the call cache stores its reply.
   */
  private readResults(batch: OpenBatch, resultOf: (hash: string) => LineResult): void {
    const results = new Map(batch.hashes.map((hash) => [hash, resultOf(hash)] as const));
    this.options.ledger.linesRead(batch.localId, new Map([...results].map(([hash, result]) => [hash, result.status] as const)));
    this.settleBatch(batch, (hash) => results.get(hash)!);
  }

  private settleBatch(batch: OpenBatch, resultOf: (hash: string) => LineResult): void {
    for (const hash of batch.hashes) {
      // A line retried in a newer batch is answered by that one.
      if (this.inBatch.get(hash) !== batch.localId) continue;
      this.inBatch.delete(hash);
      this.callers.deliver(hash, resultOf(hash));
    }
  }

  /**
   * Runs `tick` after the poll interval. The timer keeps the process alive only while someone waits
   * for the batch (a re-attached batch nobody has asked for yet must not hold a finished run open).
   */
  private later(localId: number, tick: () => Promise<void>, hashes: readonly string[], delayMs = this.options.settings.pollMs): void {
    if (this.options.waitSignal?.aborted) return;
    const timer = setTimeout(() => {
      this.timers.delete(localId);
      this.inBackground(tick, hashes, 'poll');
    }, delayMs);
    this.timers.set(localId, timer);
    if (!hashes.some((hash) => this.callers.isWaitedFor(hash))) timer.unref();
  }

  private report(view: Omit<BatchView, 'model'>): void {
    this.options.onBatch?.({ model: this.modelName, ...view });
  }

  private unanswered(batchId: string, why: string): ModelCallError {
    return new ModelCallError(`${this.modelName}: batch ${batchId} did not answer this request (${why})`, {
      provider: this.options.providerName,
      model: this.modelName,
      reason: 'api',
      retryable: true,
    });
  }

  /** The run stopped: nothing is polled any more; pending batches stay recorded for --resume. */
  stop(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}

function asCallError(error: unknown): ModelCallError {
  if (isModelCallError(error)) return error;
  throw error;
}
