/** A batch the store knows of with lines still unsettled: neither answered with a stored reply nor failed. */
export interface OpenBatch {
  /** The store's own number for the batch (known before the provider's id is). */
  readonly localId: number;
  /** Absent while the batch was being submitted when the process ended: it may or may not exist at the provider. */
  readonly providerBatchId?: string;
  readonly submissionKey: string;
  /** Request hashes the batch carries that are not settled yet (no stored reply, no recorded failure). */
  readonly hashes: readonly string[];
  readonly submittedAtMs: number;
}

/**
 * Where batches are recorded (the SQLite store implements it). Every write is committed when the
 * method returns: a batch's row and its request hashes are on disk before it is submitted, so a
 * killed run finds it again and never pays for a request twice.
 */
export interface BatchLedger {
  /**
   * Batches of a model (by call identity) with lines still unsettled, oldest first. A line is settled
   * when its reply is stored or the batch's results said it failed; a batch with every line settled
   * is closed here, and never read again.
   */
  openBatches(modelIdentity: string): OpenBatch[];
  /** Records a batch about to be submitted; returns its local id. */
  beginBatch(batch: { readonly modelIdentity: string; readonly provider: string; readonly submissionKey: string; readonly hashes: readonly string[] }): number;
  /** The provider accepted the batch under this id. */
  batchSubmitted(localId: number, providerBatchId: string): void;
  /**
   * The batch's results were read: each line's outcome. A failed line (for good or to be asked again
   * in a later batch) is settled at once: the batch will never answer it, so it is not waited for
   * again and a later request for it is sent anew. A succeeded line is settled once its reply is stored.
   */
  linesRead(localId: number, outcomes: ReadonlyMap<string, 'succeeded' | 'failed'>): void;
  /** The provider's latest word on the batch; `closed` when it will never answer (refused, lost) or every line was read. */
  batchStatus(localId: number, status: { readonly providerStatus: string; readonly closed?: boolean }): void;
}
