import { InputError } from '../../domain/errors/input-error.js';
import { hashString } from '../../domain/random.js';

/**
 * The planted traits of a simulated agent, each in [0, 1]:
 * - persuasiveness: how strong its arguments are as a persuader;
 * - susceptibility: how readily it moves as a persuadee;
 * - malformed: the chance that any one reply breaks the tagged format.
 */
export interface SimProfile {
  readonly name: string;
  readonly persuasiveness: number;
  readonly susceptibility: number;
  readonly malformed: number;
}

type Traits = Omit<SimProfile, 'name'>;

/** Named profiles with distinct, planted orderings (see docs/design/simulated-agents.md). */
export const NAMED_SIM_PROFILES: Readonly<Record<string, Traits>> = {
  eloquent: { persuasiveness: 0.9, susceptibility: 0.3, malformed: 0 },
  'open-minded': { persuasiveness: 0.6, susceptibility: 0.85, malformed: 0 },
  stubborn: { persuasiveness: 0.35, susceptibility: 0.08, malformed: 0 },
  weak: { persuasiveness: 0.12, susceptibility: 0.55, malformed: 0 },
};

const TRAIT_NAMES = ['persuasiveness', 'susceptibility', 'malformed'] as const;

/** Traits of an unnamed profile, derived from its name so that `sim/anything` is stable. */
function derivedTraits(name: string): Traits {
  const fraction = (salt: number) => (hashString(name, salt) % 10_000) / 10_000;
  return { persuasiveness: 0.1 + 0.8 * fraction(1), susceptibility: 0.1 + 0.8 * fraction(2), malformed: 0 };
}

function readTrait(modelName: string, key: string, value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 1) {
    throw new InputError(`${modelName}: ${key} must be a number from 0 to 1, got "${value}"`);
  }
  return number;
}

/**
 * Reads the part of a model name after `sim/`: a profile name and optional query parameters,
 * e.g. `x?persuasiveness=0.8&susceptibility=0.2&malformed=0.05`.
 */
export function parseSimProfile(modelName: string): SimProfile {
  const spec = modelName.replace(/^sim\//, '');
  const [name = '', query] = spec.split('?', 2);
  if (!/^[\w.-]+$/.test(name)) {
    throw new InputError(`${modelName}: a simulated agent needs a name of letters, digits, '.', '_' or '-', e.g. sim/eloquent`);
  }
  const traits: { -readonly [K in keyof Traits]: number } = { ...(NAMED_SIM_PROFILES[name] ?? derivedTraits(name)) };
  for (const [key, value] of new URLSearchParams(query ?? '')) {
    if (!(TRAIT_NAMES as readonly string[]).includes(key)) {
      throw new InputError(`${modelName}: unknown parameter "${key}"; use ${TRAIT_NAMES.join(', ')}`);
    }
    traits[key as keyof Traits] = readTrait(modelName, key, value);
  }
  return { name, ...traits };
}
