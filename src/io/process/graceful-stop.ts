import { STOPPING_SIGNALS, type StoppingSignal, StopRequest } from '../../runner/run-signals.js';

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

function stopsGracefully(): boolean {
  return holders > 0;
}

/** What the graceful work in progress would leave behind if it stopped now, one phrase each. */
function describeLeftBehind(): string[] {
  return [...leftBehind].map((describe) => describe()).filter((phrase) => phrase !== undefined);
}

/** Resolves when `stop` is aborted (at once if it is already): a server's life until the first signal. */
export function untilStopped(stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => (stop.aborted ? resolve() : stop.addEventListener('abort', () => resolve(), { once: true })));
}

/**
 * Ctrl-C, SIGTERM and SIGHUP alike. While a run works: the first starts nothing new and lets calls
 * in flight finish and be stored (calls waiting for a provider batch are let go, the batch left at the
 * provider for --resume: the message says how many), the second abandons them, the third leaves at once. Commands
 * with nothing to drain (report, export, ...) end at once. The exit code is 128 + the signal's number:
 * the returned function gives it once a signal has come (0 before).
 */
export function listenForStopSignals(stop: AbortController, abort: AbortController): () => number {
  let interrupts = 0;
  let first: StoppingSignal = 'SIGINT';
  const onSignal = (signal: StoppingSignal) => {
    interrupts += 1;
    if (interrupts === 1) first = signal;
    if (!stopsGracefully() || interrupts >= 3) process.exit(STOPPING_SIGNALS[signal]);
    const again = signal === 'SIGINT' ? 'Ctrl-C again' : `${signal} again`;
    if (interrupts === 1) {
      // Calls waiting for a provider batch are not in flight: they stay at the provider, for --resume.
      const left = describeLeftBehind().map((phrase) => `; ${phrase}, for --resume to collect`);
      process.stderr.write(
        `\npmiyc: ${signal}: stopping: no new calls start; calls in flight finish and are stored (${again} to abandon them)${left.join('')}\n`,
      );
      stop.abort(new StopRequest(signal));
    } else {
      process.stderr.write(`\npmiyc: abandoning calls in flight (${again} to quit at once)\n`);
      abort.abort(new StopRequest(signal));
    }
  };
  for (const signal of Object.keys(STOPPING_SIGNALS) as StoppingSignal[]) process.on(signal, () => onSignal(signal));
  return () => (interrupts > 0 ? STOPPING_SIGNALS[first] : 0);
}
