/**
 * Whether this process has work that a signal should stop gracefully: a run session (calls in
 * flight finish and are stored) or the annotation server (labels are flushed). Without one, a
 * signal ends the process at once, as a signal should (`pmiyc report`, `pmiyc export`).
 */
let holders = 0;

/** Marks graceful work as started; call the returned function when it ends. */
export function holdGracefulStop(): () => void {
  holders += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders -= 1;
  };
}

export function stopsGracefully(): boolean {
  return holders > 0;
}
