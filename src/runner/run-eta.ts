/** How much work was done by a moment of the run: calls of the plan, or items when a study has no call forecast. */
export interface WorkSample {
  /** Ms of the run's clock. */
  readonly atMs: number;
  readonly done: number;
}

/** The rate over the last minute: long enough to smooth single slow calls, short enough to follow a 429 storm. */
const RATE_WINDOW_MS = 60_000;

/**
 * The samples of the last `windowMs`, kept as the run goes: one sample before the window is kept
 * too, so that the rate always spans the whole window once the run is that old.
 */
export class WorkWindow {
  private readonly samples: WorkSample[] = [];

  constructor(private readonly windowMs = RATE_WINDOW_MS) {}

  add(sample: WorkSample): void {
    this.samples.push(sample);
    const startMs = sample.atMs - this.windowMs;
    while (this.samples.length > 2 && this.samples[1]!.atMs <= startMs) this.samples.shift();
  }

  /** Work per ms from the oldest kept sample to the newest; undefined before two samples or while nothing moved. */
  ratePerMs(): number | undefined {
    return workRate(this.samples);
  }
}

/** Work per ms between the first and the last sample; undefined when no time passed or nothing was done. */
export function workRate(samples: readonly WorkSample[]): number | undefined {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last || last.atMs <= first.atMs || last.done <= first.done) return undefined;
  return (last.done - first.done) / (last.atMs - first.atMs);
}

export interface EtaInput {
  /** The work this session is expected to do in all (calls of the plan, or items); undefined: not known. */
  readonly expected: number | undefined;
  /** The work done so far in this session, in the same unit. */
  readonly done: number;
  /** The recent rate of that work per ms (see `WorkWindow`). */
  readonly ratePerMs: number | undefined;
  /** True when every item is done or failed: the ETA is "done" whatever the counts say. */
  readonly finished: boolean;
  /**
   * The least time the rest can take, one call after another (the longest item still under way times
   * the time per call): at the tail of a run fewer items than call slots are left, and the rate falls.
   */
  readonly criticalPathMs?: number;
}

export type Eta =
  | { readonly status: 'done' }
  | { readonly status: 'unknown' }
  /** `remaining` work at the recent rate takes `remainingMs`; `remaining` is 0 when more work came than expected. */
  | { readonly status: 'estimated'; readonly remaining: number; readonly remainingMs: number };

/**
 * The time left: the work remaining (expected minus done, never below 0) times the recent time
 * per unit of work. Unknown before any work was done or when nothing says how much there is.
 */
export function estimateEta(input: EtaInput): Eta {
  if (input.finished) return { status: 'done' };
  if (input.expected === undefined || input.ratePerMs === undefined || !(input.ratePerMs > 0)) return { status: 'unknown' };
  const remaining = Math.max(0, input.expected - input.done);
  return { status: 'estimated', remaining, remainingMs: Math.max(remaining / input.ratePerMs, input.criticalPathMs ?? 0) };
}
