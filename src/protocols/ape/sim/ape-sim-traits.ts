import { InputError } from '../../../domain/errors/input-error.js';
import { APE_CATEGORIES, APE_DEFAULTS, type ApeCategory } from '../ape-facts.js';

/**
 * The traits a simulated APE persuader is planted with (docs/design/simulated-agents.md, "Protocols"): on each
 * turn it refuses with one chance, makes no attempt with another, and attempts otherwise. Each is given in the
 * agent's name under APE's namespace, for every turn and category or narrowed to some:
 * `ape.refuse=0.1`, `ape.refuse.UnderminingControl=0.6`, `ape.refuse.t3=0.2`, `ape.refuse.UnderminingControl.t1=0.8`
 * (and `ape.noattempt` the same way). The most specific key wins: category and turn, then the category, then the
 * turn, then the bare key; none gives 0.
 */

/** The namespace of APE's keys in a simulated agent's name. */
export const APE_SIM_NAMESPACE = 'ape';

/** A persuader turn's planted chances of refusing and of making no attempt; the rest of its turns attempt. */
export interface ApePlantedChances {
  readonly refuse: number;
  readonly noAttempt: number;
}

/** The planted keys read: each chance by where it applies (`*` for every category or turn). */
export type ApePlantedRates = ReadonlyMap<string, number>;

type ChanceKey = 'refuse' | 'noattempt';

const placeOf = (chance: ChanceKey, category: ApeCategory | '*', turn: number | '*') => `${chance}|${category}|${turn}`;

function formsText(): string {
  return [
    `use ape.refuse or ape.noattempt (a persuader turn's chance of refusing, or of making no attempt), for every turn and category or narrowed by .<category>, .t<turn> or both, e.g. ape.refuse.UnderminingControl.t1=0.6`,
    `categories: ${APE_CATEGORIES.join(', ')}; turns t1 to t${APE_DEFAULTS.turns}`,
  ].join('; ');
}

/** One key's place, or undefined when it is not one of the forms. */
function readPlace(key: string): { chance: ChanceKey; category: ApeCategory | '*'; turn: number | '*' } | undefined {
  const [namespace, chance, ...rest] = key.split('.');
  if (namespace !== APE_SIM_NAMESPACE || !(chance === 'refuse' || chance === 'noattempt') || rest.length > 2) return undefined;
  let category: ApeCategory | '*' = '*';
  let turn: number | '*' = '*';
  for (const [index, part] of rest.entries()) {
    const turnMatch = /^t(\d+)$/.exec(part);
    if (turnMatch && index === rest.length - 1 && Number(turnMatch[1]) >= 1 && Number(turnMatch[1]) <= APE_DEFAULTS.turns) {
      turn = Number(turnMatch[1]);
      continue;
    }
    const named = APE_CATEGORIES.find((candidate) => candidate.toLowerCase() === part.toLowerCase());
    if (named === undefined || index > 0) return undefined;
    category = named;
  }
  return { chance, category, turn };
}

function readChance(modelName: string, key: string, value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 1) {
    throw new InputError(`${modelName}: ${key} must be a number from 0 to 1, got "${value}"`);
  }
  return number;
}

/** A turn's planted chances on a topic of `category` (undefined: a topic the run does not know, so only the per-turn and bare keys apply). */
export function apePlantedChances(rates: ApePlantedRates, category: ApeCategory | undefined, turn: number): ApePlantedChances {
  const chanceOf = (chance: ChanceKey): number => {
    const places = [
      ...(category === undefined ? [] : [placeOf(chance, category, turn), placeOf(chance, category, '*')]),
      placeOf(chance, '*', turn),
      placeOf(chance, '*', '*'),
    ];
    for (const place of places) {
      const rate = rates.get(place);
      if (rate !== undefined) return rate;
    }
    return 0;
  };
  return { refuse: chanceOf('refuse'), noAttempt: chanceOf('noattempt') };
}

/**
 * Reads a simulated agent's APE keys (`traits`, each whole key with its raw value): a key of another form, a
 * value outside 0-1, or a category and turn where refusing and making no attempt add up to more than 1 is an
 * InputError naming the agent, the key and the forms it takes.
 */
export function readApePlantedRates(modelName: string, traits: Readonly<Record<string, string>>): ApePlantedRates {
  const rates = new Map<string, number>();
  for (const [key, value] of Object.entries(traits)) {
    const place = readPlace(key);
    if (place === undefined) throw new InputError(`${modelName}: unknown APE parameter "${key}": ${formsText()}`);
    rates.set(placeOf(place.chance, place.category, place.turn), readChance(modelName, key, value));
  }
  for (const category of APE_CATEGORIES) {
    for (let turn = 1; turn <= APE_DEFAULTS.turns; turn++) {
      const { refuse, noAttempt } = apePlantedChances(rates, category, turn);
      if (refuse + noAttempt > 1 + 1e-9)
        throw new InputError(
          `${modelName}: on ${category} at turn ${turn} the chances of refusing (${refuse}) and of making no attempt (${noAttempt}) add up to more than 1: lower one of them`,
        );
    }
  }
  return rates;
}
