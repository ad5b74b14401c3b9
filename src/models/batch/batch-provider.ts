import type { GenerateReply, GenerateRequest } from '../chat-model.js';
import type { ModelCallError } from '../model-call-error.js';

/** One request of a batch, named by its request hash (64 hex characters: what Anthropic allows as a custom id). */
export interface BatchLine {
  readonly customId: string;
  readonly request: GenerateRequest;
}

/** Where a submitted batch is, as its provider says. */
export interface BatchState {
  /** True once the provider has finished with the batch (completed, expired, cancelled, failed): its results can be read. */
  readonly ended: boolean;
  /** The provider's own word for it (`in_progress`, `finalizing`, `ended`, ...), for the progress display. */
  readonly providerStatus: string;
  /** Lines answered so far and lines in all, when the provider says. */
  readonly done?: number;
  readonly total?: number;
}

/** What came back for one line: a reply, or a typed failure (retryable or not, as for a direct call). */
export type LineResult = { readonly status: 'succeeded'; readonly reply: GenerateReply } | { readonly status: 'failed'; readonly error: ModelCallError };

/**
 * A provider's batch service: requests sent together, answered within hours at a lower price. Each
 * method is one step the batching layer (`with-batch.ts`) takes; every failure is a ModelCallError,
 * mapped from HTTP the same way as a direct call's.
 */
export interface BatchProvider {
  /**
   * Sends the lines as one batch and returns the provider's batch id. `submissionKey` is stored
   * with the batch where the provider keeps metadata, so that `recover` can find a batch whose id
   * never reached us.
   */
  submit(lines: readonly BatchLine[], submissionKey: string): Promise<string>;
  poll(batchId: string): Promise<BatchState>;
  /** Every line's result by custom id; a line missing from the map was not answered (expired or cancelled). */
  download(batchId: string): Promise<Map<string, LineResult>>;
  cancel(batchId: string): Promise<void>;
  /** The id of a batch created with `submissionKey`, if the provider can tell (OpenAI's metadata); undefined otherwise. */
  recover?(submissionKey: string): Promise<string | undefined>;
}
