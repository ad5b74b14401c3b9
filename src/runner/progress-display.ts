import { formatDuration } from '../domain/text-labels.js';
import type { LimiterState } from '../models/wrappers/with-rate-limit.js';
import type { RunMeter } from './run-meter.js';

export interface ProgressSource {
  readonly meter: RunMeter;
  readonly total: number;
  /** Per model: in flight, and its limiter's view when it has one. */
  readonly limiters: () => Array<{ model: string; state?: LimiterState }>;
  readonly nowMs: () => number;
  /** What the meter's conversation counters count (default "conversations"; a study's trials, claims). */
  readonly unit?: string;
}

function compact(count: number): string {
  if (count >= 1e6) return `${(count / 1e6).toFixed(1)}M`;
  if (count >= 1e4) return `${Math.round(count / 1e3)}k`;
  return count.toLocaleString('en-US');
}

/** The progress lines: conversations, calls and their rate, tokens, cost, ETA, per-model traffic. */
function progressLines(source: ProgressSource, startedMs: number): string[] {
  const { meter, total } = source;
  const elapsedMs = source.nowMs() - startedMs;
  const done = meter.conversationsDone + meter.conversationsSkipped;
  const ranThisSession = meter.conversationsDone;
  const remaining = total - done;
  const eta = ranThisSession > 0 && remaining > 0 ? formatDuration((elapsedMs / ranThisSession) * remaining) : remaining === 0 ? 'done' : 'n/a';
  const rate = elapsedMs > 0 ? (meter.callsMade / elapsedMs) * 1000 : 0;
  const skipped = meter.conversationsSkipped > 0 ? `, ${compact(meter.conversationsSkipped)} already done` : '';
  const models = source
    .limiters()
    .map(({ model, state }) => {
      const inFlight = meter.inFlightByModel.get(model) ?? 0;
      const limit = state?.effectiveConcurrency === undefined ? '' : `/${state.effectiveConcurrency}`;
      const queued = state && state.queued > 0 ? ` (+${state.queued} queued)` : '';
      const waitMs = (meter.retryWaitUntilMs.get(model) ?? 0) - source.nowMs();
      const waiting = waitMs > 0 ? ` (retry in ${formatDuration(waitMs)})` : '';
      return `${model} ${inFlight}${limit}${queued}${waiting}`;
    })
    .join(' · ');
  return [
    `${compact(done)}/${compact(total)} ${source.unit ?? 'conversations'} (${compact(meter.conversationsFailed)} failed${skipped}) · ${formatDuration(elapsedMs)} elapsed · ETA ${eta}`,
    `calls ${compact(meter.callsMade)} made, ${compact(meter.callsShared)} shared, ${compact(meter.callsReplayed)} replayed, ${meter.callsFailed} failed · ${rate.toFixed(1)} calls/s · tokens ${compact(meter.inputTokens)} in, ${compact(meter.outputTokens)} out · $${meter.costUsd.toFixed(4)}`,
    `in flight: ${models || 'none'}`,
  ];
}

/**
 * Shows progress while a run works: on a terminal, three lines redrawn in place; otherwise a plain
 * line every `intervalMs` (default 10 s). `stop()` draws the last state.
 */
/** Where progress goes: a terminal (redrawn in place) or a log (a line now and then). */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

export function startProgressDisplay(stream: ProgressStream, source: ProgressSource, intervalMs?: number): { stop(): void } {
  const startedMs = source.nowMs();
  const live = stream.isTTY === true;
  let drawn = 0;
  const draw = () => {
    const lines = progressLines(source, startedMs);
    if (!live) {
      stream.write(`pmiyc: ${lines[0]}; ${lines[1]}\n`);
      return;
    }
    const up = drawn > 0 ? `\u001b[${drawn}A` : '';
    stream.write(`${up}${lines.map((line) => `\r\u001b[2K  ${line}`).join('\n')}\n`);
    drawn = lines.length;
  };
  const timer = setInterval(draw, intervalMs ?? (live ? 500 : 10_000));
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      draw();
    },
  };
}
