import { InputError } from '../../domain/errors/input-error.js';
import { hashString } from '../../domain/random.js';
import { MAX_PLANTED_DRIFT } from './sim-drift.js';

/**
 * A persuasion technique a simulated persuader uses (issue 29): on each of its turns it uses the
 * technique with chance `rate`, independently of its other techniques and of everything else, and
 * a turn that uses it raises the simulated persuadee's expected next change of agreement by
 * `effect` scale points (negative: lowers it), from any standing below Completely Support
 * (`techniqueEffectRoom` in sim-persuadee.ts says where the scale leaves room for it).
 */
export interface PlantedTechnique {
  readonly id: string;
  readonly rate: number;
  readonly effect: number;
}

/** An unethical strategy a simulated persuader uses on each of its turns with chance `rate` (`unethical.<id>=<rate>`). */
export interface PlantedStrategy {
  readonly id: string;
  readonly rate: number;
}

/**
 * The planted traits of a simulated agent, each in [0, 1]:
 * - persuasiveness: how strong its arguments are as a persuader;
 * - susceptibility: how readily it moves as a persuadee;
 * - malformed: the chance that any one reply breaks the tagged format;
 * - labelError: as a judge of turns, the chance that it says the opposite of the truth about each
 *   technique (used or not) on each turn;
 * - techniques: as a persuader, the techniques it uses, with their planted rates and effects
 *   (`technique.<id>=<rate>:<effect>` in its name; none unless given);
 * - unethical: as a persuader, the unethical strategies it uses, each with its rate (`unethical.<id>=<rate>`);
 * - refuse: as a persuader, the chance that a turn refuses to argue for the claim;
 * - leaveRole: in either role, the chance that a turn steps out of its role.
 * - drift: as a persuader asked the drift probe after a conversation, how many scale points its own
 *   agreement with the claim moves on average from its stance before (`drift=<d>`, d from -2 to 2;
 *   absent unless given: then it answers the probe with a fresh draw, no drift on average). See sim-drift.ts.
 * - protocolTraits: the keys of a protocol's namespace (`ape.refuse=0.1`, `ape.refuse.t1=0.2`), raw, for that
 *   protocol's simulated replies to read and check (simulated-protocol.ts); absent when none is given.
 * Each turn states what it did in marks a simulated judge reads (sim-techniques.ts).
 */
export interface SimProfile {
  readonly name: string;
  readonly persuasiveness: number;
  readonly susceptibility: number;
  readonly malformed: number;
  readonly labelError: number;
  readonly techniques: readonly PlantedTechnique[];
  readonly unethical: readonly PlantedStrategy[];
  readonly refuse: number;
  readonly leaveRole: number;
  readonly drift?: number;
  readonly protocolTraits?: Readonly<Record<string, string>>;
}

type Traits = Omit<SimProfile, 'name' | 'techniques' | 'labelError' | 'unethical' | 'refuse' | 'leaveRole' | 'protocolTraits'>;

/** Named profiles with distinct, planted orderings (see docs/design/simulated-agents.md). */
export const NAMED_SIM_PROFILES: Readonly<Record<string, Traits>> = {
  eloquent: { persuasiveness: 0.9, susceptibility: 0.3, malformed: 0 },
  'open-minded': { persuasiveness: 0.6, susceptibility: 0.85, malformed: 0 },
  stubborn: { persuasiveness: 0.35, susceptibility: 0.08, malformed: 0 },
  weak: { persuasiveness: 0.12, susceptibility: 0.55, malformed: 0 },
};

const TRAIT_NAMES = ['persuasiveness', 'susceptibility', 'malformed', 'labelError', 'refuse', 'leaveRole'] as const;
type TraitName = (typeof TRAIT_NAMES)[number];
const TECHNIQUE_PREFIX = 'technique.';
const UNETHICAL_PREFIX = 'unethical.';
/** `<namespace>.<rest>`: a protocol's key, kept raw for the protocol to read (the two prefixes above are PMIYC's own). */
const PROTOCOL_KEY = /^[a-z][\w-]*\.[\w.-]+$/i;

/** Traits of an unnamed profile, derived from its name so that `sim/anything` is stable. */
function derivedTraits(name: string): Traits {
  const fraction = (salt: number) => (hashString(name, salt) % 10_000) / 10_000;
  return { persuasiveness: 0.1 + 0.8 * fraction(1), susceptibility: 0.1 + 0.8 * fraction(2), malformed: 0 };
}

/** `technique.<id>=<rate>:<effect>`: a rate in [0, 1] and an effect in [-1, 1] scale points. */
function readTechnique(modelName: string, key: string, value: string): PlantedTechnique {
  const id = key.slice(TECHNIQUE_PREFIX.length);
  const [rate = '', effect = '', ...rest] = value.split(':');
  const effectNumber = Number(effect);
  if (!/^[\w.-]+$/.test(id) || rest.length > 0 || effect.trim() === '' || !Number.isFinite(effectNumber) || Math.abs(effectNumber) > 1) {
    throw new InputError(`${modelName}: ${key} must be <rate>:<effect>, a rate from 0 to 1 and an effect from -1 to 1, e.g. technique.logos=0.5:0.3`);
  }
  return { id, rate: readTrait(modelName, `${key}'s rate`, rate), effect: effectNumber };
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
  const traits: { -readonly [K in TraitName]: number } = { ...(NAMED_SIM_PROFILES[name] ?? derivedTraits(name)), labelError: 0, refuse: 0, leaveRole: 0 };
  const techniques: PlantedTechnique[] = [];
  const unethical: PlantedStrategy[] = [];
  let drift: number | undefined;
  const protocolTraits: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(query ?? '')) {
    if (key === 'drift') {
      drift = Number(value);
      if (value.trim() === '' || !Number.isFinite(drift) || Math.abs(drift) > MAX_PLANTED_DRIFT) {
        throw new InputError(`${modelName}: drift must be a number of scale points from -${MAX_PLANTED_DRIFT} to ${MAX_PLANTED_DRIFT}, got "${value}"`);
      }
      continue;
    }
    if (key.startsWith(TECHNIQUE_PREFIX)) {
      techniques.push(readTechnique(modelName, key, value));
      continue;
    }
    if (key.startsWith(UNETHICAL_PREFIX)) {
      const id = key.slice(UNETHICAL_PREFIX.length);
      if (!/^[\w.-]+$/.test(id)) throw new InputError(`${modelName}: ${key} must name a strategy, e.g. unethical.deception=0.2`);
      unethical.push({ id, rate: readTrait(modelName, key, value) });
      continue;
    }
    if (PROTOCOL_KEY.test(key)) {
      protocolTraits[key] = value;
      continue;
    }
    if (!(TRAIT_NAMES as readonly string[]).includes(key)) {
      throw new InputError(
        `${modelName}: unknown parameter "${key}"; use ${TRAIT_NAMES.join(', ')}, drift, technique.<id>, unethical.<id> or a protocol's <protocol>.<trait>`,
      );
    }
    traits[key as TraitName] = readTrait(modelName, key, value);
  }
  return {
    name,
    ...traits,
    techniques,
    unethical,
    ...(drift === undefined ? {} : { drift }),
    ...(Object.keys(protocolTraits).length === 0 ? {} : { protocolTraits }),
  };
}
