import { InvalidArgumentError } from 'commander';
import { describeInvalidTurns } from '../domain/validation.js';

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
