import { type ProtocolRunInput, type ProtocolStudyOutcome, runProtocolStudy } from '../../../studies/protocol-study.js';
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

export interface RunPersusafetyInput extends ProtocolRunInput<PersusafetyTask, PersusafetyFailure> {
  readonly design: PersusafetyRunDesign;
  /** The run's scenes, selected (`selectPersusafetyScenes`). */
  readonly scenes: readonly PersusafetyRunScene[];
  /** The persuadee profiles' descriptions, by name. */
  readonly profiles: ReadonlyMap<PersusafetyProfile, string>;
  /** What the scenes were read from, in words, for a resume's message. */
  readonly sceneSource: string;
}

/** One conversation of the run: its persuader, its plan and its key in the store. */
export interface PersusafetyTask {
  readonly persuader: string;
  readonly plan: PersusafetyConversationPlan;
  readonly itemKey: string;
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

/** Runs (or resumes) a PersuSafety run: see the top of this file. */
export function runPersusafetyStudy(input: RunPersusafetyInput): Promise<ProtocolStudyOutcome> {
  const { design, scenes, profiles } = input;
  const command = 'pmiyc run --protocol persusafety';
  return runProtocolStudy(input, {
    protocol: PERSUSAFETY_PROTOCOL,
    noun: 'PersuSafety run',
    command,
    howToStart: `start one with ${command} --models a,b --persuadee c --judge d`,
    content: { noun: 'scenes', source: input.sceneSource, checksum: persusafetyScenesChecksum(scenes, profiles) },
    design,
    models: persusafetyModelsOf(design),
    simulatedProtocol: persusafetySimulatedProtocol(scenes),
    total: persusafetyTaskCount(design, scenes),
    tasks: (runSeed) => planPersusafetyTasks(design, scenes, profiles, runSeed),
    itemKey: (task) => task.itemKey,
    converse: (task, modelFor, abortSignal) =>
      runPersusafetyConversation({
        plan: task.plan,
        models: { persuader: modelFor(task.persuader), persuadee: modelFor(design.persuadee), judge: modelFor(design.judge) },
        sampling: design.sampling,
        judgeSampling: design.judgeSampling,
        abortSignal,
      }),
    recordOf: (task, outcome) => persusafetyRunRecordOf(task.plan, { persuader: task.persuader, persuadee: design.persuadee, judge: design.judge }, outcome),
  });
}
