import { isRunStopped, RunGate, type StopReason } from './run-gate.js';

/** How one task ended: its result was stored, or it failed in a way a resumed run retries. */
type TaskOutcome = 'done' | 'failed';

export interface RunTasksInput<T> {
  /** The tasks, read lazily. */
  readonly tasks: Iterable<T>;
  /** Tasks in flight at once (each has at most one call on the wire). */
  readonly concurrency: number;
  readonly gate?: RunGate;
  /** A hard stop: calls in flight are abandoned. */
  readonly abortSignal?: AbortSignal;
  /** Tasks already stored (a resumed run) are skipped. */
  readonly isDone?: (task: T) => boolean;
  readonly onSkipped?: (task: T) => void;
  /** Does one task, stores its result and says how it ended; throws only when the run stops or on a bug. */
  readonly run: (task: T) => Promise<TaskOutcome>;
}

export interface TasksResult {
  readonly status: 'completed' | 'stopped';
  readonly stopReason?: StopReason;
  readonly done: number;
  readonly failed: number;
  readonly skipped: number;
  /** Tasks started but not finished because the run stopped (resumable). */
  readonly abandoned: number;
}

/**
 * The one scheduler of pmiyc: runs the tasks that are not done yet (a tournament's conversations,
 * a study's answers or trials), `concurrency` at a time. Results do not depend on the order in
 * which tasks finish: their seeds come from what they are. A stop (Ctrl-C, budget, failures)
 * starts nothing new; tasks already started finish or are abandoned unsaved, to be redone from
 * their stored calls on resume. A bug stops the run and is rethrown once everything has settled.
 */
export async function runTasks<T>(input: RunTasksInput<T>): Promise<TasksResult> {
  const gate = input.gate ?? new RunGate();
  const counts = { done: 0, failed: 0, skipped: 0, abandoned: 0 };
  let firstBug: { error: unknown } | undefined;
  const iterator = input.tasks[Symbol.iterator]();
  let exhausted = false;
  const next = (): T | undefined => {
    for (;;) {
      if (gate.stopReason || input.abortSignal?.aborted) return undefined;
      const step = iterator.next();
      if (step.done) {
        exhausted = true;
        return undefined;
      }
      if (!input.isDone?.(step.value)) return step.value;
      counts.skipped += 1;
      input.onSkipped?.(step.value);
    }
  };
  const worker = async () => {
    for (let task = next(); task !== undefined; task = next()) {
      try {
        counts[await input.run(task)] += 1;
      } catch (error) {
        if (isRunStopped(error) || input.abortSignal?.aborted) counts.abandoned += 1;
        else {
          firstBug ??= { error };
          gate.stop('interrupted');
        }
      }
      // Replays and simulated agents answer without I/O: let timers (progress) and signals (Ctrl-C) in.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, input.concurrency) }, worker));
  if (firstBug) throw firstBug.error;
  if (exhausted && counts.abandoned === 0) return { status: 'completed', ...counts };
  return { status: 'stopped', stopReason: gate.stopReason ?? (gate.blockedModels.size > 0 ? 'auth' : 'interrupted'), ...counts };
}
