/**
 * The batch layer's work in flight for one run, across its models: submissions, polls, downloads and
 * look-ups, each of which ends by writing to the run's ledger. The run's session waits for it before
 * the store is closed: a batch that reached the provider then has its id stored (so a resume collects it
 * instead of paying for it again), and nothing writes to a closed store.
 */
export class BatchWork {
  private readonly running = new Set<Promise<void>>();
  private submitting = 0;

  /** Keeps `work` until it ends; `work` must handle its own errors (it never rejects). */
  track(work: Promise<void>, kind: 'submission' | 'poll'): void {
    if (kind === 'submission') this.submitting += 1;
    const tracked = work.finally(() => {
      this.running.delete(tracked);
      if (kind === 'submission') this.submitting -= 1;
    });
    this.running.add(tracked);
  }

  /** Batches being submitted now: their provider ids are not stored yet. */
  get submissions(): number {
    return this.submitting;
  }

  /** Resolves once nothing is in flight, work started meanwhile included. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
