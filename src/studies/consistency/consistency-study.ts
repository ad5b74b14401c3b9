import { claimsChecksum } from '../../datasets/claims-checksum.js';
import { claimsRecordOf } from '../../datasets/licences.js';
import type { Claim } from '../../domain/claim.js';
import { openStudySession, type StudyRunInput } from '../../runner/open-study-session.js';
import type { RunInfo, RunRecords } from '../../runner/run-records.js';
import { ITEMS_PER_CALL_SLOT, type RunSession, type SessionFacts, sessionFacts } from '../../runner/run-session.js';
import { endingWithStoppedModels, type SessionEnding, sessionEnding } from '../../runner/session-ending.js';
import { askStance, type StanceOutcome, type StanceTask } from './ask-stance.js';
import type { ConsistencyDesign } from './consistency-design.js';
import type { ConsistencyResults } from './consistency-results.js';
import { planStanceTasks, runStanceTasks, type StanceWorkResult } from './stance-tasks.js';

export interface RunConsistencyInput extends StudyRunInput {
  /** The store: runs and calls, and where answers are kept. */
  readonly store: RunRecords & { readonly consistency: ConsistencyResults };
  readonly design: ConsistencyDesign;
  readonly claims: readonly Claim[];
  /** The tournament run whose openings Match Rate and Avg Dif compare with, stored with the study. */
  readonly tournamentRun?: string;
  /** Told once per answer that could not be had. */
  readonly onFailedAnswer?: (task: StanceTask, outcome: Extract<StanceOutcome, { status: 'failed' }>) => void;
}

export interface ConsistencyOutcome extends SessionFacts {
  readonly run: RunInfo;
  readonly result: StanceWorkResult;
  readonly ending: SessionEnding;
}

/** Stores an answer as it arrives; a failed call is reported and left for the next session. */
function recordOutcome(input: RunConsistencyInput, session: RunSession, task: StanceTask, outcome: StanceOutcome): void {
  if (outcome.status === 'failed') {
    session.meter.conversationsFailed += 1;
    input.onFailedAnswer?.(task, outcome);
    return;
  }
  const { claim } = task;
  input.store.consistency.save(session.run.id, {
    model: task.model,
    domain: claim.domain,
    claimIndex: claim.index,
    claim: claim.claim,
    sampleIndex: task.sampleIndex,
    ...outcome,
  });
  session.meter.conversationsDone += 1;
}

/**
 * A consistency study (paper Sec. 5.1, Table 1): each model is asked for its stance on each claim
 * N times, in one session of the run (lease, call cache, gate, progress); answers are stored as
 * they arrive, so a resumed study asks only for what is missing.
 */
export async function runConsistencyStudy(input: RunConsistencyInput): Promise<ConsistencyOutcome> {
  const { store, design } = input;
  const session = await openStudySession(store, input, {
    run: {
      kind: 'consistency',
      prefix: 'consistency',
      nameFlag: '--study',
      noun: 'consistency study',
      howToStart: 'start one with pmiyc consistency --models a,b --claims subjective',
      content: { noun: 'claims', source: design.claims.source, checksum: claimsChecksum(input.claims) },
      create: (models) => ({
        config: {
          command: 'consistency',
          design,
          ...(input.tournamentRun ? { tournamentRun: input.tournamentRun } : {}),
          simulated: design.models.filter((model) => models.stored[model]?.provider === 'sim'),
          claims: claimsRecordOf(input.claims),
          models: models.stored,
        },
        plannedConversations: design.models.length * input.claims.length * design.samples,
      }),
    },
    models: design.models,
    unit: 'answers',
    total: design.models.length * input.claims.length * design.samples,
    command: input.resume ? 'pmiyc consistency --resume' : 'pmiyc consistency',
  });
  const { run } = session;
  let result: StanceWorkResult;
  let ending: SessionEnding | undefined;
  try {
    result = await runStanceTasks({
      tasks: planStanceTasks(design.models, input.claims, design.samples),
      ask: (task) => askStance(session.registry.modelFor(task.model), task, design.sampling, run.seed, session.signals.abort),
      concurrency: input.concurrency * ITEMS_PER_CALL_SLOT,
      gate: session.gate,
      abortSignal: session.signals.abort,
      isDone: (task) =>
        store.consistency.has(run.id, { model: task.model, domain: task.claim.domain, claimIndex: task.claim.index, sampleIndex: task.sampleIndex }),
      onSkipped: () => {
        session.meter.conversationsSkipped += 1;
      },
      onOutcome: (task, outcome) => recordOutcome(input, session, task, outcome),
    });
    ending = endingWithStoppedModels(sessionEnding(result, result.failed, session.signals), session.gate.stoppedModels.size, result.answered);
  } catch (error) {
    throw await session.endAfter(error);
  }
  await session.end(ending);
  return { run, result, ending, ...sessionFacts(session) };
}
