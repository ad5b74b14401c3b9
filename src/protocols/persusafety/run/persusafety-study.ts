import { openStudySession, type StudyRunInput } from '../../../runner/open-study-session.js';
import type { RunInfo, RunRecords } from '../../../runner/run-records.js';
import { ITEMS_PER_CALL_SLOT, type RunSession, type SessionFacts, sessionFacts } from '../../../runner/run-session.js';
import { runTasks, type TasksResult } from '../../../runner/run-tasks.js';
import { endingWithStoppedModels, type SessionEnding, sessionEnding } from '../../../runner/session-ending.js';
import type { ProtocolRecords } from '../../../studies/protocol-records.js';
import { runPersusafetyConversation } from '../conversation/persusafety-conversation.js';
import type { PersusafetyFailure } from '../conversation/persusafety-outcome.js';
import type { PersusafetyConversationPlan } from '../conversation/persusafety-plan.js';
import { PERSUSAFETY_PROTOCOL } from '../persusafety-design.js';
import type { PersusafetyProfile } from '../persusafety-facts.js';
import { persusafetyItemKey } from '../persusafety-record.js';
import { persusafetySimulatedProtocol } from '../sim/persusafety-simulated.js';
import { type PersusafetyRunDesign, persusafetyConstraintsOf, persusafetyModelsOf, persusafetyTurnsOf } from './persusafety-run-design.js';
import { persusafetyRunRecordOf } from './persusafety-run-record.js';
import { type PersusafetyRunScene, persusafetyScenesChecksum } from './persusafety-run-scenes.js';

/**
 * A PersuSafety run (docs/design/protocols.md, "PersuSafety: the run"): every persuader on every scene, under every
 * profile, condition and constraint of the design, `repetitions` times, each a conversation with the run's
 * persuadee judged once by its judge, in one session of the run (call cache, replay, budget, lease, progress). Each
 * finished conversation's record is stored at once; a resumed run skips the stored ones and asks again only what
 * is missing (a conversation that failed or was cut short replays the calls it had made).
 */

export interface RunPersusafetyInput extends StudyRunInput {
  readonly store: RunRecords & { readonly protocolRecords: ProtocolRecords };
  readonly design: PersusafetyRunDesign;
  /** The run's scenes, selected (`selectPersusafetyScenes`). */
  readonly scenes: readonly PersusafetyRunScene[];
  /** The persuadee profiles' descriptions, by name. */
  readonly profiles: ReadonlyMap<PersusafetyProfile, string>;
  /** What the scenes were read from, in words, for a resume's message. */
  readonly sceneSource: string;
  /** Told once per conversation that could not be completed. */
  readonly onFailedConversation?: (task: PersusafetyTask, failure: PersusafetyFailure) => void;
}

/** One conversation of the run: its persuader, its plan and its key in the store. */
export interface PersusafetyTask {
  readonly persuader: string;
  readonly plan: PersusafetyConversationPlan;
  readonly itemKey: string;
}

export interface PersusafetyStudyOutcome extends SessionFacts {
  readonly run: RunInfo;
  readonly result: TasksResult;
  readonly ending: SessionEnding;
}

/**
 * Every conversation of the run, read lazily: scene by scene, then constraint, profile and repetition, then the
 * two conditions side by side (a pair) and the persuaders within, so the persuaders' calls interleave.
 */
export function* planPersusafetyTasks(
  design: PersusafetyRunDesign,
  scenes: readonly PersusafetyRunScene[],
  profiles: ReadonlyMap<PersusafetyProfile, string>,
  runSeed: number,
): Generator<PersusafetyTask> {
  for (const { sceneSet, scene } of scenes)
    for (const constraint of persusafetyConstraintsOf(design, sceneSet))
      for (const profile of design.profiles)
        for (let repetition = 0; repetition < design.repetitions; repetition++)
          for (const condition of design.conditions)
            for (const persuader of design.persuaders) {
              const plan: PersusafetyConversationPlan = {
                sceneSet,
                scene,
                profile,
                profileDescription: profiles.get(profile) ?? '',
                condition,
                constraint,
                turns: persusafetyTurnsOf(design, sceneSet),
                repetition,
                runSeed,
              };
              const itemKey = persusafetyItemKey({ persuader, study: sceneSet, condition, profile, scene, played: { constraint, repetition } });
              yield { persuader, plan, itemKey };
            }
}

/** How many conversations the design asks of these scenes. */
export function persusafetyTaskCount(design: PersusafetyRunDesign, scenes: readonly PersusafetyRunScene[]): number {
  const perScene = design.profiles.length * design.repetitions * design.conditions.length * design.persuaders.length;
  return scenes.reduce((total, { sceneSet }) => total + persusafetyConstraintsOf(design, sceneSet).length * perScene, 0);
}

async function runTask(input: RunPersusafetyInput, session: RunSession, task: PersusafetyTask): Promise<'done' | 'failed'> {
  const { design } = input;
  const model = (name: string) => session.registry.modelFor(name);
  const outcome = await runPersusafetyConversation({
    plan: task.plan,
    models: { persuader: model(task.persuader), persuadee: model(design.persuadee), judge: model(design.judge) },
    sampling: design.sampling,
    judgeSampling: design.judgeSampling,
    abortSignal: session.signals.abort,
  });
  if (outcome.status === 'failed') {
    session.meter.conversationsFailed += 1;
    input.onFailedConversation?.(task, outcome.failure);
    return 'failed';
  }
  const names = { persuader: task.persuader, persuadee: design.persuadee, judge: design.judge };
  input.store.protocolRecords.add(session.run.id, task.itemKey, persusafetyRunRecordOf(task.plan, names, outcome));
  session.meter.conversationsDone += 1;
  return 'done';
}

/** Runs (or resumes) a PersuSafety run: see the top of this file. */
export async function runPersusafetyStudy(input: RunPersusafetyInput): Promise<PersusafetyStudyOutcome> {
  const { store, design, scenes, profiles } = input;
  const total = persusafetyTaskCount(design, scenes);
  const command = 'pmiyc run --protocol persusafety';
  const session = await openStudySession(store, input, {
    run: {
      kind: 'protocol',
      prefix: 'persusafety',
      nameFlag: '--run',
      noun: 'PersuSafety run',
      howToStart: `start one with ${command} --models a,b --persuadee c --judge d`,
      content: { noun: 'scenes', source: input.sceneSource, checksum: persusafetyScenesChecksum(scenes, profiles) },
      create: (models) => ({
        config: {
          command: 'protocol',
          protocol: PERSUSAFETY_PROTOCOL,
          design,
          simulated: persusafetyModelsOf(design).filter((name) => models.stored[name]?.provider === 'sim'),
          models: models.stored,
        },
        plannedConversations: total,
      }),
    },
    models: persusafetyModelsOf(design),
    // The run's sim/ agents answer PersuSafety's requests (below the call cache: replayed and resumed as every call).
    simulatedProtocol: persusafetySimulatedProtocol(scenes),
    unit: 'conversations',
    total,
    command: input.resume ? `${command} --resume` : command,
  });
  const { run } = session;
  let result: TasksResult;
  let ending: SessionEnding;
  try {
    result = await runTasks({
      tasks: planPersusafetyTasks(design, scenes, profiles, run.seed),
      concurrency: input.concurrency * ITEMS_PER_CALL_SLOT,
      gate: session.gate,
      abortSignal: session.signals.abort,
      isDone: (task) => store.protocolRecords.has(run.id, task.itemKey),
      onSkipped: () => {
        session.meter.conversationsSkipped += 1;
      },
      run: (task) => runTask(input, session, task),
    });
    ending = endingWithStoppedModels(sessionEnding(result, result.failed, session.signals), session.gate.stoppedModels.size, result.done);
  } catch (error) {
    throw await session.endAfter(error);
  }
  await session.end(ending);
  return { run, result, ending, ...sessionFacts(session) };
}
