/** A batch the store knows of whose replies are not all stored yet. */
export interface OpenBatch {
  /** The store's own number for the batch (known before the provider's id is). */
  readonly localId: number;
  /** Absent while the batch was being submitted when the process ended: it may or may not exist at the provider. */
  readonly providerBatchId?: string;
  readonly submissionKey: string;
  /** Request hashes the batch carries whose replies are not in the store yet. */
  readonly hashes: readonly string[];
  readonly submittedAtMs: number;
}

/**
 * Where batches are recorded (the SQLite store implements it). Every write is committed when the
 * method returns: a batch's row and its request hashes are on disk before it is submitted, so a
 * killed run finds it again and never pays for a request twice.
 */
export interface BatchLedger {
  /** Batches of a model (by call identity) that still carry requests without a stored reply, oldest first. */
  openBatches(modelIdentity: string): OpenBatch[];
  /** Records a batch about to be submitted; returns its local id. */
  beginBatch(batch: { readonly modelIdentity: string; readonly provider: string; readonly submissionKey: string; readonly hashes: readonly string[] }): number;
  /** The provider accepted the batch under this id. */
  batchSubmitted(localId: number, providerBatchId: string): void;
  /** The provider's latest word on the batch; `closed` when it will never answer (refused, lost) or every line was read. */
  batchStatus(localId: number, status: { readonly providerStatus: string; readonly closed?: boolean }): void;
}
