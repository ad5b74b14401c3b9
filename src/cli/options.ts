import { InvalidArgumentError } from 'commander';
import { describeInvalidRunName, describeInvalidTurns } from '../domain/validation.js';

/** Option parsers: commander reports their errors as usage errors (exit code 2). */
export function parseWholeNumber(name: string, minimum = 0) {
  return (value: string): number => {
    const number = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number < minimum) {
      throw new InvalidArgumentError(`${name} must be a whole number of at least ${minimum}, got "${value}".`);
    }
    return number;
  };
}

export function parseTurns(value: string): number {
  const turns = Number(value);
  const problem = /^-?\d+$/.test(value.trim()) ? describeInvalidTurns(turns) : `turns must be a whole number, got "${value}"`;
  if (problem) throw new InvalidArgumentError(`${problem}.`);
  return turns;
}

/** A run or study name in the safe alphabet of describeInvalidRunName, for the flag named `flag`. */
export function parseRunName(flag: string) {
  return (value: string): string => {
    const problem = describeInvalidRunName(value);
    if (problem) throw new InvalidArgumentError(`${flag}: ${problem}.`);
    return value;
  };
}

/** The run keeps 4 x concurrency conversations open, each with its memory: the bound keeps a typo from exhausting it. */
const MAX_CONCURRENCY = 1000;

/** --concurrency: a whole number of model calls in flight at once, from 1 to 1000. */
export function parseConcurrency(value: string): number {
  const concurrency = Number(value);
  if (!/^\d+$/.test(value.trim()) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new InvalidArgumentError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY} (model calls in flight at once), got "${value}".`);
  }
  return concurrency;
}

export function parseChoice<T extends string>(name: string, choices: readonly T[]) {
  return (value: string): T => {
    if (!(choices as readonly string[]).includes(value)) {
      throw new InvalidArgumentError(`${name} must be one of ${choices.join(', ')}, got "${value}".`);
    }
    return value as T;
  };
}

export function parseTemperature(value: string): number {
  const temperature = Number(value);
  if (value.trim() === '' || !Number.isFinite(temperature) || temperature < 0 || temperature > 2) {
    throw new InvalidArgumentError(`--temperature must be a number from 0 to 2, got "${value}".`);
  }
  return temperature;
}

export function parseCost(value: string): number {
  const cost = Number(value);
  if (value.trim() === '' || !Number.isFinite(cost) || cost < 0)
    throw new InvalidArgumentError(`--max-cost must be an amount in US dollars, e.g. 25, got "${value}".`);
  return cost;
}

/** A count of conversations (>= 1) or a fraction of those finished (between 0 and 1). */
export function parseFailureLimit(value: string): number {
  const limit = Number(value);
  if (value.trim() === '' || !Number.isFinite(limit) || limit < 0 || (limit > 1 && !Number.isInteger(limit))) {
    throw new InvalidArgumentError(`--max-failures must be a whole number of conversations or a fraction below 1, got "${value}".`);
  }
  return limit;
}
