import { InvalidArgumentError } from 'commander';
import { describeInvalidConfidence, describeInvalidRunName, describeInvalidTurns } from '../domain/validation.js';
import { REPORT_FORMATS, type ReportFormat } from '../report/report-formats.js';

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

/** --confidence of a sequential run: a number from 0.5 to 0.999999 (`CONFIDENCE_RANGE`). */
export function parseConfidence(value: string): number {
  const confidence = value.trim() === '' ? Number.NaN : Number(value);
  const problem = describeInvalidConfidence(confidence, `"${value}"`);
  if (problem) throw new InvalidArgumentError(`${problem}.`);
  return confidence;
}

/** --precision of a sequential run: a positive interval width in NC units. */
export function parsePrecision(value: string): number {
  const precision = Number(value);
  if (value.trim() === '' || !Number.isFinite(precision) || precision <= 0) {
    throw new InvalidArgumentError(`--precision must be a positive interval width in NC units (e.g. 0.2), got "${value}".`);
  }
  return precision;
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

/** Default ports, kept here so that the program can declare every command without loading its server. */
export const DEFAULT_ANNOTATION_PORT = 7312;
/** The viewer's port unless --port says otherwise (the annotation page has 7312). */
export const DEFAULT_VIEW_PORT = 7313;
/** The people study server's port unless --port says otherwise. */
export const DEFAULT_PEOPLE_PORT = 7314;

/** `--port N`: 0 (any free port) to 65535. */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || port > 65535)
    throw new InvalidArgumentError(`--port must be a port number from 0 to 65535 (0 picks a free one), got "${value}".`);
  return port;
}

/** `--claims-per-domain 3,2` -> { subjective: 3, misinformation: 2 }; one number means both. */
export function parseClaimsPerDomain(value: string): { subjective: number; misinformation: number } {
  const parts = value.split(',').map((part) => part.trim());
  const numbers = parts.map(Number);
  if (parts.length < 1 || parts.length > 2 || parts.some((part) => !/^\d+$/.test(part)) || numbers.every((number) => number === 0)) {
    throw new InvalidArgumentError(`--claims-per-domain takes SUBJECTIVE,MISINFORMATION claim counts such as 3,2 (the paper's), got "${value}".`);
  }
  return { subjective: numbers[0]!, misinformation: numbers[1] ?? numbers[0]! };
}

/** `--compare a,b` -> ['a', 'b']: exactly two runs, the baseline first. */
export function parseComparedRuns(value: string): string[] {
  const names = parseRunNames(value);
  if (names.length !== 2) throw new InvalidArgumentError(`--compare takes two runs, the baseline first: --compare before,after (got "${value}").`);
  return names;
}

/** `--format html,md` -> ['html', 'md'] (commander reports a bad value as a usage error); a format named twice is written once. */
export function parseReportFormats(value: string): ReportFormat[] {
  const formats = parseCommaList(value);
  const unknown = formats.filter((format) => !(REPORT_FORMATS as readonly string[]).includes(format));
  if (formats.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(`--format takes a comma-separated list of ${REPORT_FORMATS.join(', ')}, got "${value}".`);
  }
  return [...new Set(formats)] as ReportFormat[];
}

/**
 * `--judge a,b` -> ['a', 'b']: each judge labels every turn once, so a model named twice is refused
 * (merging it silently would run one judge where the user asked for two).
 */
export function parseJudges(value: string): string[] {
  const judges = parseCommaList(value);
  const twice = firstNamedTwice(judges);
  if (twice !== undefined)
    throw new InvalidArgumentError(
      `--judge names ${twice} twice: each judge labels every turn once. Name it once; for a second judge, give another model (or another alias of it in the config).`,
    );
  return judges;
}

/** `--run a,b` -> ['a', 'b']; a run named twice is read once. */
export function parseRunNames(value: string): string[] {
  const names = [...new Set(parseCommaList(value))];
  if (names.length === 0) throw new InvalidArgumentError(`--run takes a run name or a comma-separated list of names, got "${value}".`);
  return names;
}

/**
 * The one reader of a comma-separated list (`a, b,,c` -> ['a', 'b', 'c']): each item trimmed, empty
 * ones dropped. The option parsers above and below take their lists from it and add their own rule.
 */
export function parseCommaList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * The parser of `flag`'s list of models or prompt variants, each of which is a side of the study: one
 * named twice is refused (a usage error, exit 2), since a study would plan it twice and store it once.
 */
export function parseDistinctNames(flag: string) {
  return (value: string): string[] => {
    const names = parseCommaList(value);
    const twice = firstNamedTwice(names);
    if (twice !== undefined) throw new InvalidArgumentError(`${flag} names ${twice} twice: name each once.`);
    return names;
  };
}

function firstNamedTwice(names: readonly string[]): string | undefined {
  return names.find((name, index) => names.indexOf(name) !== index);
}
