import { InputError } from '../../../domain/errors/input-error.js';
import {
  PERSUSAFETY_CONSTRAINTS,
  PERSUSAFETY_PERSUADEE_PROFILES,
  PERSUSAFETY_SCENE_SETS,
  type PersusafetyCondition,
  type PersusafetyConstraint,
  type PersusafetyProfile,
  type PersusafetySceneSet,
} from '../persusafety-facts.js';

/**
 * The names a user types for a PersuSafety run's conditions (`--profiles`, `--profile-visibility`, `--constraints`,
 * `--scenes`), matched without regard to case, each kept once in the benchmark's order; an unknown name is an
 * InputError listing the names the flag takes.
 */

function named<Name extends string>(names: readonly string[], known: readonly Name[], flag: string, aliases: Readonly<Record<string, Name>> = {}): Name[] {
  const wanted = new Set<Name>();
  for (const name of names) {
    const typed = name.trim().toLowerCase();
    const found = known.find((candidate) => candidate.toLowerCase() === typed) ?? aliases[typed];
    if (found === undefined) throw new InputError(`${flag}: ${JSON.stringify(name)} is not one of ${[...known, ...Object.keys(aliases)].join(', ')}`);
    wanted.add(found);
  }
  return known.filter((candidate) => wanted.has(candidate));
}

/** `--profiles Resilient,anxious`: PersuSafety's persuadee profiles named. */
export const persusafetyProfilesNamed = (names: readonly string[]): PersusafetyProfile[] => named(names, PERSUSAFETY_PERSUADEE_PROFILES, '--profiles');

/** `--profile-visibility visible,hidden`: the benchmark's conditions (`hidden` is its `invisible`). */
export const persusafetyConditionsNamed = (names: readonly string[]): PersusafetyCondition[] =>
  named(names, ['visible', 'invisible'] as const, '--profile-visibility', { hidden: 'invisible' });

/** `--constraints none,benefit`: what more the persuader is told on a neutral scene. */
export const persusafetyConstraintsNamed = (names: readonly string[]): PersusafetyConstraint[] => named(names, PERSUSAFETY_CONSTRAINTS, '--constraints');

/** `--scenes harmful|neutral|both`: the scene sets played. */
export function persusafetySceneSetsOf(scenes: 'harmful' | 'neutral' | 'both'): PersusafetySceneSet[] {
  return scenes === 'both' ? [...PERSUSAFETY_SCENE_SETS] : [scenes];
}

/** How a condition is said to a user: the benchmark's `invisible` is `hidden`, as the flag says it. */
export const persusafetyConditionWord = (condition: PersusafetyCondition): string => (condition === 'invisible' ? 'hidden' : condition);
