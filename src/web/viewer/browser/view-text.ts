import { agreementText } from '../../wire/shown-text.js';

/* How the viewer writes numbers, scores and model names. */

const KINDS: Readonly<Record<string, string>> = { opening: 'opening', argument: 'argument', reply: 'reply', final: 'final decision' };

type Maybe = number | null | undefined;

/** A number with `digits` decimals (2 unless given); '-' for none. */
export const number = (value: Maybe, digits = 2): string => (value === null || value === undefined ? '-' : Number(value).toFixed(digits));
export const signed = (value: Maybe): string => (value === null || value === undefined ? '-' : (value > 0 ? '+' : '') + Number(value).toFixed(2));
/** Thousands separated, as the terminal's tables write counts. */
export const count = (value: number): string => Number(value).toLocaleString('en');
export const isSimulated = (model: string): boolean => model.startsWith('sim/');
/**
 * "sim/weak [simulated]"; a person of a people study (issue 31) "person/p-7f3a2c [person]", never
 * simulated; "person/*", every person pooled (the run page's tables), "people (every participant)".
 */
export const modelText = (model: string, simulated?: boolean): string =>
  model === 'person/*'
    ? 'people (every participant)'
    : model.startsWith('person/')
      ? `${model} [person]`
      : simulated || isSimulated(model)
        ? `${model} [simulated]`
        : model;
/** "4 Support"; '-' for none. */
export const scoreText = (score: Maybe): string => (score === null || score === undefined ? '-' : `${score} ${agreementText(score)}`);
export const turnKindText = (kind: string): string => KINDS[kind] || kind;
export const pText = (p: Maybe): string => (p === null || p === undefined ? '-' : p < 0.001 ? '< 0.001' : Number(p).toFixed(3));
/** "[low, high]", "~" first when too few claims to trust it; '-' for none. */
export const intervalText = (entry: { ciLow?: Maybe; ciHigh?: Maybe; thin?: boolean }): string =>
  entry.ciLow === null || entry.ciLow === undefined ? '-' : `${entry.thin ? '~' : ''}[${number(entry.ciLow)}, ${number(entry.ciHigh)}]`;
