import type { Claim } from '../../domain/claim.js';
import type { RunGate, StopReason } from '../../runner/run-gate.js';
import { runTasks } from '../../runner/run-tasks.js';
import type { StanceOutcome, StanceTask } from './ask-stance.js';

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
  const result = await runTasks({
    tasks: input.tasks,
    concurrency: input.concurrency,
    gate: input.gate,
    ...(input.abortSignal ? { abortSignal: input.abortSignal } : {}),
    isDone: input.isDone,
    ...(input.onSkipped ? { onSkipped: input.onSkipped } : {}),
    run: async (task) => {
      const outcome = await input.ask(task);
      input.onOutcome(task, outcome);
      return outcome.status === 'answered' ? 'done' : 'failed';
    },
  });
  const { done, failed, skipped, abandoned, status, stopReason } = result;
  return { status, ...(stopReason ? { stopReason } : {}), answered: done, failed, skipped, abandoned };
}
