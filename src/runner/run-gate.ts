/** Why a run stopped starting work before its plan was done. */
export type StopReason = 'interrupted' | 'budget' | 'failures';

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

  stop(reason: StopReason): void {
    this.reason ??= reason;
  }

  /** Admits a call expected to cost up to `estimateUsd`, or stops the run. */
  admit(estimateUsd: number): void {
    if (this.reason) throw new RunStoppedError(this.reason);
    if (this.maxCostUsd !== undefined && this.spentUsd + this.reservedUsd + estimateUsd > this.maxCostUsd) {
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
