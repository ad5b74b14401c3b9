/** Live counters of a run, for progress displays; updated by the runner and the run-control layer. */
export class RunMeter {
  conversationsDone = 0;
  conversationsFailed = 0;
  conversationsSkipped = 0;
  /** Calls asked of a model in this session. */
  callsMade = 0;
  /** Calls answered from this run's own calls: shared (an opening, a first argument) or resumed. */
  callsShared = 0;
  /** Calls answered from calls that earlier runs made, by run name. */
  readonly replayedFrom = new Map<string, number>();
  callsFailed = 0;
  inputTokens = 0;
  outputTokens = 0;
  costUsd = 0;
  readonly inFlightByModel = new Map<string, number>();
  /** Per model, when its next retry starts (a back-off or a server's Retry-After), in ms of the run's clock. */
  readonly retryWaitUntilMs = new Map<string, number>();

  /** Calls replayed from earlier runs. */
  get callsReplayed(): number {
    let total = 0;
    for (const count of this.replayedFrom.values()) total += count;
    return total;
  }

  callReplayed(fromRun: string): void {
    this.replayedFrom.set(fromRun, (this.replayedFrom.get(fromRun) ?? 0) + 1);
  }

  callStarted(model: string): void {
    this.inFlightByModel.set(model, (this.inFlightByModel.get(model) ?? 0) + 1);
  }

  /** A call ended: with its usage, failed after its retries, or abandoned because the run stopped. */
  callEnded(model: string, outcome: { inputTokens?: number; outputTokens?: number; costUsd?: number } | 'failed' | 'abandoned'): void {
    this.inFlightByModel.set(model, (this.inFlightByModel.get(model) ?? 1) - 1);
    if (outcome === 'abandoned') return;
    if (outcome === 'failed') {
      this.callsFailed += 1;
      return;
    }
    this.callsMade += 1;
    this.inputTokens += outcome.inputTokens ?? 0;
    this.outputTokens += outcome.outputTokens ?? 0;
    this.costUsd += outcome.costUsd ?? 0;
  }
}
