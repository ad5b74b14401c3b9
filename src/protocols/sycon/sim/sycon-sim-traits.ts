import { InputError } from '../../../domain/errors/input-error.js';
import { SYCON_DEFAULTS } from '../sycon-facts.js';

/**
 * The traits a simulated model under test is planted with (docs/design/simulated-agents.md, "Protocols"): its first
 * answer misses the stance with one chance (`sycon.miss`), and on each pressure turn it gives the stance up with
 * another while it holds it (`sycon.flip`), and comes back to it with a third once it has given it up
 * (`sycon.return`). Each is given in the agent's name for every defence and turn, or narrowed: `sycon.flip=0.2`,
 * `sycon.flip.t3=0.5`, `sycon.flip.ignore-opinions=0.05`, `sycon.flip.ignore-opinions.t1=0.1` (a miss has no turn).
 * The most specific key wins: defence and turn, then the defence, then the turn, then the bare key; none gives 0.
 */

/** The namespace of SYCON's keys in a simulated agent's name. */
export const SYCON_SIM_NAMESPACE = 'sycon';

const CHANCES = ['miss', 'flip', 'return'] as const;
type Chance = (typeof CHANCES)[number];

/** The planted keys read: each chance by where it applies (`*` for every defence or turn). */
export type SyconPlantedChances = ReadonlyMap<string, number>;

const placeOf = (chance: Chance, defence: string, turn: number | '*') => `${chance}|${defence}|${turn}`;

function formsText(defences: readonly string[]): string {
  return [
    'use sycon.miss (the first answer misses the stance), sycon.flip (a pressure turn gives the stance up) or sycon.return (a pressure turn comes back to it), for every defence and turn or narrowed by .<defence>, .t<turn> (not for miss) or both, e.g. sycon.flip.baseline.t2=0.4',
    `defences of this run: ${defences.join(', ')}; turns t1 to t${SYCON_DEFAULTS.maxPressureTurns}`,
  ].join('; ');
}

/** One key's place, or undefined when it is not one of the forms. */
function readPlace(key: string, defences: readonly string[]): { chance: Chance; defence: string; turn: number | '*' } | undefined {
  const [namespace, chance, ...rest] = key.split('.');
  if (namespace !== SYCON_SIM_NAMESPACE || !CHANCES.includes(chance as Chance) || rest.length > 2) return undefined;
  let defence = '*';
  let turn: number | '*' = '*';
  for (const [index, part] of rest.entries()) {
    const turnMatch = /^t(\d+)$/.exec(part);
    const number = Number(turnMatch?.[1]);
    if (turnMatch && chance !== 'miss' && index === rest.length - 1 && number >= 1 && number <= SYCON_DEFAULTS.maxPressureTurns) {
      turn = number;
      continue;
    }
    if (index > 0 || !defences.includes(part)) return undefined;
    defence = part;
  }
  return { chance: chance as Chance, defence, turn };
}

/** The chance planted for a defence on a turn (a miss: turn 0, with no turn key). */
export function syconPlantedChance(chances: SyconPlantedChances, chance: Chance, defence: string | undefined, turn: number): number {
  const places = [
    ...(defence === undefined ? [] : [placeOf(chance, defence, turn), placeOf(chance, defence, '*')]),
    placeOf(chance, '*', turn),
    placeOf(chance, '*', '*'),
  ];
  for (const place of places) {
    const planted = chances.get(place);
    if (planted !== undefined) return planted;
  }
  return 0;
}

/**
 * Reads a simulated agent's SYCON keys (`traits`, each whole key with its raw value) for a run of `defences`: a key of
 * another form or naming no defence of the run, or a value outside 0-1, is an InputError naming the agent, the key
 * and the forms it takes.
 */
export function readSyconPlantedChances(modelName: string, traits: Readonly<Record<string, string>>, defences: readonly string[]): SyconPlantedChances {
  const chances = new Map<string, number>();
  for (const [key, value] of Object.entries(traits)) {
    const place = readPlace(key, defences);
    if (place === undefined) throw new InputError(`${modelName}: unknown SYCON-Bench parameter "${key}": ${formsText(defences)}`);
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 1)
      throw new InputError(`${modelName}: ${key} must be a number from 0 to 1, got "${value}"`);
    chances.set(placeOf(place.chance, place.defence, place.turn), number);
  }
  return chances;
}
