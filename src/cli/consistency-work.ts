import type { Claim } from '../domain/claim.js';
import { isRunStopped, RunGate, type StopReason } from '../runner/run-gate.js';
import type { StanceOutcome, StanceTask } from './consistency-sampling.js';

/**
 * Every answer of a study, read lazily: claim by claim, answer by answer, model by model, so
 * that the models' calls interleave and a stopped study has every claim about equally far along.
 */
export function* planStanceTasks(models: readonly string[], claims: readonly Claim[], samples: number): Generator<StanceTask> {
  for (const claim of claims) {
    for (let sampleIndex = 0; sampleIndex < samples; sampleIndex++) {
      for (const model of models) yield { model, claim, sampleIndex };
    }
  }
}

export interface StanceWorkInput {
  readonly tasks: Iterable<StanceTask>;
  readonly ask: (task: StanceTask) => Promise<StanceOutcome>;
  /** Answers being asked for at once. */
  readonly concurrency: number;
  /** Decides whether a call may start; stopping it lets calls in flight finish. */
  readonly gate: RunGate;
  /** A hard stop: answers in flight are abandoned. */
  readonly abortSignal?: AbortSignal;
  /** Answers already stored (a resumed study) are skipped. */
  readonly isDone: (task: StanceTask) => boolean;
  /** Called once per answer as it arrives (answered or failed). */
  readonly onOutcome: (task: StanceTask, outcome: StanceOutcome) => void;
  readonly onSkipped?: (task: StanceTask) => void;
}

export interface StanceWorkResult {
  readonly status: 'completed' | 'stopped';
  readonly stopReason?: StopReason;
  /** Answers stored this session (usable or not). */
  readonly answered: number;
  /** Answers whose call failed after its retries: not stored, asked again on resume. */
  readonly failed: number;
  readonly skipped: number;
  /** Answers started but not finished because the study stopped. */
  readonly abandoned: number;
}

/**
 * Asks for every answer not stored yet, `concurrency` at a time. A stop (Ctrl-C) starts nothing
 * new; answers in flight finish and are stored, or are abandoned on a hard stop. A bug stops the
 * study and is rethrown once everything in flight has settled.
 */
export async function runStanceTasks(input: StanceWorkInput): Promise<StanceWorkResult> {
  const counts = { answered: 0, failed: 0, skipped: 0, abandoned: 0 };
  let firstBug: { error: unknown } | undefined;
  const iterator = input.tasks[Symbol.iterator]();
  let exhausted = false;
  const next = (): StanceTask | undefined => {
    for (;;) {
      if (input.gate.stopReason || input.abortSignal?.aborted) return undefined;
      const step = iterator.next();
      if (step.done) {
        exhausted = true;
        return undefined;
      }
      if (!input.isDone(step.value)) return step.value;
      counts.skipped += 1;
      input.onSkipped?.(step.value);
    }
  };
  const runOne = async (task: StanceTask) => {
    try {
      const outcome = await input.ask(task);
      input.onOutcome(task, outcome);
      if (outcome.status === 'answered') counts.answered += 1;
      else counts.failed += 1;
    } catch (error) {
      if (isRunStopped(error) || input.abortSignal?.aborted) counts.abandoned += 1;
      else {
        firstBug ??= { error };
        input.gate.stop('interrupted');
      }
    }
  };
  const worker = async () => {
    for (let task = next(); task; task = next()) {
      await runOne(task);
      // Simulated agents and replays answer without I/O: let timers (progress) and signals (Ctrl-C) run.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, input.concurrency) }, worker));
  if (firstBug) throw firstBug.error;
  if (exhausted && counts.abandoned === 0) return { status: 'completed', ...counts };
  return { status: 'stopped', stopReason: input.gate.stopReason ?? 'interrupted', ...counts };
}
