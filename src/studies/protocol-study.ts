import { batchSettingsOf } from '../models/batch/with-batch.js';
import type { ChatModel } from '../models/chat-model.js';
import type { SimulatedProtocol } from '../models/sim/simulated-protocol.js';
import type { CheckedModels } from '../runner/models/check-models.js';
import type { RunToOpen } from '../runner/open-run.js';
import { openStudySession, type StudyRunInput } from '../runner/open-study-session.js';
import type { RunInfo, RunRecords } from '../runner/run-records.js';
import { itemsInFlight, type RunSession, type SessionFacts, sessionFacts } from '../runner/run-session.js';
import { runTasks, type TasksResult } from '../runner/run-tasks.js';
import { endingWithStoppedModels, type SessionEnding, sessionEnding } from '../runner/session-ending.js';
import type { ProtocolRecords } from './protocol-records.js';

/**
 * The session every protocol run has (docs/design/protocols.md, "What a protocol is made of"): its run opened (new,
 * with the protocol's stored config, or resumed), its conversations run as tasks in one session (call cache, replay,
 * budget, lease, progress), each finished one's record stored at once, the stored ones skipped on resume, a failed
 * one counted and told, and the session's ending. A protocol gives what is its own (`ProtocolStudy`): its plan,
 * one conversation, its record, its words.
 */

/** What every protocol run is given: the settings every study shares, the store, and where failures are told. */
export interface ProtocolRunInput<Task, Failure> extends StudyRunInput {
  readonly store: RunRecords & { readonly protocolRecords: ProtocolRecords };
  /** Told once per conversation that could not be completed. */
  readonly onFailedConversation?: (task: Task, failure: Failure) => void;
  /** `--batch`: every model's calls through its provider's batch service; kept with the run, so a resume batches too. */
  readonly batch?: boolean;
}

export interface ProtocolStudyOutcome extends SessionFacts {
  readonly run: RunInfo;
  readonly result: TasksResult;
  readonly ending: SessionEnding;
}

/** A conversation that could not be completed, as every protocol's loop gives it. */
interface FailedConversation<Failure> {
  readonly status: 'failed';
  readonly failure: Failure;
}

/** What a protocol's run stores with a new run, besides what every run stores. */
interface ProtocolRunConfig {
  /** The protocol's name (`ape`): the stored config's `protocol` and new runs' name prefix. */
  readonly protocol: string;
  /** The design stored with a new run, and the models' sampling for the report's "What ran" when it keeps one. */
  readonly design: unknown;
  readonly sampling?: unknown;
  /** The models the run calls, by name. */
  readonly models: readonly string[];
  /** The names the run's records give its simulated agents (default: the models that are simulated). */
  readonly simulatedNames?: (isSimulated: (model: string) => boolean) => string[];
}

/** What a protocol's run is, besides what every protocol run shares. */
export interface ProtocolStudy<Task, Completed extends { readonly status: 'completed' }, Failure> extends ProtocolRunConfig {
  /** The run in messages (`APE run`), the command that runs it and what to type to start one (`start one with ...`). */
  readonly noun: string;
  readonly command: string;
  readonly howToStart: string;
  /** What the run works on and their checksum: a resumed run must see the same. */
  readonly content: NonNullable<RunToOpen['content']>;
  /** The replies of the run's `sim/` agents to the protocol's requests (below the call cache: replayed and resumed as every call). */
  readonly simulatedProtocol: SimulatedProtocol;
  /** How many conversations the run plans, and the plan itself, read lazily, from the run's seed. */
  readonly total: number;
  readonly tasks: (runSeed: number) => Iterable<Task>;
  readonly itemKey: (task: Task) => string;
  /** One conversation, its models named by `modelFor`. */
  readonly converse: (task: Task, modelFor: (name: string) => ChatModel, abortSignal: AbortSignal) => Promise<Completed | FailedConversation<Failure>>;
  /** The record stored of a completed conversation. */
  readonly recordOf: (task: Task, outcome: Completed) => unknown;
}

/** The config stored with a new run: every protocol's in one `RunConfig` variant (docs/design/protocols.md, "Storage"). */
function storedConfigOf(study: ProtocolRunConfig, batch: boolean, models: CheckedModels) {
  const isSimulated = (model: string) => models.stored[model]?.provider === 'sim';
  return {
    command: 'protocol',
    protocol: study.protocol,
    design: study.design,
    simulated: study.simulatedNames?.(isSimulated) ?? study.models.filter(isSimulated),
    ...(batch ? { batch: true } : {}),
    ...(study.sampling === undefined ? {} : { sampling: study.sampling }),
    models: models.stored,
  };
}

async function runConversationTask<Task, Completed extends { readonly status: 'completed' }, Failure>(
  input: ProtocolRunInput<Task, Failure>,
  study: ProtocolStudy<Task, Completed, Failure>,
  session: RunSession,
  task: Task,
): Promise<'done' | 'failed'> {
  const outcome = await study.converse(task, (name) => session.registry.modelFor(name), session.signals.abort);
  if (outcome.status === 'failed') {
    session.meter.conversationsFailed += 1;
    input.onFailedConversation?.(task, outcome.failure);
    return 'failed';
  }
  input.store.protocolRecords.add(session.run.id, study.itemKey(task), study.recordOf(task, outcome));
  session.meter.conversationsDone += 1;
  return 'done';
}

/**
 * Conversations in flight at once: ITEMS_PER_CALL_SLOT per call slot, or when a model is batched (`--batch`, or
 * `batch:` under it in the config) as many as its batches hold, so that a wave of every conversation's next call
 * fills a batch (docs/design/batches.md, "Waves").
 */
function conversationsInFlight(models: readonly string[], input: { readonly concurrency: number; readonly batch?: boolean }, session: RunSession): number {
  const batchSizes = models.map((name) => batchSettingsOf(session.registry.settingsFor(name), input.batch === true)?.size ?? 0);
  return itemsInFlight(input.concurrency, batchSizes);
}

/** Runs (or resumes) a protocol's run: see the top of this file. */
export async function runProtocolStudy<Task, Completed extends { readonly status: 'completed' }, Failure>(
  input: ProtocolRunInput<Task, Failure>,
  study: ProtocolStudy<Task, Completed, Failure>,
): Promise<ProtocolStudyOutcome> {
  const { store } = input;
  const batch = input.batch === true;
  const session = await openStudySession(store, input, {
    run: {
      kind: 'protocol',
      prefix: study.protocol,
      nameFlag: '--run',
      noun: study.noun,
      howToStart: study.howToStart,
      content: study.content,
      create: (models) => ({ config: storedConfigOf(study, batch, models), plannedConversations: study.total }),
    },
    models: study.models,
    simulatedProtocol: study.simulatedProtocol,
    unit: 'conversations',
    total: study.total,
    command: input.resume ? `${study.command} --resume` : study.command,
    ...(batch ? { batch: true } : {}),
  });
  const { run } = session;
  let result: TasksResult;
  let ending: SessionEnding;
  try {
    result = await runTasks({
      tasks: study.tasks(run.seed),
      concurrency: conversationsInFlight(study.models, input, session),
      gate: session.gate,
      abortSignal: session.signals.abort,
      isDone: (task) => store.protocolRecords.has(run.id, study.itemKey(task)),
      onSkipped: () => {
        session.meter.conversationsSkipped += 1;
      },
      run: (task) => runConversationTask(input, study, session, task),
    });
    ending = endingWithStoppedModels(sessionEnding(result, result.failed, session.signals), session.gate.stoppedModels.size, result.done);
  } catch (error) {
    throw await session.endAfter(error);
  }
  await session.end(ending);
  return { run, result, ending, ...sessionFacts(session) };
}
