import { type EtaFloor, type EtaHold, LONG_CALL_MS } from './eta-floors.js';

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
  /** The first sample with the work done now: when the work last moved, and the rate then. */
  private progress: { readonly atMs: number; readonly ratePerMs: number | undefined } | undefined;

  constructor(private readonly windowMs = RATE_WINDOW_MS) {}

  add(sample: WorkSample): void {
    const moved = this.samples.length === 0 || sample.done !== this.samples.at(-1)!.done;
    this.samples.push(sample);
    const startMs = sample.atMs - this.windowMs;
    while (this.samples.length > 2 && this.samples[1]!.atMs <= startMs) this.samples.shift();
    if (moved) this.progress = { atMs: sample.atMs, ratePerMs: workRate(this.samples) };
  }

  /** Work per ms from the oldest kept sample to the newest; undefined before two samples or while nothing moved. */
  ratePerMs(): number | undefined {
    return workRate(this.samples);
  }

  /** Ms since the work last moved, at `nowMs`, and the rate it moved at then (see `EtaInput.stall`). */
  stallAt(nowMs: number): { readonly forMs: number; readonly ratePerMs: number | undefined } | undefined {
    return this.progress ? { forMs: nowMs - this.progress.atMs, ratePerMs: this.progress.ratePerMs } : undefined;
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
  /** Other least times the rest takes (see `etaFloors`): a model's own limits, a call out for long. */
  readonly floors?: readonly EtaFloor[];
  /** How long nothing was done, and the rate before (`WorkWindow.stallAt`). */
  readonly stall?: { readonly forMs: number; readonly ratePerMs: number | undefined };
}

export type Eta =
  | { readonly status: 'done' }
  | { readonly status: 'unknown' }
  /**
   * `remaining` work at the recent rate takes `remainingMs`, or longer when `heldBy` holds it up;
   * `remaining` is 0 when more work came than expected.
   */
  | { readonly status: 'estimated'; readonly remaining: number; readonly remainingMs: number; readonly heldBy?: EtaHold };

/** The floor that holds longest; undefined: none does. */
function highestOf(floors: readonly EtaFloor[]): EtaFloor | undefined {
  return floors.reduce<EtaFloor | undefined>((best, floor) => (floor.ms > (best?.ms ?? 0) ? floor : best), undefined);
}

/**
 * Everything waits behind a call out for long (it holds a model's only slot, or an opening many
 * conversations share): nothing was done for `LONG_CALL_MS` or more while a call is out that long.
 * Then the rest starts after it: its expected wait plus the rest at the rate before the stall (or
 * another floor, when longer). The window's own rate would count the stall as the run's pace.
 */
function waitingBehind(input: EtaInput, floors: readonly EtaFloor[], remaining: number): Eta | undefined {
  const stall = input.stall;
  if (stall === undefined || stall.forMs < LONG_CALL_MS) return undefined;
  const longCall = highestOf(floors.filter((floor) => floor.hold.kind === 'long call'));
  if (longCall === undefined) return undefined;
  const others = highestOf(floors.filter((floor) => floor.hold.kind !== 'long call'))?.ms ?? 0;
  const byRateMs = stall.ratePerMs !== undefined && stall.ratePerMs > 0 ? remaining / stall.ratePerMs : 0;
  return { status: 'estimated', remaining, remainingMs: longCall.ms + Math.max(byRateMs, others), heldBy: longCall.hold };
}

/**
 * The time left: the work remaining (expected minus done, never below 0) times the recent time
 * per unit of work, or the longest of the floors when one is longer (it says which); while
 * everything waits behind a call out for long, that call's wait and then the rest (`waitingBehind`).
 * Unknown before any work was done or when nothing says how much there is, unless a call out for
 * long says at least how long.
 */
export function estimateEta(input: EtaInput): Eta {
  if (input.finished) return { status: 'done' };
  const floors: EtaFloor[] = [...(input.floors ?? [])];
  if (input.criticalPathMs !== undefined) floors.push({ ms: input.criticalPathMs, hold: { kind: 'tail' } });
  if (input.expected === undefined) return { status: 'unknown' };
  const remaining = Math.max(0, input.expected - input.done);
  const behind = waitingBehind(input, floors, remaining);
  if (behind) return behind;
  const highest = highestOf(floors);
  const rateKnown = input.ratePerMs !== undefined && input.ratePerMs > 0;
  if (!rateKnown && highest?.hold.kind !== 'long call') return { status: 'unknown' };
  const byRateMs = rateKnown ? remaining / input.ratePerMs! : 0;
  if (highest === undefined || highest.ms <= byRateMs) return { status: 'estimated', remaining, remainingMs: byRateMs };
  return { status: 'estimated', remaining, remainingMs: highest.ms, heldBy: highest.hold };
}
