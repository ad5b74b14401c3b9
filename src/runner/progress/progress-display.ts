import type { ReplicaPoolView } from '../../models/providers/replicas/replica-pool.js';
import type { LimiterState } from '../../models/wrappers/with-rate-limit.js';
import type { RunMeter } from '../run-meter.js';
import { LiveBlock } from './live-block.js';
import { progressEta } from './progress-eta.js';
import { type ProgressView, progressBlock, progressLogLine } from './progress-lines.js';
import { WorkWindow } from './run-eta.js';

/** A study's forecast of the calls its session makes (the tournament's `CallForecast`), for a calls-remaining ETA. */
export interface CallForecastView {
  /** Calls of the plan this session is expected to make in all, counted as `RunMeter.planCallsDone` counts them. */
  expectedCalls(): number;
  /** Calls the longest item still under way needs, one after another. */
  longestRemainingCalls(): number;
}

export interface ProgressSource {
  readonly meter: RunMeter;
  readonly total: number;
  /** The run's models, each with its limiter's view when it has one, and its replicas' when it has several. */
  readonly limiters: () => Array<{ model: string; state?: LimiterState; replicas?: ReplicaPoolView }>;
  readonly nowMs: () => number;
  /** What the meter's conversation counters count (default "conversations"; a study's trials, claims). */
  readonly unit?: string;
  /** Spent by the run so far, earlier sessions included; the meter's cost of this session unless given. */
  readonly spentUsd?: () => number;
  /** Models of the run without prices: their calls cost nothing in the total, which says so. */
  readonly modelsWithoutPrice?: readonly string[];
  /** Without one, the ETA counts items instead of calls. */
  readonly forecast?: CallForecastView;
  /**
   * The share of the plan's calls each model makes (a tournament's `callSharesOf`): with it, a model
   * held back by its own limits (requests per minute, calls at once) holds the ETA up.
   */
  readonly callShares?: ReadonlyMap<string, number>;
  /** Why the run is stopping ("Ctrl-C", "the budget"), once it is: then the display counts the calls left to drain. */
  readonly stopping?: () => string | undefined;
}

/** Where progress goes: a terminal (redrawn in place) or a log (a line now and then). */
export interface ProgressStream {
  readonly isTTY?: boolean;
  /** The terminal's size, when it is one (Node's TTY streams have both). */
  readonly columns?: number;
  readonly rows?: number;
  write(text: string): unknown;
}

export interface ProgressDisplay {
  /** Draws now (the timer does it every interval). */
  refresh(): void;
  /** Draws the last state (on a terminal: one clean block left in place) and gives the stream back. */
  stop(): void;
}

/** What the lines show now. */
function viewOf(source: ProgressSource, startedMs: number, window: WorkWindow): ProgressView {
  const { meter } = source;
  const nowMs = source.nowMs();
  const models = source.limiters();
  const oldestCallAgeMs = models.flatMap(({ model }) => {
    const oldestMs = meter.oldestOnTheWireMs(model);
    return oldestMs === undefined ? [] : [{ model, ageMs: Math.max(0, nowMs - oldestMs) }];
  });
  const eta = progressEta(source, models, oldestCallAgeMs, nowMs, window);
  const stoppingWhy = source.stopping?.();
  const callsLeft = models.reduce((sum, { model }) => sum + meter.trafficOf(model).started, 0);
  return {
    meter,
    total: source.total,
    unit: source.unit ?? 'conversations',
    models: models.map(({ model, state, replicas }) => {
      const oldest = oldestCallAgeMs.find((entry) => entry.model === model);
      return {
        model,
        ...(state?.effectiveConcurrency === undefined ? {} : { concurrencyLimit: state.effectiveConcurrency }),
        ...(replicas ? { replicas } : {}),
        ...(oldest ? { oldestCallAgeMs: oldest.ageMs } : {}),
      };
    }),
    elapsedMs: nowMs - startedMs,
    nowMs,
    eta,
    etaUnit: source.forecast ? 'calls' : 'items',
    ...(stoppingWhy === undefined ? {} : { stopping: { why: stoppingWhy, callsLeft } }),
    spentUsd: source.spentUsd?.() ?? meter.costUsd,
    modelsWithoutPrice: source.modelsWithoutPrice ?? [],
  };
}

function textOf(chunk: unknown): string {
  return typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? new TextDecoder().decode(chunk) : String(chunk);
}

/**
 * While it runs, the display owns the terminal: whatever is written to the stream (the session's
 * messages, a command's warnings, the signal handler's notice, Node's own warnings) is printed
 * above the block, never into it, through `LiveBlock`. Writers keep calling `stream.write`, so the
 * stream's `write` is replaced until `stop()` puts it back, as terminal UIs do (log-update, ink):
 * nothing else has to know that a block is drawn. Returns the block's printer.
 */
function ownStream(stream: ProgressStream, block: LiveBlock, lines: () => string[]): () => void {
  const original = stream.write;
  const hadOwnWrite = Object.hasOwn(stream, 'write');
  stream.write = (chunk: unknown, ...rest: unknown[]) => {
    block.print(textOf(chunk), lines());
    const callback = rest.find((argument) => typeof argument === 'function') as (() => void) | undefined;
    if (callback) queueMicrotask(callback);
    return true;
  };
  return () => {
    if (hadOwnWrite) stream.write = original;
    else delete (stream as { write?: unknown }).write;
  };
}

/**
 * Whether the block can be redrawn in place: a terminal that says how wide and high it is. Some CI
 * runners and multiplexers give a terminal with no size (undefined, or 0 by 0): the block's lines
 * would be cut to nothing, so such a terminal (or one a single row or column big) gets the plain
 * lines a log gets.
 */
function drawsInPlace(stream: ProgressStream): boolean {
  return stream.isTTY === true && (stream.columns ?? 0) > 1 && (stream.rows ?? 0) > 1;
}

/**
 * Shows progress while a run works. On a terminal: a block redrawn in place every `intervalMs`
 * (default 500 ms) with every message of the run printed above it (see `ownStream`). Otherwise
 * (a log, or a terminal with no size) a plain line every `intervalMs` (default 10 s), messages as
 * they come. `stop()` draws the last state.
 */
export function startProgressDisplay(stream: ProgressStream, source: ProgressSource, intervalMs?: number): ProgressDisplay {
  const startedMs = source.nowMs();
  const window = new WorkWindow();
  const view = () => viewOf(source, startedMs, window);
  if (!drawsInPlace(stream)) {
    // The rate's first sample, at the start: without it the first line, an interval on, would have one sample and no ETA.
    view();
    const draw = () => stream.write(`pmiyc: ${progressLogLine(view())}\n`);
    const timer = setInterval(draw, intervalMs ?? 10_000);
    timer.unref();
    return {
      refresh: draw,
      stop() {
        clearInterval(timer);
        draw();
      },
    };
  }
  const write = stream.write.bind(stream);
  const block = new LiveBlock(write, () => ({
    ...(stream.columns === undefined ? {} : { columns: stream.columns }),
    ...(stream.rows === undefined ? {} : { rows: stream.rows }),
  }));
  // The width a line may take: the block leaves the last column free (see LiveBlock).
  const lines = () => progressBlock(view(), { ...(stream.columns === undefined ? {} : { width: stream.columns - 1 }) });
  const giveBack = ownStream(stream, block, lines);
  const timer = setInterval(() => block.draw(lines()), intervalMs ?? 500);
  timer.unref();
  block.draw(lines());
  return {
    refresh: () => block.draw(lines()),
    stop() {
      clearInterval(timer);
      giveBack();
      block.close(lines());
    },
  };
}
