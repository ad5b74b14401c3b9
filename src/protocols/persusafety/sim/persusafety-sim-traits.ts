import { PERSUSAFETY_TAXONOMY } from '../../../config/taxonomy/persusafety-taxonomy.js';
import { InputError } from '../../../domain/errors/input-error.js';
import { PERSUSAFETY_HARMFULNESS_LEVELS, type PersusafetyHarmfulness } from '../persusafety-facts.js';

/**
 * The traits a simulated PersuSafety agent is planted with (docs/design/simulated-agents.md, "Protocols"), each a
 * chance given in the agent's name under PersuSafety's namespace:
 * - as a persuader, its chance of declining the task, for every scene or by the scene's harmfulness level
 *   (`persusafety.refuse=0.1`, `persusafety.refuse.High=0.8`; a neutral scene is `neutral`);
 * - as a persuader, each strategy's chance of being used in a conversation, for both conditions or for one
 *   (`persusafety.strategy.guilt-tripping=0.3`, `persusafety.strategy.exploiting-vulnerability.visible=0.6`; the
 *   ids are the `persusafety` taxonomy's);
 * - as a persuadee, its chance of accepting and of rejecting on each reply (`persusafety.accept=0.2`,
 *   `persusafety.reject=0.3`; the rest is undecided), by default 0.3 x its susceptibility and 0.3 x the rest.
 * The most specific key wins; none is 0.
 */

/** The namespace of PersuSafety's keys in a simulated agent's name. */
export const PERSUSAFETY_SIM_NAMESPACE = 'persusafety';

/** Where a scene stands for a planted refusal: a harmful task's level, or a neutral scene. */
export type PersusafetySimLevel = PersusafetyHarmfulness | 'neutral';
const LEVELS: readonly PersusafetySimLevel[] = [...PERSUSAFETY_HARMFULNESS_LEVELS, 'neutral'];

const STRATEGY_IDS: readonly string[] = PERSUSAFETY_TAXONOMY.unethical.map((strategy) => strategy.id);
const CONDITIONS = ['visible', 'hidden'] as const;

/** The planted keys read: each chance by its place (`refuse|High`, `strategy|guilt-tripping|*`, `accept`). */
export type PersusafetyPlantedRates = ReadonlyMap<string, number>;

function formsText(): string {
  return [
    'use persusafety.refuse[.<level>] (the chance of declining the task; levels Low, Medium, High, neutral)',
    'persusafety.strategy.<id>[.visible|.hidden] (the chance a conversation uses the strategy)',
    `persusafety.accept or persusafety.reject (a persuadee's chance on each reply); strategy ids: ${STRATEGY_IDS.join(', ')}`,
  ].join('; ');
}

/** One key's place, or undefined when it is not one of the forms. */
function placeOf(key: string): string | undefined {
  const [namespace, kind, ...rest] = key.split('.');
  if (namespace !== PERSUSAFETY_SIM_NAMESPACE) return undefined;
  if ((kind === 'accept' || kind === 'reject') && rest.length === 0) return kind;
  if (kind === 'refuse' && rest.length <= 1) {
    if (rest.length === 0) return 'refuse|*';
    const level = LEVELS.find((candidate) => candidate.toLowerCase() === rest[0]!.toLowerCase());
    return level === undefined ? undefined : `refuse|${level}`;
  }
  if (kind === 'strategy' && (rest.length === 1 || rest.length === 2) && STRATEGY_IDS.includes(rest[0]!)) {
    const condition = rest[1];
    if (condition !== undefined && !(CONDITIONS as readonly string[]).includes(condition)) return undefined;
    return `strategy|${rest[0]}|${condition ?? '*'}`;
  }
  return undefined;
}

function readChance(modelName: string, key: string, value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 1)
    throw new InputError(`${modelName}: ${key} must be a number from 0 to 1, got "${value}"`);
  return number;
}

/**
 * Reads a simulated agent's PersuSafety keys (`traits`, each whole key with its raw value): a key of another form,
 * a value outside 0-1, or chances of accepting and rejecting that add up past 1 is an InputError naming the agent,
 * the key and the forms it takes.
 */
export function readPersusafetyPlantedRates(modelName: string, traits: Readonly<Record<string, string>>): PersusafetyPlantedRates {
  const rates = new Map<string, number>();
  for (const [key, value] of Object.entries(traits)) {
    const place = placeOf(key);
    if (place === undefined) throw new InputError(`${modelName}: unknown PersuSafety parameter "${key}": ${formsText()}`);
    rates.set(place, readChance(modelName, key, value));
  }
  const accept = rates.get('accept') ?? 0;
  const reject = rates.get('reject') ?? 0;
  if (accept + reject > 1 + 1e-9)
    throw new InputError(`${modelName}: the chances of accepting (${accept}) and of rejecting (${reject}) add up to more than 1: lower one of them`);
  return rates;
}

/** The planted chance of declining a task at `level`. */
export function plantedRefusal(rates: PersusafetyPlantedRates, level: PersusafetySimLevel): number {
  return rates.get(`refuse|${level}`) ?? rates.get('refuse|*') ?? 0;
}

/** The planted chance that a conversation uses the strategy `id`, with the profile shown or hidden. */
export function plantedStrategyUse(rates: PersusafetyPlantedRates, id: string, profileShown: boolean): number {
  return rates.get(`strategy|${id}|${profileShown ? 'visible' : 'hidden'}`) ?? rates.get(`strategy|${id}|*`) ?? 0;
}

/** A persuadee's chances of accepting and of rejecting on each reply: planted, or from its susceptibility. */
export function plantedDecisionChances(rates: PersusafetyPlantedRates, susceptibility: number): { readonly accept: number; readonly reject: number } {
  const accept = rates.get('accept');
  const reject = rates.get('reject');
  if (accept === undefined && reject === undefined) return { accept: 0.3 * susceptibility, reject: 0.3 * (1 - susceptibility) };
  return { accept: accept ?? 0, reject: reject ?? 0 };
}

/** The strategy ids a simulated persuader draws from, in PersuSafety's order. */
export const PERSUSAFETY_SIM_STRATEGY_IDS = STRATEGY_IDS;
