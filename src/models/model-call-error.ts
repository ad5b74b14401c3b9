import type { FailureReason } from '../domain/conversation.js';
import { isPmiycError, PmiycError } from '../domain/errors/pmiyc-error.js';
import { printableText } from '../domain/printable-text.js';
import type { TransportFailureKind } from '../http/transport-failure.js';

/** What a failed call means for the conversation that made it. */
export type CallFailureReason = Exclude<FailureReason, 'format'>;

/** What a `ModelCallError` says of its call, given to its constructor: its fields but for the message and kind. */
export type ModelCallErrorFields = Pick<
  ModelCallError,
  'provider' | 'model' | 'reason' | 'statusCode' | 'retryable' | 'retryAfterMs' | 'replyLimitBytes' | 'transportFailure'
>;

/**
 * A call that did not produce a reply. Adapters translate every provider error into this;
 * the retry layer decides by `retryable` and `retryAfterMs`, never by the message text, and
 * the engine records `reason` as the conversation's failure reason once retries are spent.
 *
 * Its message is printed, stored and exported, so it holds no control character or escape sequence
 * (removed here, whoever builds it); the adapters also replace the model's secrets in the server's
 * text before they build one (`providers/errors/server-text.ts`).
 */
export class ModelCallError extends PmiycError {
  readonly kind = 'provider';
  readonly provider: string;
  readonly model: string;
  readonly reason: CallFailureReason;
  readonly statusCode?: number;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  /**
   * Set when the reply was larger than the model's `maxReplyBytes`: that limit, in bytes. Not
   * retryable, and a run does not ask the same request again in that session (with-call-cache.ts).
   */
  readonly replyLimitBytes?: number;
  /**
   * Set when no HTTP answer came: what went wrong below the status codes (`unreachable`: no connection
   * could be made; `closed`, `timeout`, ...: see TransportFailureKind).
   */
  readonly transportFailure?: TransportFailureKind;

  constructor(message: string, fields: ModelCallErrorFields, options?: { cause?: unknown }) {
    super(printableText(message), options);
    this.name = 'ModelCallError';
    this.provider = fields.provider;
    this.model = fields.model;
    this.reason = fields.reason;
    this.retryable = fields.retryable;
    if (fields.statusCode !== undefined) this.statusCode = fields.statusCode;
    if (fields.retryAfterMs !== undefined) this.retryAfterMs = fields.retryAfterMs;
    if (fields.replyLimitBytes !== undefined) this.replyLimitBytes = fields.replyLimitBytes;
    if (fields.transportFailure !== undefined) this.transportFailure = fields.transportFailure;
  }
}

/**
 * Whether `error` is a ModelCallError, also one made by another copy of pmiyc (the bundled CLI and
 * the library each have their own): told by the family's marker and its kind, where `instanceof`
 * would fail and a retry would not see the error's fields.
 */
export function isModelCallError(error: unknown): error is ModelCallError {
  return isPmiycError(error) && error.kind === 'provider';
}
