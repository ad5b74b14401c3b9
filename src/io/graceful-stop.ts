/**
 * Whether this process has work that a signal should stop gracefully: a run session (calls in
 * flight finish and are stored) or the annotation server (labels are flushed). Without one, a
 * signal ends the process at once, as a signal should (`pmiyc report`, `pmiyc export`).
 */
let holders = 0;
/** What each holder leaves behind when it stops, said with the signal's message (requests pending in provider batches). */
const leftBehind = new Set<() => string | undefined>();

/**
 * Marks graceful work as started; call the returned function when it ends. `describeLeftBehind`
 * says what a stop would leave for later (undefined: nothing), at the moment the signal comes.
 */
export function holdGracefulStop(describeLeftBehind?: () => string | undefined): () => void {
  holders += 1;
  if (describeLeftBehind) leftBehind.add(describeLeftBehind);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders -= 1;
    if (describeLeftBehind) leftBehind.delete(describeLeftBehind);
  };
}

export function stopsGracefully(): boolean {
  return holders > 0;
}

/** What the graceful work in progress would leave behind if it stopped now, one phrase each. */
export function describeLeftBehind(): string[] {
  return [...leftBehind].map((describe) => describe()).filter((phrase) => phrase !== undefined);
}

/** Resolves when `stop` is aborted (at once if it is already): a server's life until the first signal. */
export function untilStopped(stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => (stop.aborted ? resolve() : stop.addEventListener('abort', () => resolve(), { once: true })));
}
