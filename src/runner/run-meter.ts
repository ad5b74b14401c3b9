/** Live counters of a run, for progress displays; updated by the runner and the run-control layer. */
export class RunMeter {
  conversationsDone = 0;
  conversationsFailed = 0;
  conversationsSkipped = 0;
  callsMade = 0;
  callsReplayed = 0;
  callsFailed = 0;
  inputTokens = 0;
  outputTokens = 0;
  costUsd = 0;
  readonly inFlightByModel = new Map<string, number>();

  callStarted(model: string): void {
    this.inFlightByModel.set(model, (this.inFlightByModel.get(model) ?? 0) + 1);
  }

  callEnded(model: string, outcome: { inputTokens?: number; outputTokens?: number; costUsd?: number } | 'failed'): void {
    this.inFlightByModel.set(model, (this.inFlightByModel.get(model) ?? 1) - 1);
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
