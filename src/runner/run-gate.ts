import type { ModelCallError } from '../models/model-call-error.js';

/**
 * Calls of one model failed in a row with a lasting cause (`lastingCauseOf`: its server cannot be reached,
 * or has no such model), and none answered in between, before the run stops calling it. Small: such a cause
 * fails every call alike, and each failed call was already tried again (`MAX_UNREACHABLE_RETRIES`).
 */
export const DEAD_AFTER_FAILURES = 3;

/**
 * Why a run stopped starting work before its plan was done: a signal (Ctrl-C, SIGTERM, SIGHUP),
 * the budget, too many failures, refused credentials (only that model's work stops), or another
 * process that took the run over.
 */
export type StopReason = 'interrupted' | 'budget' | 'failures' | 'auth' | 'lease';

/**
 * Where the spend stood when the budget refused a call: what was spent, what the calls in flight
 * held reserved (each the most it could cost, until it ends), and what the refused call asked for.
 * The three together would have passed --max-cost; the spend alone usually has not.
 */
export interface BudgetRefusal {
  readonly spentUsd: number;
  readonly reservedUsd: number;
  readonly refusedUsd: number;
}

/** Thrown into a conversation whose next call may not start: it is abandoned, not failed. */
export class RunStoppedError extends Error {
  constructor(readonly reason: StopReason) {
    super(`the run stopped (${reason})`);
    this.name = 'RunStoppedError';
  }
}

export function isRunStopped(error: unknown): error is RunStoppedError {
  return error instanceof RunStoppedError;
}

/**
 * Decides whether new work may start. Stopping never cancels what is in flight: calls already
 * on the wire finish and are stored. The budget counts what was spent (including by earlier
 * sessions of the same run) plus what calls in flight may cost, and refuses a call that could
 * take the total past the limit.
 */
export class RunGate {
  private reason: StopReason | undefined;
  private reservedUsd = 0;
  private readonly stopping = new AbortController();
  private readonly blocked = new Map<string, string>();
  private refusal: BudgetRefusal | undefined;
  private readonly stoppedModelCauses = new Map<string, ModelCallError>();
  /** Per model, its calls that failed with a lasting cause since its last answer. */
  private readonly lastingFailuresInARow = new Map<string, number>();

  constructor(
    private readonly maxCostUsd?: number,
    private spentUsd = 0,
  ) {}

  get stopReason(): StopReason | undefined {
    return this.reason;
  }

  get spent(): number {
    return this.spentUsd;
  }

  /** The call the budget refused, when it stopped the run (see `BudgetRefusal`). */
  get budgetRefusal(): BudgetRefusal | undefined {
    return this.refusal;
  }

  /**
   * Aborts, with a `RunStoppedError`, when the run stops: waits that are not calls (a retry's
   * back-off, a rate limiter's queue) listen to it, so a stop never waits out a long Retry-After.
   */
  get stopped(): AbortSignal {
    return this.stopping.signal;
  }

  stop(reason: StopReason): void {
    if (this.reason) return;
    this.reason = reason;
    this.stopping.abort(new RunStoppedError(reason));
  }

  /**
   * Stops every further call to one model (its credentials were refused): its work is abandoned,
   * to be resumed once the key is fixed, while the other models go on. `why` is shown once.
   * Returns false when the model was blocked already.
   */
  blockModel(model: string, why: string): boolean {
    if (this.blocked.has(model)) return false;
    this.blocked.set(model, why);
    return true;
  }

  /** Models whose calls were stopped, with why. */
  get blockedModels(): ReadonlyMap<string, string> {
    return this.blocked;
  }

  /** A call of `model` was answered: its count of failures in a row starts again. */
  modelAnswered(model: string): void {
    this.lastingFailuresInARow.delete(model);
  }

  /**
   * A call of `model` failed with a lasting cause (after its retries). The `DEAD_AFTER_FAILURES`th in a
   * row with no answer between stops the model: every later call of it fails at once with `error` as the
   * cause (`stoppedModels`), while the other models go on. True only for the failure that stopped it.
   */
  modelFailedLastingly(model: string, error: ModelCallError): boolean {
    const inARow = (this.lastingFailuresInARow.get(model) ?? 0) + 1;
    this.lastingFailuresInARow.set(model, inARow);
    if (inARow < DEAD_AFTER_FAILURES || this.stoppedModelCauses.has(model)) return false;
    this.stoppedModelCauses.set(model, error);
    return true;
  }

  /** Models stopped because their calls failed with a lasting cause, with the last such failure. */
  get stoppedModels(): ReadonlyMap<string, ModelCallError> {
    return this.stoppedModelCauses;
  }

  /** Admits a call to `model` expected to cost up to `estimateUsd`, or stops the run. */
  admit(estimateUsd: number, model?: string): void {
    if (this.reason) throw new RunStoppedError(this.reason);
    if (model !== undefined && this.blocked.has(model)) throw new RunStoppedError('auth');
    if (this.maxCostUsd !== undefined && this.spentUsd + this.reservedUsd + estimateUsd > this.maxCostUsd) {
      this.refusal = { spentUsd: this.spentUsd, reservedUsd: this.reservedUsd, refusedUsd: estimateUsd };
      this.stop('budget');
      throw new RunStoppedError('budget');
    }
    this.reservedUsd += estimateUsd;
  }

  /** Settles an admitted call: its reservation is released and its real cost counted. */
  settle(estimateUsd: number, costUsd: number): void {
    this.reservedUsd -= estimateUsd;
    this.spentUsd += costUsd;
  }
}
