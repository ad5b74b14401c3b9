import type { PmiycConfig } from '../config/config-schema.js';
import type { Claim } from '../domain/claim.js';
import { RunGate } from '../runner/run-gate.js';
import { RunMeter } from '../runner/run-meter.js';
import { ConsistencyTable } from '../store/consistency-table.js';
import type { ResultStore, RunInfo } from '../store/result-store.js';
import type { ConsistencyDesign } from './consistency-design.js';
import { askStance, type StanceOutcome, type StanceTask } from './consistency-sampling.js';
import { planStanceTasks, runStanceTasks, type StanceWorkResult } from './consistency-work.js';
import type { ModelRegistry } from './model-registry.js';
import { startProgressDisplay } from './progress-display.js';
import { createRunModels } from './run-models.js';
import type { CliContext, RunSignals } from './terminal.js';

const EXIT_FAILED = 1;
const count = (value: number) => value.toLocaleString('en-US');
const EXIT_INTERRUPTED = 130;

export interface StudySession {
  readonly store: ResultStore;
  readonly run: RunInfo;
  readonly design: ConsistencyDesign;
  readonly claims: readonly Claim[];
  readonly config: PmiycConfig;
  readonly options: { readonly store: string; readonly concurrency: number; readonly cache: boolean; readonly progressIntervalMs?: number };
  readonly context: CliContext;
  readonly signals: RunSignals;
}

/** Shows progress on standard error while the study works (answers, calls, per-model traffic). */
function showProgress(session: StudySession, meter: RunMeter, registry: ModelRegistry): { stop(): void } {
  const { design, claims, context, options } = session;
  const source = {
    meter,
    total: design.models.length * claims.length * design.samples,
    unit: 'answers',
    limiters: () => design.models.map((model) => ({ model, ...(registry.limiterFor(model) ? { state: registry.limiterFor(model)!.limiterState() } : {}) })),
    nowMs: () => context.now().getTime(),
  };
  return startProgressDisplay(context.stderr, source, options.progressIntervalMs);
}

/** Stores an answer as it arrives; a failed call is reported and left for the next session. */
function recordOutcome(session: StudySession, table: ConsistencyTable, meter: RunMeter, task: StanceTask, outcome: StanceOutcome): void {
  if (outcome.status === 'failed') {
    meter.conversationsFailed += 1;
    session.context.stderr.write(`pmiyc: ${task.model} gave no answer on claim ${task.claim.index} (${outcome.reason}): ${outcome.detail}\n`);
    return;
  }
  const { claim } = task;
  table.save(session.run.id, { model: task.model, domain: claim.domain, claimIndex: claim.index, claim: claim.claim, sampleIndex: task.sampleIndex, ...outcome });
  meter.conversationsDone += 1;
}

/**
 * One session of a study: every answer not stored yet is asked for, through the models of the
 * run layer (call cache: every call committed before use and replayed on resume; the run gate:
 * Ctrl-C; the shared concurrency limit), and stored as it arrives. Returns the exit code.
 */
export async function executeStudy(session: StudySession): Promise<number> {
  const { store, run, design, claims, options, context, signals } = session;
  const table = new ConsistencyTable(store.sqlite);
  const gate = new RunGate();
  const meter = new RunMeter();
  const registry = createRunModels(session.config, context.env, {
    cache: store.callCache(run.id),
    gate,
    meter,
    concurrency: options.concurrency,
    noCache: !options.cache,
    onRetry: (_model, message) => context.stderr.write(`pmiyc: ${message}; retrying\n`),
    now: () => context.now().getTime(),
  });
  const onStop = () => gate.stop('interrupted');
  signals.stop.addEventListener('abort', onStop, { once: true });
  const progress = showProgress(session, meter, registry);
  let result: StanceWorkResult;
  try {
    result = await runStanceTasks({
      tasks: planStanceTasks(design.models, claims, design.samples),
      ask: (task) => askStance(registry.modelFor(task.model), task, design.sampling, run.seed, signals.abort),
      // Twice the call limit, so that answers waiting on one busy model's limiter do not idle the others.
      concurrency: options.concurrency * 2,
      gate,
      abortSignal: signals.abort,
      isDone: (task) => table.has(run.id, { model: task.model, domain: task.claim.domain, claimIndex: task.claim.index, sampleIndex: task.sampleIndex }),
      onSkipped: () => (meter.conversationsSkipped += 1),
      onOutcome: (task, outcome) => recordOutcome(session, table, meter, task, outcome),
    });
  } finally {
    signals.stop.removeEventListener('abort', onStop);
    progress.stop();
  }
  return finishSession(session, result, meter);
}

/** Sets the study's status, says what this session did and how to go on; returns the exit code. */
function finishSession({ store, run, options, context }: StudySession, result: StanceWorkResult, meter: RunMeter): number {
  const status = result.status === 'stopped' ? 'stopped' : result.failed > 0 ? 'failed' : 'completed';
  store.setRunStatus(run.id, status);
  context.stdout.write(
    `Study ${run.name} in ${store.path}: ${count(result.answered)} answers this session, ${count(result.skipped)} already stored; ` +
      `calls: ${count(meter.callsMade)} made, ${count(meter.callsReplayed)} replayed from the store, ${count(meter.callsFailed)} failed.\n\n`,
  );
  const resume = `pmiyc consistency --store ${options.store} --study ${run.name} --resume`;
  if (status === 'completed') return 0;
  if (status === 'failed') {
    context.stderr.write(`pmiyc: ${result.failed} answers could not be had (the provider kept failing); the rest is stored. Ask for them again with: ${resume}\n`);
    return EXIT_FAILED;
  }
  context.stderr.write(`pmiyc: stopped; every answer finished so far is stored. Resume with: ${resume}\n`);
  return EXIT_INTERRUPTED;
}
