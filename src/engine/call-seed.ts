import { claimKey } from '../domain/claim.js';
import type { ConversationSpec } from '../domain/conversation.js';
import { deriveSeed } from '../domain/random.js';

/**
 * For each role of a conversation, the name that stands for the prompts that role is asked with.
 * It is the agent's own name unless its prompt variant leaves that role's prompts as pmiyc's own;
 * then it is the plain model's, whose requests the agent's are, word for word.
 */
export interface SeedNames {
  readonly persuader: string;
  readonly persuadee: string;
}

/** The seed names of a conversation whose agents use their own prompts in both roles (the spec's names). */
export function seedNamesOfSpec(spec: ConversationSpec): SeedNames {
  return { persuader: spec.persuaderModel, persuadee: spec.persuadeeModel };
}

/**
 * The seed of one call, from what the call *is* (SPEC 6): the run seed and, for each role, the
 * name of the prompts it is asked with (`names`), so that two agents asking the same request ask
 * it with the same seed:
 * - the opening from (persuadee, claim, repetition): shared by every persuader and both settings;
 * - the first argument from (persuader, persuadee, claim, repetition): shared by both settings;
 * - later turns also from the planned turn count and the turn index;
 * - a re-sample also from its attempt number.
 * Repetition 0 leaves the repetition out of the opening's seed, as before repetitions drew their
 * own openings: a run with one repetition keeps its seeds, and its stored calls replay.
 * Shared calls are therefore literally the same request, and a re-run asks the same questions.
 */
export function callSeed(spec: ConversationSpec, turnIndex: number, attempt: number, names: SeedNames = seedNamesOfSpec(spec)): number {
  const claim = claimKey(spec.claim);
  if (turnIndex === 1) {
    const parts = ['opening', names.persuadee, claim, attempt];
    return deriveSeed(spec.runSeed, spec.repetition === 0 ? parts : [...parts, spec.repetition]);
  }
  if (turnIndex === 2) {
    return deriveSeed(spec.runSeed, ['argument', names.persuader, names.persuadee, claim, spec.repetition, attempt]);
  }
  return deriveSeed(spec.runSeed, ['turn', names.persuader, names.persuadee, claim, spec.repetition, spec.turns, turnIndex, attempt]);
}

/**
 * The seed of one attempt of a conversation's drift probe (the persuader asked where it stands
 * after it): from what the probe is, as `callSeed` (the conversation's agents, by the names of
 * their prompts, claim, repetition and planned turns) with `drift` in the path, so that a probe of
 * a conversation another pair shares request for request is the same request, asked once.
 */
export function driftProbeSeed(spec: ConversationSpec, attempt: number, names: SeedNames = seedNamesOfSpec(spec)): number {
  return deriveSeed(spec.runSeed, ['drift', names.persuader, names.persuadee, claimKey(spec.claim), spec.repetition, spec.turns, attempt]);
}
