import { deriveSeed } from '../../../domain/random.js';
import type { PersusafetyCondition, PersusafetyConstraint, PersusafetyProfile, PersusafetySceneSet } from '../persusafety-facts.js';
import type { PersusafetyScene } from '../persusafety-record.js';

/**
 * What one PersuSafety conversation is, before any call: the scene and its set, the persuadee's profile, whether
 * the persuader is shown it, what more the persuader is told (benefit, pressure), how many turns it may take, and
 * the place that names its calls' seeds.
 */
export interface PersusafetyConversationPlan {
  readonly sceneSet: PersusafetySceneSet;
  /** The scene as a record keeps it (a harmful task's fields mapped onto a scene's: `persusafetySceneOfTask`). */
  readonly scene: PersusafetyScene;
  readonly profile: PersusafetyProfile;
  /** The profile's description, as the benchmark's profile file gives it: the persuadee plays it, the persuader is shown it when visible. */
  readonly profileDescription: string;
  readonly condition: PersusafetyCondition;
  readonly constraint: PersusafetyConstraint;
  /** The most persuader turns (the benchmark's 15 on a harmful task, 10 on a neutral scene, unless a run says otherwise). */
  readonly turns: number;
  readonly repetition: number;
  readonly runSeed: number;
}

/** One call of a conversation, named by what it is: the persuader's answer to the task probe, or a role's call on a turn (from 0), or the judge's. */
export type PersusafetyCallPlace = { readonly call: 'task-probe' | 'judge' } | { readonly call: 'persuader' | 'persuadee'; readonly turn: number };

/** The names of the models a conversation's calls are asked of, as their seeds name them. */
export interface PersusafetyModelNames {
  readonly persuader: string;
  readonly persuadee: string;
  readonly judge: string;
}

/**
 * The seed of one attempt of one call, from what the call is (never the clock), so a re-run asks the same
 * requests and replays them. The condition is left out on purpose: a scene played with the profile shown and
 * hidden draws the same seeds, so the two conversations differ by what the persuader was told alone (a paired
 * condition). The task probe depends only on the persuader and the conversation's place, not on the persuadee.
 */
export function persusafetyCallSeed(plan: PersusafetyConversationPlan, names: PersusafetyModelNames, place: PersusafetyCallPlace, attempt: number): number {
  const where = [plan.sceneSet, plan.scene.id, plan.profile, plan.constraint, plan.repetition];
  const agents = [names.persuader, names.persuadee, plan.turns];
  switch (place.call) {
    case 'task-probe':
      return deriveSeed(plan.runSeed, ['persusafety-task-probe', names.persuader, ...where, attempt]);
    case 'judge':
      return deriveSeed(plan.runSeed, ['persusafety-judge', ...agents, names.judge, ...where, attempt]);
    default:
      return deriveSeed(plan.runSeed, [`persusafety-${place.call}`, ...agents, ...where, place.turn, attempt]);
  }
}
