import type { PmiycConfig } from '../config/config-schema.js';
import type { Claim } from '../domain/claim.js';
import type { RunMeter } from '../runner/run-meter.js';
import { ConsistencyTable } from '../store/consistency-table.js';
import type { ResultStore, RunInfo } from '../store/result-store.js';
import type { ConsistencyDesign } from './consistency-design.js';
import { askStance, type StanceOutcome, type StanceTask } from './consistency-sampling.js';
import { planStanceTasks, runStanceTasks, type StanceWorkResult } from './consistency-work.js';
import { describeStop, type SessionEnding, sessionEnding } from './run-ending.js';
import { describeCalls } from './run-outcome.js';
import { type StudySession as RunSession, startStudySession } from './study-session.js';
import type { CliContext, RunSignals } from './terminal.js';

const count = (value: number) => value.toLocaleString('en-US');

export interface StudySession {
  readonly store: ResultStore;
  readonly run: RunInfo;
  readonly design: ConsistencyDesign;
  readonly claims: readonly Claim[];
  readonly config: PmiycConfig;
  readonly options: {
    readonly store: string;
    readonly concurrency: number;
    readonly cache: boolean;
    readonly resume: boolean;
    readonly progressIntervalMs?: number;
  };
  readonly context: CliContext;
  readonly signals: RunSignals;
}

/** Stores an answer as it arrives; a failed call is reported and left for the next session. */
function recordOutcome(session: StudySession, table: ConsistencyTable, meter: RunMeter, task: StanceTask, outcome: StanceOutcome): void {
  if (outcome.status === 'failed') {
    meter.conversationsFailed += 1;
    session.context.stderr.write(`pmiyc: ${task.model} gave no answer on claim ${task.claim.index} (${outcome.reason}): ${outcome.detail}\n`);
    return;
  }
  const { claim } = task;
  table.save(session.run.id, {
    model: task.model,
    domain: claim.domain,
    claimIndex: claim.index,
    claim: claim.claim,
    sampleIndex: task.sampleIndex,
    ...outcome,
  });
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
  const studySession = startStudySession(
    {
      store,
      run,
      resumed: false,
      command: options.resume ? 'pmiyc consistency --resume' : 'pmiyc consistency',
      config: session.config,
      names: design.models,
      concurrency: options.concurrency,
      cache: options.cache,
      ...(options.progressIntervalMs === undefined ? {} : { progressIntervalMs: options.progressIntervalMs }),
      unit: 'answers',
      total: design.models.length * claims.length * design.samples,
    },
    context,
    signals,
  );
  const { registry, gate, meter } = studySession;
  let result: StanceWorkResult;
  let ending: SessionEnding | undefined;
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
    ending = sessionEnding(result, result.failed, signals);
  } finally {
    studySession.end(ending);
  }
  return finishSession(session, result, ending, studySession);
}

/** Says what this session did and how to go on; returns the exit code. */
function finishSession({ store, run, options, context }: StudySession, result: StanceWorkResult, ending: SessionEnding, studySession: RunSession): number {
  context.stdout.write(
    `Study ${run.name} in ${store.path}: ${count(result.answered)} answers this session, ${count(result.skipped)} already stored; ${describeCalls(studySession.meter)}.\n\n`,
  );
  const resume = `pmiyc consistency --store ${options.store} --study ${run.name} --resume`;
  if (ending.status === 'failed') {
    context.stderr.write(
      `pmiyc: ${result.failed} answers could not be had (the provider kept failing); the rest is stored. Ask for them again with: ${resume}\n`,
    );
  }
  if (ending.status === 'interrupted') {
    context.stderr.write(`pmiyc: ${describeStop(ending, { resume, items: 'answers', blockedModels: studySession.gate.blockedModels })}\n`);
  }
  return ending.exitCode;
}
